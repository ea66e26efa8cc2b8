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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
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
  private static final String[] JOINED_COLUMNS = {"order_id", "user_id", "amount", "user_name", "ts"};

  private final Path dir;
  /** The folder of the tables, ending in {@code /}. */
  private final String root;
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
    this.root = root;
    this.ordersPath = root + "orders";
    this.usersPath = root + "users";
    this.targetPath = root + targetName;
    this.writeOptions = Map.of();
  }

  private OrdersAndUsers(OrdersAndUsers tables, Map<String, String> writeOptions) {
    this(tables, tables.dir, tables.targetPath, writeOptions);
  }

  private OrdersAndUsers(OrdersAndUsers tables, Path dir, String targetPath, Map<String, String> writeOptions) {
    this.dir = dir;
    this.root = tables.root;
    this.ordersPath = tables.ordersPath;
    this.usersPath = tables.usersPath;
    this.targetPath = targetPath;
    this.writeOptions = writeOptions;
  }

  /**
   * The same sources, written with the same options, feeding another target: {@code targetName} beside them, its
   * job's properties and SQL files in {@code jobDir} (created here), so that several jobs read the same commits.
   */
  public OrdersAndUsers withTarget(Path jobDir, String targetName) {
    try {
      Files.createDirectories(jobDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new OrdersAndUsers(this, jobDir, root + targetName, writeOptions);
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
   * Upserts orders with a cleaner that keeps only the given number of commits (archival later; metadata table off
   * unless these tables are written {@link #withColumnStats with it}); returns the instant of the commit.
   */
  public String ordersKeepingCommits(int commitsRetained, Row... rows) {
    Map<String, String> options = new HashMap<>(Map.of("hoodie.cleaner.commits.retained", String.valueOf(commitsRetained),
        "hoodie.keep.min.commits", "20", "hoodie.keep.max.commits", "30", "hoodie.metadata.enable", "false"));
    options.putAll(writeOptions);
    return HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, options, rows);
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
    assertTargetIs(joinAt(ordersInstant, usersInstant));
  }

  /**
   * Asserts that the target committed exactly the positions of {@code join} and equals its rows, each with its ts; for
   * several targets of the same sources, which {@link #joinAt} recomputes once for all.
   */
  public void assertTargetIs(Join join) {
    assertEquals("orders=" + join.ordersInstant + ",users=" + join.usersInstant, HudiTables.lastCheckpoint(targetPath));
    assertEquals(join.rows, sorted(SharedSpark.session().read().format("hudi").load(targetPath)
        .selectExpr(JOINED_COLUMNS)));
  }

  /** The inner join of the sources read with time travel at these instants, recomputed from them. */
  public Join joinAt(String ordersInstant, String usersInstant) {
    return new Join(ordersInstant, usersInstant, sorted(ExactJoins.recomputedAsOf(SharedSpark.session(), ordersPath,
        ordersInstant, usersPath, usersInstant).selectExpr(JOINED_COLUMNS)));
  }

  /** The joined rows ({@code order_id, user_id, amount, user_name, ts}, sorted) of the sources at two instants. */
  public static final class Join {
    private final String ordersInstant;
    private final String usersInstant;
    private final List<String> rows;

    private Join(String ordersInstant, String usersInstant, List<String> rows) {
      this.ordersInstant = ordersInstant;
      this.usersInstant = usersInstant;
      this.rows = rows;
    }

    /** The join and rows another writer put beside it ({@code order_id, user_id, amount, user_name, ts}). */
    public Join with(Row... otherRows) {
      List<String> all = new ArrayList<>(rows);
      Arrays.stream(otherRows).map(Row::toString).forEach(all::add);
      Collections.sort(all);
      return new Join(ordersInstant, usersInstant, all);
    }
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }
}
