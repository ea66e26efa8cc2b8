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
import org.apache.hudi.keygen.NonpartitionedKeyGenerator;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A grouped view keeping {@link AggregateState}: given orders and a view of COUNT, SUM and AVG per user, when the stock
 * Streamer syncs changes, then each changed group is updated from the state its target row stores, a group whose last
 * row goes is deleted, and a state that disagrees with the change fails the batch before anything is committed. MIN and
 * MAX, COUNT(DISTINCT) and HAVING keep their state too: the extremes, each distinct value's rows, the aggregates HAVING
 * reads.
 */
class TestViewAggregateState {

  /** The hidden column of the SUM that HAVING reads and the view does not output (its third aggregate column). */
  private static final String HIDDEN_SUM = AggregateState.PREFIX + "having_2";

  private static final String PER_USER = "SELECT user_id, count(*) AS n, sum(amount) AS total, avg(amount) AS mean "
      + "FROM <TABLE:orders> GROUP BY user_id";

  @TempDir
  Path dir;

  @Test
  void groupsAreUpdatedFromTheirStoredStateAndAGroupWithoutRowsIsDeleted() throws Exception {
    ViewJob view = new ViewJob(dir, PER_USER, "user_id");
    view.users(user("u1", "ann", 1));
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1), order("o3", "u2", 5, 1));
    view.sync();
    assertEquals(List.of("[u1,2,30.0,15.0,2,30.0,2,2]", "[u2,1,5.0,5.0,1,5.0,1,1]"), stateRows(view),
        "user, n, total, mean; state: rows, the mean's sum and count, the total's count");

    view.orders(order("o1", "u1", 40, 2), order("o4", "u3", 7, 2));
    view.deleteOrders(order("o3", "u2", 5, 2));
    view.sync();
    assertEquals(List.of("[u1,2,60.0,30.0,2,60.0,2,2]", "[u3,1,7.0,7.0,1,7.0,1,1]"), stateRows(view));
    view.assertTargetIsTheQuery();
  }

  @Test
  void decimalSumKeepsTheQuerysScaleThroughIncrementalBatches() throws Exception {
    // SUM of a DECIMAL(20,8) is a DECIMAL(30,8): a change multiplied by its sign, or a stored sum added to a change,
    // in a wider type would make Spark cut the scale to 6 (1.42857143 + 2.85714286 kept as 4.285714).
    ViewJob view = new ViewJob(dir, "SELECT user_id, sum(CAST(amount / 7 AS DECIMAL(20,8))) AS total, count(*) AS n "
        + "FROM <TABLE:orders> GROUP BY user_id", "user_id");
    view.users(user("u1", "ann", 1));
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1), order("o3", "u2", 5, 1));
    view.sync();
    Column[] state = columns("user_id", "total", "n");
    assertEquals(List.of("[u1,4.28571429,2]", "[u2,0.71428571,1]"), view.rows(view.target().select(state)));

    view.orders(order("o1", "u1", 40, 2), order("o4", "u1", 1, 2), order("o5", "u2", 3, 2));
    view.sync();
    assertEquals(List.of("[u1,8.71428571,3]", "[u2,1.14285714,2]"), view.rows(view.target().select(state)),
        "5.71428571 + 2.85714286 + 0.14285714 and 0.71428571 + 0.42857143, to the last of the 8 digits");
    view.assertTargetIsTheQuery();

    view.deleteOrders(order("o2", "u1", 20, 3));
    view.sync();
    assertEquals(List.of("[u1,5.85714285,2]", "[u2,1.14285714,2]"), view.rows(view.target().select(state)));
    view.assertTargetIsTheQuery();
  }

  @Test
  void nanAndInfinitiesLeaveADoubleSumWhenTheirRowsLeave() throws Exception {
    ViewJob view = new ViewJob(dir, PER_USER, "user_id");
    view.users(user("u1", "ann", 1));
    view.orders(order("o1", "u1", 10, 1), order("o2", "u2", 5, 1), order("o3", "u3", 1, 1));
    view.sync();

    view.orders(order("o1", "u1", Double.NaN, 2), order("o2", "u2", Double.POSITIVE_INFINITY, 2),
        order("o4", "u2", Double.NEGATIVE_INFINITY, 2), order("o3", "u3", Double.POSITIVE_INFINITY, 2));
    view.sync();
    Column[] state = columns("user_id", "n", "total", "mean");
    assertEquals(List.of("[u1,1,NaN,NaN]", "[u2,2,NaN,NaN]", "[u3,1,Infinity,Infinity]"),
        view.rows(view.target().select(state)), "NaN, and an infinity added to its opposite, are NaN");
    view.assertTargetIsTheQuery();

    // Each sum becomes finite (or one-sided) again once the rows that made it NaN or infinite change or leave.
    view.orders(order("o1", "u1", 10, 3), order("o3", "u3", 2, 3));
    view.deleteOrders(order("o4", "u2", Double.NEGATIVE_INFINITY, 3));
    view.sync();
    assertEquals(List.of("[u1,1,10.0,10.0]", "[u2,1,Infinity,Infinity]", "[u3,1,2.0,2.0]"),
        view.rows(view.target().select(state)));
    view.assertTargetIsTheQuery();
  }

  @Test
  void groupsCrossHavingBothWaysByTheAggregatesKeptForIt() throws Exception {
    ViewJob view = new ViewJob(dir, "SELECT user_id, count(*) AS n FROM <TABLE:orders> GROUP BY user_id "
        + "HAVING sum(amount) > 25", "user_id");
    view.users(user("u1", "ann", 1));
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1), order("o3", "u2", 5, 1));
    view.sync();
    Column[] state = columns("user_id", "n", AggregateState.ROWS, HIDDEN_SUM, HIDDEN_SUM + "_count");
    assertEquals(List.of("[u1,2,2,30.0,2]"), view.rows(view.target().select(state)),
        "user, n; state: rows, the sum HAVING reads and its count; u2 (5) fails HAVING");

    // u1 falls below the threshold, u2 (not in the target, so recomputed from its rows) rises above it.
    view.orders(order("o1", "u1", 1, 2), order("o4", "u2", 30, 2));
    view.sync();
    assertEquals(List.of("[u2,2,2,35.0,2]"), view.rows(view.target().select(state)));
    view.assertTargetIsTheQuery();

    view.orders(order("o4", "u2", 31, 3), order("o1", "u1", 30, 3));
    view.sync();
    assertEquals(List.of("[u1,2,2,50.0,2]", "[u2,2,2,36.0,2]"), view.rows(view.target().select(state)));
    view.assertTargetIsTheQuery();
  }

  @Test
  void anExtremeMovesWithTheChangeAndIsRecomputedWhenItsRowLeaves() throws Exception {
    ViewJob view = new ViewJob(dir, "SELECT user_id, min(amount) AS low, max(amount) AS high, count(*) AS n "
        + "FROM <TABLE:orders> GROUP BY user_id", "user_id");
    view.users(user("u1", "ann", 1));
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1), order("o3", "u1", 30, 1), order("o9", "u2", 7, 1));
    view.sync();
    Column[] state = columns("user_id", "low", "high", "n", AggregateState.ROWS);
    assertEquals(List.of("[u1,10.0,30.0,3,3]", "[u2,7.0,7.0,1,1]"), view.rows(view.target().select(state)));

    // A new lowest value; the highest value's row lowered, so u1's maximum is recomputed.
    view.orders(order("o4", "u1", 5, 2), order("o3", "u1", 25, 2));
    view.sync();
    assertEquals(List.of("[u1,5.0,25.0,4,4]", "[u2,7.0,7.0,1,1]"), view.rows(view.target().select(state)));
    view.assertTargetIsTheQuery();

    view.deleteOrders(order("o4", "u1", 5, 3), order("o9", "u2", 7, 3));
    view.sync();
    assertEquals(List.of("[u1,10.0,25.0,3,3]"), view.rows(view.target().select(state)));
    view.assertTargetIsTheQuery();
  }

  @Test
  void countDistinctKeepsHowManyRowsHoldEachValue() throws Exception {
    ViewJob view = new ViewJob(dir, "SELECT ts, count(DISTINCT user_id) AS buyers, count(*) AS n "
        + "FROM <TABLE:orders> GROUP BY ts", "ts");
    view.users(user("u1", "ann", 1));
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1), order("o3", "u2", 30, 1));
    view.sync();
    assertEquals(List.of("[1,2,3,u1:2 u2:1]"), multiplicities(view));

    view.deleteOrders(order("o2", "u1", 20, 2));
    view.orders(order("o3", "u2", 30, 2));
    view.sync();
    assertEquals(List.of("[1,1,1,u1:1]", "[2,1,1,u2:1]"), multiplicities(view));
    view.assertTargetIsTheQuery();

    view.deleteOrders(order("o1", "u1", 10, 3));
    view.orders(order("o5", "u2", 1, 2), order("o6", "u0", 1, 2));
    view.sync();
    assertEquals(List.of("[2,2,3,u0:1 u2:2]"), multiplicities(view), "entries sorted by value, however they were added");
    view.assertTargetIsTheQuery();
  }

  @Test
  void storedStateThatDisagreesWithTheChangeFailsTheBatchBeforeAnyCommit() throws Exception {
    ViewJob view = new ViewJob(dir, PER_USER, "user_id");
    view.users(user("u1", "ann", 1));
    view.orders(order("o1", "u1", 10, 1), order("o2", "u2", 5, 1));
    view.sync();
    // Another writer sets u2's group to no rows: taking o2 away would leave it fewer than none.
    overwriteState(view, "u2", 0);
    String lastCommit = HudiTables.lastCompletedInstant(view.target).get();

    view.deleteOrders(order("o2", "u2", 5, 2));
    String message = view.failingSync();
    assertTrue(message.contains("the aggregate state the target stores for a group disagrees with the tables' change")
        && message.contains("Nothing was committed") && message.contains("strategy FULL"), message);
    assertEquals(lastCommit, HudiTables.lastCompletedInstant(view.target).get(), "the target took no commit");
  }

  @Test
  void distinctValueCountedBelowZeroFailsTheBatchNamingItsGroupAndValue() throws Exception {
    ViewJob view = new ViewJob(dir, "SELECT ts, count(DISTINCT user_id) AS buyers, count(*) AS n "
        + "FROM <TABLE:orders> GROUP BY ts", "ts");
    view.users(user("u1", "ann", 1));
    view.orders(order("o1", "u1", 10, 1), order("o2", "u2", 20, 1));
    view.sync();
    // Another writer drops u1 from the group's multiplicities: taking o1 away would leave u1 with -1 rows.
    Dataset<Row> stored = SharedSpark.session().read().format("hudi").load(view.target)
        .drop(HoodieRecord.HOODIE_META_COLUMNS.toArray(new String[0]));
    upsertTargetRows(view, stored.withColumn(AggregateState.PREFIX + "buyers_values",
        expr("filter(" + AggregateState.PREFIX + "buyers_values, e -> e.key != 'u1')")), "ts");
    String lastCommit = HudiTables.lastCompletedInstant(view.target).get();

    view.deleteOrders(order("o1", "u1", 10, 2));
    String message = view.failingSync();
    assertTrue(message.contains("disagrees with the tables' change") && message.contains("buyers = u1")
        && message.contains("Nothing was committed"), message);
    assertEquals(lastCommit, HudiTables.lastCompletedInstant(view.target).get(), "the target took no commit");
  }

  /** ts, buyers, n and the buyers' multiplicities ("user:rows", in the order stored) of the target's rows, as text. */
  private static List<String> multiplicities(ViewJob view) {
    return view.rows(view.target().select(col("ts"), col("buyers"), col("n"), expr("array_join(transform("
        + AggregateState.PREFIX + "buyers_values, e -> concat(e.key, ':', e.value)), ' ')")));
  }

  private static Column[] columns(String... names) {
    return Arrays.stream(names).map(name -> col(name)).toArray(Column[]::new);
  }

  /** The target's rows with their state columns, as text, sorted. */
  private static List<String> stateRows(ViewJob view) {
    return view.rows(view.target().select("user_id", "n", "total", "mean", AggregateState.ROWS,
        AggregateState.PREFIX + "mean_sum", AggregateState.PREFIX + "mean_count", AggregateState.PREFIX + "total_count"));
  }

  /** Upserts the target's row of a group with its rows count (and n) set, as a writer other than the view would. */
  private static void overwriteState(ViewJob view, String user, long rows) {
    Dataset<Row> stored = SharedSpark.session().read().format("hudi").load(view.target)
        .drop(HoodieRecord.HOODIE_META_COLUMNS.toArray(new String[0])).where(col("user_id").equalTo(user));
    upsertTargetRows(view, stored.withColumn(AggregateState.ROWS, lit(rows)).withColumn("n", lit(rows)), "user_id");
  }

  /** Upserts rows into the view's target, keyed by a column, as a writer other than the view would. */
  private static void upsertTargetRows(ViewJob view, Dataset<Row> rows, String key) {
    rows.write().format("hudi")
        .option("hoodie.table.name", "joined")
        .option("hoodie.datasource.write.operation", "upsert")
        .option("hoodie.datasource.write.recordkey.field", key)
        .option("hoodie.datasource.write.precombine.field", ViewDefinition.COMMIT_ORDER)
        .option("hoodie.datasource.write.partitionpath.field", "")
        .option("hoodie.datasource.write.keygenerator.class", NonpartitionedKeyGenerator.class.getName())
        .option("hoodie.upsert.shuffle.parallelism", "2")
        .mode(SaveMode.Append)
        .save(view.target);
  }
}
