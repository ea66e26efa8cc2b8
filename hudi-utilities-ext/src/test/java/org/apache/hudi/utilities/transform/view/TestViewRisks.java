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

import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.client.common.HoodieSparkEngineContext;
import org.apache.hudi.common.model.DefaultHoodieRecordPayload;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.OverwriteWithLatestAvroPayload;
import org.apache.hudi.common.model.PartialUpdateAvroPayload;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.config.ViewStrategy;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.transform.FixedClockSqlFileTransformer;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The risks a reading of the view code found (issue 38), each as a specification: given source tables that hold the
 * risky data, when the stock Streamer runs a view over them, then the target equals the view's query over the tables
 * as a multiset of rows, or the batch fails before anything is committed with a message naming the cause and the fix.
 * Shapes refused at analysis (the time a batch runs at, casts of keys) are in {@link TestViewShape}.
 */
class TestViewRisks {

  private static final String ORDERS_WITH_USERS = "SELECT o.order_id, o.amount, u.user_name FROM <TABLE:orders> o "
      + "LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id";
  private static final StructType ORDERS_WITH_NOTE = ORDERS.add("note", DataTypes.StringType);

  @TempDir
  Path dir;

  /**
   * Risk 1: a query reading the time a batch runs at is refused as incremental (see {@link TestViewShape}); under AUTO
   * it is recomputed in full, which deletes the target's rows its result no longer has, also those only the time
   * took out (the old state's result, evaluated at the batch's time, no longer has them either). The batches run on a
   * clock the test sets: a row ages out exactly when the batch's time reaches it, however long a sync takes.
   */
  @Test
  void rowThatAgesOutOfTimeFilteredViewIsDeletedByFullRecompute() throws Exception {
    ViewJob view = new ViewJob(dir, "SELECT order_id, amount FROM <TABLE:orders> WHERE timestamp_millis(ts) > current_timestamp()",
        "order_id").strategy(ViewStrategy.AUTO);
    view.job.transformers(FixedClockSqlFileTransformer.class.getName());
    Instant firstBatch = Instant.parse("2030-01-01T12:00:00Z");
    Instant agesOut = firstBatch.plus(Duration.ofMinutes(1));
    view.orders(order("o1", "u1", 10, agesOut.toEpochMilli()), order("o2", "u1", 20, agesOut.plus(Duration.ofHours(1))
        .toEpochMilli()));
    view.users(user("u1", "ann", 1));
    FixedClockSqlFileTransformer.runAt(firstBatch);
    view.sync();
    assertEquals(List.of("[o1,10.0]", "[o2,20.0]"), view.rows(view.target()));

    view.orders(order("o3", "u1", 30, agesOut.plus(Duration.ofHours(1)).toEpochMilli()));
    FixedClockSqlFileTransformer.runAt(agesOut);
    view.sync();

    assertEquals(List.of("[o2,20.0]", "[o3,30.0]"), view.rows(view.target()));
  }

