/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.hudi.utilities.transform.view;

import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.keygen.SimpleKeyGenerator;
import org.apache.hudi.utilities.config.HoodieViewConfig;
import org.apache.hudi.utilities.config.ViewStrategy;
import org.apache.hudi.utilities.testutils.FailureMessages;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.StreamerJob;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A view's Streamer job over orders and users (COPY_ON_WRITE) into a COPY_ON_WRITE target, run in this JVM. */
final class ViewJob {

  private String sql;
  final String orders;
  final String users;
  final String target;
  final StreamerJob job;

  ViewJob(Path dir, String sql, String targetKey) {
    this.sql = sql;
    orders = dir.resolve("orders").toUri().toString();
    users = dir.resolve("users").toUri().toString();
    target = dir.resolve("target").toUri().toString();
    job = StreamerJob.ordersAndUsers(dir, orders, users, target)
        .property("hoodie.datasource.write.recordkey.field", targetKey)
        .property(HoodieViewConfig.STRATEGY.key(), ViewStrategy.STRICT.name())
        .orderingField(ViewDefinition.COMMIT_ORDER)
        .sql(sql);
  }

  /** The view's SQL file rewritten with {@code editedSql}, as a user edits a view between batches. */
  ViewJob edit(String editedSql) {
    sql = editedSql;
    job.sql(editedSql);
    return this;
  }

  ViewJob strategy(ViewStrategy strategy) {
    job.property(HoodieViewConfig.STRATEGY.key(), strategy.name());
    return this;
  }

  ViewJob partitionedBy(String column) {
    job.property("hoodie.datasource.write.partitionpath.field", column)
        .property("hoodie.datasource.write.keygenerator.class", SimpleKeyGenerator.class.getName());
    return this;
  }

  String orders(Row... rows) {
    return orders(Map.of(), ORDERS, rows);
  }

  String orders(Map<String, String> writeOptions, StructType schema, Row... rows) {
    return HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", schema, writeOptions, rows);
  }

  void deleteOrders(Row... rows) {
    HudiTables.delete(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS, rows);
  }

  void users(Row... rows) {
    HudiTables.upsert(users, "users", "COPY_ON_WRITE", "user_id", USERS, rows);
  }

  void sync() throws Exception {
    job.syncInProcess();
  }

  String failingSync() {
    return FailureMessages.of(assertThrows(Exception.class, job::syncInProcess));
  }

  Dataset<Row> target() {
    return SharedSpark.session().read().format("hudi").load(target)
        .drop(HoodieRecord.HOODIE_META_COLUMNS.toArray(new String[0]))
        .drop(ViewDefinition.IS_DELETED, ViewDefinition.COMMIT_ORDER);
  }

  /** The target equals the query over the tables as they are (no commit since the sync), as multisets of rows. */
  void assertTargetIsTheQuery() {
    String bound = sql;
    for (String table : List.of("orders", "users")) {
      SharedSpark.session().read().format("hudi").load(table.equals("orders") ? orders : users)
          .drop(HoodieRecord.HOODIE_META_COLUMNS.toArray(new String[0])).createOrReplaceTempView("risk_" + table);
      bound = bound.replace("<TABLE:" + table + ">", "risk_" + table);
    }
    Dataset<Row> expected = SharedSpark.session().sql(bound);
    Column[] columns = Arrays.stream(expected.columns()).map(functions::col).toArray(Column[]::new);
    assertEquals(rows(expected), rows(target().select(columns)), "the target differs from the view's query");
  }

  /** A multiset of rows: their texts, sorted, duplicates kept. */
  List<String> rows(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }
}
