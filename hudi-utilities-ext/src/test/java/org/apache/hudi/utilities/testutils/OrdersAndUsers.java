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

package org.apache.hudi.utilities.testutils;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The sources of most tests, under one folder: {@code orders} (COPY_ON_WRITE, key order_id) and {@code users}
 * (MERGE_ON_READ, key user_id), and the multi-table Streamer target they feed.
 */
public final class OrdersAndUsers {

  public final String ordersPath;
  public final String usersPath;
  public final String targetPath;
  private final Path dir;
  private final Map<String, String> writeOptions;

  public OrdersAndUsers(Path dir, String targetName) {
    this(dir, dir.toUri().toString(), targetName);
  }

  /**
   * The tables under another root, e.g. {@code s3a://bucket/lake}; the job's properties and SQL files stay in
   * {@code dir}.
   */
  public OrdersAndUsers(Path dir, String tablesRoot, String targetName) {
    String root = tablesRoot.endsWith("/") ? tablesRoot : tablesRoot + "/";
    this.dir = dir;
    this.ordersPath = root + "orders";
    this.usersPath = root + "users";
    this.targetPath = root + targetName;
    this.writeOptions = Map.of();
  }

  private OrdersAndUsers(OrdersAndUsers tables, Map<String, String> writeOptions) {
    this.dir = tables.dir;
    this.ordersPath = tables.ordersPath;
    this.usersPath = tables.usersPath;
    this.targetPath = tables.targetPath;
    this.writeOptions = writeOptions;
  }

  /** The same tables, written with the metadata table's column stats, which data skipping reads. */
  public OrdersAndUsers withColumnStats() {
    return new OrdersAndUsers(this, Map.of("hoodie.metadata.enable", "true",
        "hoodie.metadata.index.column.stats.enable", "true"));
  }

  /**
   * The same tables, written with change data (Hudi's CDC, before and after images logged), which CDC deltas read;
   * on top of the options these tables already have.
   */
  public OrdersAndUsers withChangeData() {
    Map<String, String> options = new HashMap<>(writeOptions);
    options.put("hoodie.table.cdc.enabled", "true");
    options.put("hoodie.table.cdc.supplemental.logging.mode", "DATA_BEFORE_AFTER");
    return new OrdersAndUsers(this, options);
  }

  /** The standard job over both tables, without SQL yet. */
  public StreamerJob job() {
    return StreamerJob.ordersAndUsers(dir, ordersPath, usersPath, targetPath);
  }

  /** Deletes orders; returns the instant of the commit. */
  public String deleteOrders(Row... rows) {
    return HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, delete(), rows);
  }

  /** Deletes users; returns the instant of the commit. */
  public String deleteUsers(Row... rows) {
    return HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS, delete(), rows);
  }

  private Map<String, String> delete() {
    Map<String, String> options = new HashMap<>(writeOptions);
    options.put("hoodie.datasource.write.operation", "delete");
    return options;
  }

  /** Upserts orders; returns the instant of the commit. */
  public String orders(Row... rows) {
    return HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, writeOptions, rows);
  }

  /**
   * Upserts orders with a cleaner that keeps only the given number of commits (archival later, metadata table off, so
   * that each commit cleans at once); returns the instant of the commit.
   */
  public String ordersKeepingCommits(int commitsRetained, Row... rows) {
    return HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        Map.of("hoodie.cleaner.commits.retained", String.valueOf(commitsRetained), "hoodie.keep.min.commits", "20",
            "hoodie.keep.max.commits", "30", "hoodie.metadata.enable", "false"), rows);
  }

  /**
   * Upserts orders with a cleaner that keeps only the given number of versions of each file
   * ({@code KEEP_LATEST_FILE_VERSIONS}; archival later, metadata table off); returns the instant of the commit.
   */
  public String ordersKeepingFileVersions(int versionsRetained, Row... rows) {
    return HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        Map.of("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS", "hoodie.cleaner.fileversions.retained",
            String.valueOf(versionsRetained), "hoodie.keep.min.commits", "20", "hoodie.keep.max.commits", "30",
            "hoodie.metadata.enable", "false"), rows);
  }

  /**
   * Upserts users with a cleaner that keeps only the given number of versions of each file
   * ({@code KEEP_LATEST_FILE_VERSIONS}), an inline compaction after each delta commit and new keys in new file groups
   * (archival later, metadata table off); returns the instant of the newest commit, a compaction's if one followed.
   */
  public String usersKeepingFileVersions(int versionsRetained, Row... rows) {
    return HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS,
        Map.of("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS", "hoodie.cleaner.fileversions.retained",
            String.valueOf(versionsRetained), "hoodie.compact.inline", "true", "hoodie.compact.inline.max.delta.commits",
            "1", "hoodie.parquet.small.file.limit", "0", "hoodie.keep.min.commits", "20", "hoodie.keep.max.commits", "30",
            "hoodie.metadata.enable", "false"), rows);
  }

  /** Upserts users; returns the instant of the commit. */
  public String users(Row... rows) {
    return HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS, writeOptions, rows);
  }

  /** The target's joined rows ({@code order_id, user_id, amount, user_name}), sorted. */
  public List<String> targetRows() {
    return sorted(SharedSpark.session().read().format("hudi").load(targetPath)
        .select("order_id", "user_id", "amount", "user_name"));
  }

  /**
   * Asserts that the target committed exactly these positions and equals, row for row and with each row's ts, the
   * inner join of the sources read with time travel at them.
   */
  public void assertTargetIsTheJoinAt(String ordersInstant, String usersInstant) {
    assertEquals("orders=" + ordersInstant + ",users=" + usersInstant, HudiTables.lastCheckpoint(targetPath));
    String[] columns = {"order_id", "user_id", "amount", "user_name", "ts"};
    List<String> expected = sorted(ExactJoins.recomputedAsOf(SharedSpark.session(), ordersPath, ordersInstant,
        usersPath, usersInstant).selectExpr(columns));
    assertEquals(expected, sorted(SharedSpark.session().read().format("hudi").load(targetPath).selectExpr(columns)));
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }
}