  /** Risk 4: the definition was cached per SQL text, so a column added to a source never reached the target. */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = ViewStrategy.class, names = {"STRICT", "FULL"})
  void columnAddedToSourceReachesTargetOfSelectStarView(ViewStrategy strategy) throws Exception {
    String sql = "SELECT o.*, u.user_name FROM <TABLE:orders> o LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id";
    ViewJob view = new ViewJob(dir, sql, "order_id").strategy(strategy);
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1), order("o3", "u2", 30, 1));
    view.users(user("u1", "ann", 1));
    view.sync();

    view.orders(Map.of(), ORDERS_WITH_NOTE, RowFactory.create("o2", "u1", 21.0, 2L, "gift"));
    HudiTables.delete(view.orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 10, 1));
    view.sync();

    assertEquals(Arrays.asList("order_id", "user_id", "amount", "ts", "note", "user_name"),
        Arrays.asList(view.target().columns()));
    view.assertTargetIsTheQuery();
  }

  /** Risk 6: a NULL group (a left outer join without a match) failed inside Hudi's key generator. */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = ViewStrategy.class, names = {"STRICT", "FULL"})
  void nullRecordKeyFailsBeforeAnythingIsCommitted(ViewStrategy strategy) throws Exception {
    ViewJob view = new ViewJob(dir, "SELECT u.user_name, count(*) AS n FROM <TABLE:orders> o LEFT JOIN <TABLE:users> u "
        + "ON o.user_id = u.user_id GROUP BY u.user_name", "user_name").strategy(strategy);
    view.orders(order("o1", "u1", 10, 1), order("o2", "u9", 20, 1));
    view.users(user("u1", "ann", 1));

    String failure = view.failingSync();

    assertTrue(failure.contains("record key [user_name] is null") && failure.contains("coalesce(u.country, 'none') AS country")
        && failure.contains("Nothing was committed"), failure);
    assertEquals(0, HudiTables.completedCommits(view.target));
  }

  /** Risk 7: the ordering check read only the property, not --source-ordering-field, which orders the records. */
  @Test
  void orderingFieldGivenOnlyOnTheCommandLineIsChecked() throws Exception {
    ViewJob view = new ViewJob(dir, ORDERS_WITH_USERS, "order_id");
    view.job.orderingField("amount").withoutProperty("hoodie.datasource.write.precombine.field");
    view.orders(order("o1", "u1", 10, 1));
    view.users(user("u1", "ann", 1));

    String failure = view.failingSync();

    assertTrue(failure.contains("orders records by 'amount' (--source-ordering-field")
        && failure.contains("--source-ordering-field commit_order"), failure);
    assertEquals(0, HudiTables.completedCommits(view.target));
  }

  /** Risk 3: a partition column outside the record key left a moved row's old copy, and deletes without partition. */
  @Test
  void partitionedTargetMustBePartitionedByRecordKeyColumns() throws Exception {
    ViewJob view = new ViewJob(dir, ORDERS_WITH_USERS, "order_id").partitionedBy("user_name");
    view.orders(order("o1", "u1", 10, 1));
    view.users(user("u1", "ann", 1));

    String failure = view.failingSync();

    assertTrue(failure.contains("partitioned by 'user_name'") && failure.contains("not a column of its record key")
        && failure.contains("Add 'user_name' to hoodie.datasource.write.recordkey.field"), failure);
    assertEquals(0, HudiTables.completedCommits(view.target));
  }

  /** Risk 3, the supported form: a grouped target partitioned by its group column; an emptied group is deleted. */
  @Test
  void groupedTargetPartitionedByGroupColumnDeletesEmptiedGroups() throws Exception {
    ViewJob view = new ViewJob(dir, "SELECT u.user_name, count(*) AS n, sum(o.amount) AS total FROM <TABLE:orders> o "
        + "JOIN <TABLE:users> u ON o.user_id = u.user_id GROUP BY u.user_name", "user_name")
        .partitionedBy("user_name");
    view.orders(order("o1", "u1", 10, 1), order("o2", "u2", 20, 1), order("o3", "u2", 30, 1));
    view.users(user("u1", "ann", 1), user("u2", "bob", 1));
    view.sync();

    HudiTables.delete(view.orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o2", "u2", 20, 1),
        order("o3", "u2", 30, 1));
    view.orders(order("o4", "u1", 5, 2));
    view.sync();

    assertEquals(List.of("[ann,2,15.0]"), view.rows(view.target().select("user_name", "n", "total")));
    view.assertTargetIsTheQuery();
  }

  /** Risk 2: a source holding a record key twice (bulk_insert does not look keys up) lost a row silently. */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = ViewStrategy.class, names = {"STRICT", "FULL"})
  void sourceHoldingRecordKeyTwiceFailsNamingTheTable(ViewStrategy strategy) throws Exception {
    ViewJob view = new ViewJob(dir, ORDERS_WITH_USERS, "order_id").strategy(strategy);
    Map<String, String> bulkInsert = Map.of("hoodie.datasource.write.operation", "bulk_insert");
    view.orders(bulkInsert, ORDERS, order("o1", "u1", 10, 1), order("o2", "u1", 20, 1));
    view.orders(bulkInsert, ORDERS, order("o1", "u1", 11, 2));
    view.users(user("u1", "ann", 1));

    String failure = view.failingSync();

    assertTrue(failure.contains("over table 'orders': its record key [order_id] is held by more than one row")
        && failure.contains("[o1,2]"), failure);
    assertEquals(0, HudiTables.completedCommits(view.target));
  }

  /** Risk 5: a restore took back commits the view had read, and their rows stayed in the target. */
  @Test
  void restoreOfCommitsTheViewReadFailsTheBatch() throws Exception {
    ViewJob view = new ViewJob(dir, ORDERS_WITH_USERS, "order_id");
    String first = view.orders(order("o1", "u1", 10, 1));
    String second = view.orders(order("o2", "u1", 20, 1));
    view.users(user("u1", "ann", 1));
    view.sync();
    try (SparkRDDWriteClient<?> client = new SparkRDDWriteClient<>(new HoodieSparkEngineContext(SharedSpark.jsc()),
        HoodieWriteConfig.newBuilder().withPath(view.orders).forTable("orders").build())) {
      client.restoreToInstant(first, true);
    }
    view.orders(order("o3", "u1", 30, 3));

    String failure = view.failingSync();

    assertTrue(failure.contains("took back commit(s) [" + second + "], which earlier batches read")
        && failure.contains("Rebuild the target"), failure);
    assertEquals(1, HudiTables.completedCommits(view.target));
  }

  /**
   * Risk 5, found handled: a MERGE_ON_READ table whose payload drops a record on merge; the commit counts no delete,
   * but the update is in the window's delta, so its key is a changed key and the old state's row is deleted.
   */
  @Test
  void recordDroppedOnMergeByPayloadIsDeletedFromTarget() throws Exception {
    ViewJob view = new ViewJob(dir, ORDERS_WITH_USERS, "order_id");
    Map<String, String> droppingPayload = Map.of("hoodie.datasource.write.payload.class",
        DroppingOnMergePayload.class.getName());
    HudiTables.upsert(view.orders, "orders", "MERGE_ON_READ", "order_id", ORDERS, droppingPayload,
        order("o1", "u1", 10, 1), order("o2", "u1", 20, 1));
    view.users(user("u1", "ann", 1));
    view.sync();

    HudiTables.upsert(view.orders, "orders", "MERGE_ON_READ", "order_id", ORDERS, droppingPayload,
        order("o2", "u1", -1, 2));
    assertEquals(0, HudiTables.recordsDeletedByLastCommit(view.orders));
    view.sync();

    assertEquals(List.of("[o1,10.0,ann]"), view.rows(view.target().select("order_id", "amount", "user_name")));
    view.assertTargetIsTheQuery();
  }

  /** Risk 8 (issue 56): a payload that merges instead of replacing (here set in the properties) gave a wrong view. */
  @Test
  void payloadThatMergesFailsBeforeAnythingIsCommitted() throws Exception {
    ViewJob view = new ViewJob(dir, ORDERS_WITH_USERS, "order_id");
    view.job.property("hoodie.datasource.write.payload.class", PartialUpdateAvroPayload.class.getName());
    view.orders(order("o1", "u1", 10, 1));
    view.users(user("u1", "ann", 1));

    String failure = view.failingSync();

    assertTrue(failure.contains("the target merges records with payload " + PartialUpdateAvroPayload.class.getName()
        + " (property hoodie.datasource.write.payload.class)") && failure.contains("Nothing was committed")
        && failure.contains("Set hoodie.datasource.write.payload.class=" + OverwriteWithLatestAvroPayload.class.getName()),
        failure);
    assertEquals(0, HudiTables.completedCommits(view.target));
  }

  /**
   * Risk 8: --payload-class is not among a transformer's properties, but on a MERGE_ON_READ target the Streamer writes
   * it into the table config before each round reads its batch: a custom payload (even one extending a replacing
   * payload) is refused.
   */
  @Test
  void customPayloadOnTheCommandLineIsCheckedInMergeOnReadTargetsTableConfig() throws Exception {
    ViewJob view = new ViewJob(dir, ORDERS_WITH_USERS, "order_id");
    view.job.tableType("MERGE_ON_READ").payloadClass(DroppingOnMergePayload.class.getName());
    view.orders(order("o1", "u1", 10, 1));
    view.users(user("u1", "ann", 1));

    String failure = view.failingSync();

    assertTrue(failure.contains("the target merges records with payload " + DroppingOnMergePayload.class.getName()
        + " (--payload-class, in the target's table config as hoodie.compaction.payload.class)")
        && failure.contains("Run the Streamer with --payload-class " + OverwriteWithLatestAvroPayload.class.getName()),
        failure);
    assertEquals(0, HudiTables.completedCommits(view.target));
  }

  /** Risk 8, the other payload that replaces: with equal ordering values the view's row wins, and deletes delete. */
  @Test
  void defaultRecordPayloadReplacesAndDeletesTargetRows() throws Exception {
    ViewJob view = new ViewJob(dir, ORDERS_WITH_USERS, "order_id");
    view.job.payloadClass(DefaultHoodieRecordPayload.class.getName());
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1));
    view.users(user("u1", "ann", 1));
    view.sync();

    view.orders(order("o1", "u1", 11, 2));
    view.deleteOrders(order("o2", "u1", 20, 1));
    view.sync();

    assertEquals(List.of("[o1,11.0,ann]"), view.rows(view.target().select("order_id", "amount", "user_name")));
  }

  /**
   * Risk 9 (issue 56): a target already holding a record key twice (another writer's bulk_insert here) kept the copy
   * a view's row did not replace; checked once a process, at its first batch.
   */
  @Test
  void targetHoldingRecordKeyTwiceFailsNamingTheKey() throws Exception {
    ViewJob view = new ViewJob(dir, ORDERS_WITH_USERS, "order_id");
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1));
    view.users(user("u1", "ann", 1));
    view.sync();
    Dataset<Row> o1 = SharedSpark.session().read().format("hudi").load(view.target)
        .drop(HoodieRecord.HOODIE_META_COLUMNS.toArray(new String[0])).filter("order_id = 'o1'");
    HudiTables.upsert(view.target, "joined", "COPY_ON_WRITE", "order_id", o1.schema(), Map.of(
        "hoodie.datasource.write.operation", "bulk_insert", "hoodie.datasource.write.precombine.field",
        ViewDefinition.COMMIT_ORDER), o1.collectAsList().toArray(new Row[0]));

    view.orders(order("o3", "u1", 30, 2));
    String failure = view.failingSync();

    assertTrue(failure.contains("the target holds record key(s) 'o1' (2 rows) more than once")
        && failure.contains("Nothing was committed") && failure.contains("hoodie.streamer.transformer.view.strategy=FULL")
        && failure.contains("--op UPSERT"), failure);
    assertEquals(2, HudiTables.completedCommits(view.target));
  }
}
