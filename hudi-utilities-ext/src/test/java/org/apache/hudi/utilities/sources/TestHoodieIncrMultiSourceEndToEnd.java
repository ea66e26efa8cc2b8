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

package org.apache.hudi.utilities.sources;

import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsersPipeline;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;
import org.apache.hudi.utilities.transform.SqlQueryBasedTransformer;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stock HoodieStreamer, in-process, joining the incremental changes of {@code orders} (COPY_ON_WRITE) and
 * {@code users} (MERGE_ON_READ) into one target, round after round.
 */
class TestHoodieIncrMultiSourceEndToEnd extends OrdersAndUsersPipeline {

  private static final String JOINED_COLUMNS = "order_id, user_id, amount, user_name, ts";

  TestHoodieIncrMultiSourceEndToEnd() {
    super("joined");
  }

  @BeforeEach
  void createJob() {
    job.sql(deltaJoinSql());
  }

  /**
   * The delta-join recipe: a changed order joins its user's current row, and a changed user is pushed to all its
   * orders. Upserted on order_id, the target stays equal to the full join of the sources.
   */
  private String deltaJoinSql() {
    return "-- orders: <SRC_0> / <SRC:orders>; users: <SRC_1> / <SRC:users>\n"
        + "CREATE OR REPLACE TEMPORARY VIEW users_now USING hudi OPTIONS (path '" + tables.usersPath + "');\n"
        + "CREATE OR REPLACE TEMPORARY VIEW orders_now USING hudi OPTIONS (path '" + tables.ordersPath + "');\n"
        + "SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts\n"
        + "FROM <SRC_0> o JOIN users_now u ON o.user_id = u.user_id\n"
        + "UNION ALL\n"
        + "SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts\n"
        + "FROM orders_now o JOIN <SRC:users> u ON o.user_id = u.user_id;\n";
  }

  @Test
  void joinsIncrementalChangesOfBothTablesRoundAfterRound() throws Exception {
    // Round 1: both tables new.
    String orders1 = tables.orders(order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L), order("o3", "u1", 30.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L), user("u2", "bob", 1L));
    job.syncInProcess();
    assertTargetIsJoinAt(orders1, users1);
    assertEquals("orders=" + orders1 + ",users=" + users1, HudiTables.lastCheckpoint(tables.targetPath));

    // Round 2: only orders advanced; users is empty but keeps its columns, and new orders still find their user.
    String orders2 = tables.orders(order("o4", "u2", 40.0, 2L), order("o1", "u1", 11.0, 2L));
    job.syncInProcess();
    assertTargetIsJoinAt(orders2, users1);
    assertEquals("orders=" + orders2 + ",users=" + users1, HudiTables.lastCheckpoint(tables.targetPath));

    // Round 3: nothing new: the round is skipped, no commit.
    int commitsBefore = HudiTables.completedCommits(tables.targetPath);
    job.syncInProcess();
    assertEquals(commitsBefore, HudiTables.completedCommits(tables.targetPath));
    assertEquals("orders=" + orders2 + ",users=" + users1, HudiTables.lastCheckpoint(tables.targetPath));

    // Round 4: both advance; a renamed user reaches its old orders, a new user its new order.
    String orders3 = tables.orders(order("o5", "u3", 50.0, 3L));
    String users2 = tables.users(user("u1", "alicia", 3L), user("u3", "carol", 3L));
    job.syncInProcess();
    assertTargetIsJoinAt(orders3, users2);
    assertEquals("orders=" + orders3 + ",users=" + users2, HudiTables.lastCheckpoint(tables.targetPath));
    assertEquals(commitsBefore + 1, HudiTables.completedCommits(tables.targetPath));
  }

  @Test
  void stockTransformersMayFollowTheMultiDatasetTransformerInAChain() throws Exception {
    String orders1 = tables.orders(order("o1", "u1", 10.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.transformers(MultiDatasetSqlFileTransformer.class.getName(), SqlQueryBasedTransformer.class.getName())
        .property("hoodie.streamer.transformer.sql",
            "SELECT order_id, user_id, amount, upper(user_name) AS user_name, ts FROM <SRC>");
    job.syncInProcess();
    assertEquals(List.of("[o1,u1,10.0,ALICE,1]"), targetRows());
    assertEquals("orders=" + orders1 + ",users=" + users1, HudiTables.lastCheckpoint(tables.targetPath));
  }

  @Test
  void worksWithFieldNameSanitizationOn() throws Exception {
    String orders1 = tables.orders(order("o1", "u1", 10.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.property("hoodie.streamer.source.sanitize.invalid.schema.field.names", "true");
    job.syncInProcess();
    assertTargetIsJoinAt(orders1, users1);
  }

  @Test
  void legacyBareCheckpointBecomesThePositionOfTheLegacyTable() throws Exception {
    String orders1 = tables.orders(order("o1", "u1", 10.0, 1L));
    String orders2 = tables.orders(order("o2", "u1", 20.0, 2L));
    String users1 = tables.users(user("u1", "alice", 1L));
    // As if upgrading a HoodieIncrSource job on orders that had consumed orders1.
    job.checkpoint(orders1)
        .sql("SELECT o.order_id, o.user_id, o.amount, u.user_name, o.ts FROM <SRC:orders> o "
            + "JOIN <SRC:users> u ON o.user_id = u.user_id");
    job.syncInProcess();
    assertEquals(List.of("[o2,u1,20.0,alice,2]"), targetRows());
    assertEquals("orders=" + orders2 + ",users=" + users1, HudiTables.lastCheckpoint(tables.targetPath));
  }

  /** The target equals the join of the sources read as of the given instants (Hudi time travel). */
  private void assertTargetIsJoinAt(String ordersInstant, String usersInstant) {
    SparkSession spark = SharedSpark.session();
    asOf(tables.ordersPath, ordersInstant).createOrReplaceTempView("orders_expected");
    asOf(tables.usersPath, usersInstant).createOrReplaceTempView("users_expected");
    List<String> expected = sorted(spark.sql("SELECT o.order_id, o.user_id, o.amount, u.user_name, "
        + "greatest(o.ts, u.ts) AS ts FROM orders_expected o JOIN users_expected u ON o.user_id = u.user_id"));
    assertFalse(expected.isEmpty());
    assertEquals(expected, targetRows());
  }

  private List<String> targetRows() {
    return sorted(SharedSpark.session().read().format("hudi").load(tables.targetPath).selectExpr(JOINED_COLUMNS.split(", ")));
  }

  private static Dataset<Row> asOf(String path, String instant) {
    return SharedSpark.session().read().format("hudi").option("as.of.instant", instant).load(path);
  }

  private static List<String> sorted(Dataset<Row> rows) {
    List<String> result = rows.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
    assertTrue(result.stream().noneMatch(row -> row.contains("null")), "no row may miss a joined column: " + result);
    return result;
  }
}
