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

import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.utilities.testutils.FailureMessages;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsersPipeline;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.StreamerJob;
import org.apache.hudi.utilities.testutils.TargetGauges;
import org.apache.hudi.utilities.transform.SqlQueryBasedTransformer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Operating a multi-table pipeline over time: checkpoint overrides, tables added and removed, reordered tables,
 * lenient parsing, hollow commits and archived positions. The target is a log of every source row version read
 * ({@code table:key:ts}), so what each run read, skipped or re-read is visible exactly.
 */
class TestOperatingMultiTablePipeline extends OrdersAndUsersPipeline {

  private static final String ITEMS_BRANCH =
      "\nUNION ALL\nSELECT concat('items:', order_id, ':', ts) AS read_id, ts FROM <SRC:items>";

  TestOperatingMultiTablePipeline() {
    super("read_log");
  }

  @BeforeEach
  void readLogJob() {
    logReads();
  }

  @Test
  void partialOverrideMovesOnlyTheNamedTableAndAppliesOnce() throws Exception {
    String orders1 = tables.orders(order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    assertCheckpoint("orders=" + orders1 + ",users=" + users1);

    String orders2 = tables.orders(order("o2", "u1", 2.0, 2L));
    String users2 = tables.users(user("u1", "alicia", 2L));
    job.checkpoint("users=LATEST").syncInProcess();
    assertEquals(List.of("orders:o1:1", "orders:o2:2", "users:u1:1"), readLog(), "users skipped to latest, orders went on");
    assertCheckpoint("orders=" + orders2 + ",users=" + users2);

    String orders3 = tables.orders(order("o3", "u1", 3.0, 3L));
    String users3 = tables.users(user("u2", "bob", 3L));
    job.syncInProcess(); // the same --checkpoint is still on the command line: it was applied once already
    assertEquals(List.of("orders:o1:1", "orders:o2:2", "orders:o3:3", "users:u1:1", "users:u2:3"), readLog());
    assertCheckpoint("orders=" + orders3 + ",users=" + users3);
  }

  @Test
  void earliestReReadsOneTableAndABareInstantKeepsTheOtherTablesInPlace() throws Exception {
    tables.orders(order("o1", "u1", 1.0, 1L));
    String orders2 = tables.orders(order("o2", "u1", 2.0, 2L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    String settled = "orders=" + orders2 + ",users=" + users1;
    assertCheckpoint(settled);
    int commits = HudiTables.completedCommits(tables.targetPath);

    job.checkpoint("orders=EARLIEST").syncInProcess();
    assertEquals(commits + 1, HudiTables.completedCommits(tables.targetPath));
    assertEquals(2, HudiTables.recordsWrittenByLastCommit(tables.targetPath), "both orders re-read, no user");
    assertCheckpoint(settled);

    String orders1 = HudiTables.allInstants(tables.ordersPath).get(0).replaceAll("\\D*(\\d+).*", "$1");
    job.checkpoint(orders1).syncInProcess(); // a bare instant, as a HoodieIncrSource job would have written
    assertEquals(commits + 2, HudiTables.completedCommits(tables.targetPath));
    assertEquals(1, HudiTables.recordsWrittenByLastCommit(tables.targetPath), "o2 re-read; users kept its position");
    assertCheckpoint(settled);
  }

  /**
   * The upgrade users make: a target fed from one table by the stock HoodieIncrSource (its bare checkpoint in the
   * target's commits), then the same target fed by this source with a second table.
   */
  @Test
  void targetFedByStockHoodieIncrSourceMovesToThisSourceWithoutReReadingOrSkipping() throws Exception {
    tables.orders(order("o1", "u1", 1.0, 1L));
    StreamerJob stock = new StreamerJob(Files.createDirectories(dir.resolve("stock-job")), tables.targetPath)
        .sourceClass(HoodieIncrSource.class.getName())
        .property("hoodie.datasource.write.recordkey.field", "read_id")
        .property("hoodie.streamer.source.hoodieincr.path", tables.ordersPath)
        .property("hoodie.streamer.source.hoodieincr.missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT")
        .property("hoodie.streamer.transformer.sql", "SELECT concat('orders:', order_id, ':', ts) AS read_id, ts FROM <SRC>")
        .transformers(SqlQueryBasedTransformer.class.getName());
    stock.syncInProcess();
    String orders2 = tables.orders(order("o2", "u1", 2.0, 2L));
    stock.syncInProcess();
    assertEquals(List.of("orders:o1:1", "orders:o2:2"), readLog(), "the stock job read both commits");
    assertCheckpoint(orders2);

    String orders3 = tables.orders(order("o1", "u1", 3.0, 3L), order("o3", "u2", 3.0, 3L));
    String users1 = tables.users(user("u1", "alice", 1L), user("u2", "bob", 1L));
    job.property("hoodie.streamer.source.multi.hudi.checkpoint.legacy.table", "orders").syncInProcess();
    assertEquals(List.of("orders:o1:1", "orders:o1:3", "orders:o2:2", "orders:o3:3", "users:u1:1", "users:u2:1"),
        readLog(), "orders went on after the stock checkpoint; users read from its start");
    assertEquals(4, HudiTables.recordsWrittenByLastCommit(tables.targetPath), "o1:1 and o2:2, read by the stock job, not read again");
    assertCheckpoint("orders=" + orders3 + ",users=" + users1);

    String orders4 = tables.orders(order("o4", "u2", 4.0, 4L));
    job.syncInProcess();
    assertEquals(1, HudiTables.recordsWrittenByLastCommit(tables.targetPath), "only o4 is new");
    assertCheckpoint("orders=" + orders4 + ",users=" + users1);
  }

  @Test
  void addedTableStartsFromItsStrategyRemovedTableIsDroppedAndReAddedFresh() throws Exception {
    String itemsPath = dir.resolve("items").toUri().toString();
    String orders1 = tables.orders(order("o1", "u1", 1.0, 1L));
    tables.users(user("u1", "alice", 1L));
    String items1 = HudiTables.upsert(itemsPath, "items", "COPY_ON_WRITE", "order_id", ORDERS, order("i1", "u1", 1.0, 1L));
    job.syncInProcess();

    job.property("hoodie.streamer.source.multi.hudi.tables", "orders,users,items")
        .property("hoodie.streamer.source.hudi.items.path", itemsPath)
        .property("hoodie.streamer.source.hudi.items.missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT")
        .sql(READ_LOG_SQL + ITEMS_BRANCH);
    job.syncInProcess();
    assertEquals(List.of("items:i1:1", "orders:o1:1", "users:u1:1"), readLog());
    String users1 = HudiTables.lastCheckpoint(tables.targetPath).replaceAll(".*users=(\\d+).*", "$1");
    assertCheckpoint("items=" + items1 + ",orders=" + orders1 + ",users=" + users1 + ",@order=orders|users|items");

    job.property("hoodie.streamer.source.multi.hudi.tables", "orders,items")
        .sql("SELECT concat('orders:', order_id, ':', ts) AS read_id, ts FROM <SRC:orders>" + ITEMS_BRANCH);
    job.syncInProcess(); // nothing new to read, but the removal is committed
    assertCheckpoint("items=" + items1 + ",orders=" + orders1 + ",@order=orders|items");

    String users2 = tables.users(user("u2", "bob", 2L));
    job.property("hoodie.streamer.source.multi.hudi.tables", "orders,items,users").sql(READ_LOG_SQL + ITEMS_BRANCH);
    job.syncInProcess();
    assertEquals(2, HudiTables.recordsWrittenByLastCommit(tables.targetPath), "re-added users is read from the start again");
    assertEquals(List.of("items:i1:1", "orders:o1:1", "users:u1:1", "users:u2:2"), readLog());
    assertCheckpoint("items=" + items1 + ",orders=" + orders1 + ",users=" + users2 + ",@order=orders|items|users");
  }

  @Test
  void positionalSqlFailsBeforeCommitWhenTheTablesAreReordered() throws Exception {
    String positional = "SELECT concat('orders:', order_id, ':', ts) AS read_id, ts FROM <SRC_0>\n"
        + "UNION ALL SELECT concat('users:', user_id, ':', ts) AS read_id, ts FROM <SRC_1>";
    tables.orders(order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.sql(positional).syncInProcess();
    String orders2 = tables.orders(order("o2", "u1", 2.0, 2L));
    List<String> timeline = HudiTables.allInstants(tables.targetPath);

    job.property("hoodie.streamer.source.multi.hudi.tables", "users,orders");
    Throwable failure = assertThrows(Throwable.class, job::syncInProcess);
    String messages = FailureMessages.of(failure);
    assertTrue(messages.contains("references tables by position") && messages.contains("then [orders, users], now "
        + "[users, orders]") && messages.contains("@order=users|orders"), messages);
    assertEquals(timeline, HudiTables.allInstants(tables.targetPath));

    job.sql(READ_LOG_SQL).syncInProcess();
    assertCheckpoint("orders=" + orders2 + ",users=" + users1 + ",@order=users|orders");
    String orders3 = tables.orders(order("o3", "u1", 3.0, 3L));
    job.sql("SELECT concat('users:', user_id, ':', ts) AS read_id, ts FROM <SRC_0>\n"
        + "UNION ALL SELECT concat('orders:', order_id, ':', ts) AS read_id, ts FROM <SRC_1>").syncInProcess();
    assertEquals(List.of("orders:o1:1", "orders:o2:2", "orders:o3:3", "users:u1:1"), readLog());
    assertCheckpoint("orders=" + orders3 + ",users=" + users1 + ",@order=users|orders");
  }

  @Test
  void lenientParsingNeverLetsATableSilentlyStartOver() throws Exception {
    tables.orders(order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.property("hoodie.streamer.source.multi.hudi.checkpoint.lenient", "true")
        .property("hoodie.metrics.on", "true")
        .property("hoodie.metrics.reporter.type", "INMEMORY")
        .withoutProperty("hoodie.streamer.source.hudi.orders.missing.checkpoint.strategy")
        .checkpoint("orders=abc,users=" + users1);

    Throwable failure = assertThrows(Throwable.class, job::syncInProcess);
    assertTrue(FailureMessages.of(failure).contains("Cannot resume table 'orders': lenient parsing skipped checkpoint entries "
        + "[orders=abc]"), FailureMessages.of(failure));
    assertTrue(HudiTables.allInstants(tables.targetPath).isEmpty());

    job.property("hoodie.streamer.source.hudi.orders.missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT");
    job.syncInProcess();
    assertEquals(List.of("orders:o1:1"), readLog(), "orders started from its explicit strategy; users stayed put");
    assertEquals(1L, TargetGauges.value(tables.targetPath, "multi_table_checkpoint_malformed_entries"));
  }

  @Test
  void hollowCommitHoldsBackOnlyItsOwnTable() throws Exception {
    String orders1 = tables.orders(order("o1", "u1", 1.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    String orders2 = tables.orders(order("o2", "u1", 2.0, 2L));
    // Another writer started before orders2 and has not finished: a hole in the orders timeline.
    String hole = String.valueOf(Long.parseLong(orders1) + 1);
    File metaFolder = Paths.get(dir.resolve("orders").toString(), HoodieTableMetaClient.METAFOLDER_NAME).toFile();
    Path requested = Files.createFile(metaFolder.toPath().resolve(hole + HoodieTimeline.REQUESTED_COMMIT_EXTENSION));
    Path inflight = Files.createFile(metaFolder.toPath().resolve(hole + HoodieTimeline.INFLIGHT_EXTENSION));
    String users2 = tables.users(user("u1", "alicia", 2L));

    job.syncInProcess();
    assertEquals(List.of("orders:o1:1", "users:u1:1", "users:u1:2"), readLog(), "orders waits at the hole, users goes on");
    assertCheckpoint("orders=" + orders1 + ",users=" + users2);

    Files.delete(inflight); // the other writer's attempt is rolled back
    Files.delete(requested);
    job.syncInProcess();
    assertEquals(List.of("orders:o1:1", "orders:o2:2", "users:u1:1", "users:u1:2"), readLog());
    assertCheckpoint("orders=" + orders2 + ",users=" + users2);
  }

  @Test
  void positionBehindAnArchivedTimelineFailsLoudlyUnlessTheTableFallsBackToAFullScan() throws Exception {
    Map<String, String> archiveEagerly = Map.of("hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3",
        "hoodie.cleaner.commits.retained", "1", "hoodie.metadata.enable", "false");
    String first = HudiTables.upsert(tables.ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, archiveEagerly,
        order("o1", "u1", 1.0, 1L));
    String last = first;
    for (int i = 2; i <= 7; i++) {
      last = HudiTables.upsert(tables.ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, archiveEagerly,
          order("o" + i, "u1", i, i));
    }
    String users1 = tables.users(user("u1", "alice", 1L));
    assertFalse(HudiTables.allInstants(tables.ordersPath).stream().anyMatch(instant -> instant.contains(first)),
        "precondition: the first orders commit is archived");
    job.property("hoodie.streamer.source.hudi.orders.missing.checkpoint.strategy", "READ_LATEST")
        .checkpoint("orders=" + first + ",users=" + users1);

    Throwable failure = assertThrows(Throwable.class, job::syncInProcess);
    assertTrue(FailureMessages.of(failure).contains("Cannot read table 'orders' incrementally after " + first)
        && FailureMessages.of(failure).contains("hoodie.streamer.source.hudi.orders.incr.fallback.fulltablescan.enable=true"),
        FailureMessages.of(failure));
    assertTrue(HudiTables.allInstants(tables.targetPath).isEmpty());

    job.property("hoodie.streamer.source.hudi.orders.incr.fallback.fulltablescan.enable", "true").syncInProcess();
    assertEquals(List.of("orders:o2:2", "orders:o3:3", "orders:o4:4", "orders:o5:5", "orders:o6:6", "orders:o7:7"),
        readLog());
    assertCheckpoint("orders=" + last + ",users=" + users1);
  }

  private void assertCheckpoint(String expected) {
    assertEquals(expected, HudiTables.lastCheckpoint(tables.targetPath));
  }

  private List<String> readLog() {
    return SharedSpark.session().read().format("hudi").load(tables.targetPath).select("read_id").collectAsList().stream()
        .map(row -> row.getString(0)).sorted().collect(Collectors.toList());
  }
}
