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

import org.apache.hudi.utilities.testutils.ExactJoins;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsers;
import org.apache.hudi.utilities.testutils.OrdersAndUsersPipeline;
import org.apache.hudi.utilities.testutils.TargetPerSetup;
import org.apache.hudi.utilities.testutils.TargetTable;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exact delta-join recipes of docs/exact-joins.md keep the target equal to the join of the sources as of the
 * committed checkpoint, round after round, even when one side does not advance and when num_instants cuts a batch
 * short; on every target table setup ({@link TargetTable}), each paired with one snapshot pushdown setting (the
 * pushdown is a read of the sources, the target setup a write, so pairs cover both). Each test writes its rounds'
 * source commits once and syncs one job per setup from them ({@link TargetPerSetup}), each into its own target.
 */
class TestExactIncrementalJoin extends OrdersAndUsersPipeline {

  private static final String PUSHDOWN_MAX_KEYS = "hoodie.streamer.source.multi.hudi.snapshot.pushdown.max.keys";

  /** Pushdown 0: snapshots read in full; 100: snapshots joined with a delta read with its keys only. */
  private static final Map<TargetTable, String> PUSHDOWNS = Map.of(TargetTable.COPY_ON_WRITE, "0",
      TargetTable.MERGE_ON_READ, "100", TargetTable.MERGE_ON_READ_COMPACTED, "100");

  /**
   * Pushdown 0: snapshots read in full; 1: restricted to the delta's key where a delta has one, to the range of its
   * keys where it has more (both happen over the rounds).
   */
  private static final Map<TargetTable, String> CDC_PUSHDOWNS = Map.of(TargetTable.COPY_ON_WRITE, "0",
      TargetTable.MERGE_ON_READ, "1", TargetTable.MERGE_ON_READ_COMPACTED, "1");

  /**
   * The setups of the delete-aware tests: quick by default, COPY_ON_WRITE and the MERGE_ON_READ target compacted
   * every second batch (which meets both logs and fresh base files); every setup with {@code -Dexact.join.all.setups}.
   */
  private static final Set<TargetTable> DELETE_AWARE_SETUPS = Boolean.getBoolean("exact.join.all.setups")
      ? EnumSet.allOf(TargetTable.class) : EnumSet.of(TargetTable.COPY_ON_WRITE, TargetTable.MERGE_ON_READ_COMPACTED);

  TestExactIncrementalJoin() {
    super("joined");
  }

  @BeforeEach
  void exactJoinJob() {
    // Column stats on: with the pushdown, snapshot reads skip files by the delta's keys.
    tables = tables.withColumnStats();
    job.property("hoodie.streamer.source.hudi.users.num_instants", "1")
        .orderingField("commit_order")
        .sql(ExactJoins.INNER_JOIN);
  }

  /** One exact-join job per target setup over {@link #tables}, each with its setup's pushdown and the given SQL. */
  private TargetPerSetup exactJoinTargets(String sql, Map<TargetTable, String> pushdowns, Set<TargetTable> setups) {
    TargetPerSetup targets = new TargetPerSetup(tables, dir, "joined", setups).eachJob(job ->
        job.property("hoodie.streamer.source.hudi.users.num_instants", "1").orderingField("commit_order").sql(sql));
    targets.setups().forEach(setup -> targets.job(setup).property(PUSHDOWN_MAX_KEYS, pushdowns.get(setup)));
    return targets;
  }

  @Test
  void targetEqualsTheJoinOfTheSourcesAtTheCommittedCheckpointEveryRound() throws Exception {
    TargetPerSetup targets = exactJoinTargets(ExactJoins.INNER_JOIN, PUSHDOWNS, EnumSet.allOf(TargetTable.class));
    String orders1 = tables.orders(order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L), user("u2", "bob", 1L));
    syncAndAssertJoinAt(targets, orders1, users1);

    // Only users advance: a rename reaches the user's existing orders.
    String users2 = tables.users(user("u1", "alicia", 2L));
    syncAndAssertJoinAt(targets, orders1, users2);

    // Only orders advance: an update and a new order join the users as they are.
    String orders2 = tables.orders(order("o2", "u2", 21.0, 3L), order("o3", "u1", 30.0, 3L));
    syncAndAssertJoinAt(targets, orders2, users2);

    // Two users commits, but num_instants=1 reads one: the join stops exactly at that commit, and the new order of
    // the not-yet-read user waits for it.
    String users3 = tables.users(user("u2", "robert", 4L));
    String users4 = tables.users(user("u3", "carol", 4L));
    String orders3 = tables.orders(order("o4", "u3", 40.0, 4L));
    syncAndAssertJoinAt(targets, orders3, users3);
    targets.assertEachTarget(target ->
        assertTrue(target.targetRows().stream().noneMatch(row -> row.startsWith("[o4,")), "o4 waits for carol"));

    syncAndAssertJoinAt(targets, orders3, users4);
    targets.assertEachTarget(target -> assertTrue(target.targetRows().contains("[o4,u3,40.0,carol]")));

    // A rename gives its user's joined rows the rename's ts; then an order moves to a user with a lower ts, so its new
    // joined row has a lower ts than the row it replaces (a MERGE_ON_READ target must still take it). From here
    // num_instants reaches past the compaction that users, a MERGE_ON_READ table, may run after a delta commit.
    targets.eachJob(job -> job.property("hoodie.streamer.source.hudi.users.num_instants", "5"));
    String users5 = tables.users(user("u1", "ally", 9L));
    syncAndAssertJoinAt(targets, orders3, users5);
    String orders4 = tables.orders(order("o3", "u2", 30.0, 5L));
    syncAndAssertJoinAt(targets, orders4, users5);
    targets.assertEachTarget(target -> assertTrue(target.targetRows().contains("[o3,u2,30.0,robert]")));

    Map<String, Integer> commits = new HashMap<>();
    targets.targets().forEach(target -> commits.put(target.targetPath, HudiTables.completedCommits(target.targetPath)));
    targets.syncEach();
    targets.assertEachTarget(target -> assertEquals(commits.get(target.targetPath),
        HudiTables.completedCommits(target.targetPath), "nothing new, no commit"));
  }

  @Test
  void deleteAwareRecipeKeepsTheTargetEqualToTheJoinWhenSourceRowsAreDeleted() throws Exception {
    roundsWithUpdatesDeletesAndKeyMoves(exactJoinTargets(ExactJoins.DELETE_AWARE_INNER_JOIN, PUSHDOWNS,
        DELETE_AWARE_SETUPS));
  }

  /** Each of the three snapshot reads is restricted by its own join on an image field. */
  @Test
  void deleteAwareRecipeOverCdcDeltasKeepsTheTargetEqualToTheJoin() throws Exception {
    tables = tables.withChangeData();
    TargetPerSetup targets = exactJoinTargets(ExactJoins.DELETE_AWARE_JOIN_OVER_CDC_DELTAS, CDC_PUSHDOWNS,
        DELETE_AWARE_SETUPS)
        .eachJob(job -> job.property("hoodie.streamer.source.hudi.orders.incr.format", "cdc")
            .property("hoodie.streamer.source.hudi.users.incr.format", "cdc"))
        .captureLogs("org.apache.hudi.utilities");
    roundsWithUpdatesDeletesAndKeyMoves(targets);

    // Views are named ..._<table index> for a delta, ..._SNAP_<table index>_<occurrence>; orders is 0, users 1.
    List<String> imageJoins = List.of("_SNAP_1_\\d+\\.user_id = \\S+_0\\.after\\.user_id",
        "_SNAP_0_\\d+\\.user_id = \\S+_1\\.after\\.user_id", "_SNAP_0_\\d+\\.user_id = \\S+_1\\.before\\.user_id");
    for (TargetTable setup : targets.setups()) {
      String pushdownMaxKeys = CDC_PUSHDOWNS.get(setup);
      String logs = targets.logs(setup);
      for (String join : imageJoins) {
        Pattern restricted = Pattern.compile("Reading snapshot of \\S+" + join + " for the (delta's \\d+|range)");
        assertEquals(!pushdownMaxKeys.equals("0"), restricted.matcher(logs).find(),
            setup + ": " + join + " restricted");
      }
      assertEquals(pushdownMaxKeys.equals("1"), logs.contains("for the range of the delta's more than 1 distinct keys"),
          setup + ": restricted to a range");
      assertEquals(pushdownMaxKeys.equals("1"), logs.contains("for the delta's 1 distinct keys"),
          setup + ": restricted to a key");
    }
  }

  /**
   * Rounds in which users and orders are deleted, orders move to missing and to existing users, users are renamed, an
   * order is inserted and deleted within one batch, and rows are replaced or deleted by rows of a lower ts; after each,
   * every target is the join at the checkpoint.
   */
  private void roundsWithUpdatesDeletesAndKeyMoves(TargetPerSetup targets) throws Exception {
    targets.eachJob(job -> job.property("hoodie.streamer.source.hudi.users.num_instants", "5"));
    String orders1 = tables.orders(order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L), order("o3", "u2", 30.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L), user("u2", "bob", 1L));
    syncAndAssertJoinAt(targets, orders1, users1);

    // A user is deleted: their orders leave the join.
    String users2 = tables.deleteUsers(user("u2", "bob", 2L));
    syncAndAssertJoinAt(targets, orders1, users2);

    // An order is deleted, another moves to a user that does not exist, a third comes back through a new user.
    String orders2 = tables.deleteOrders(order("o1", "u1", 10.0, 3L));
    String orders3 = tables.orders(order("o2", "u9", 20.0, 3L), order("o4", "u3", 40.0, 3L));
    String users3 = tables.users(user("u3", "carol", 3L));
    syncAndAssertJoinAt(targets, orders3, users3);
    targets.assertEachTarget(target -> assertEquals(List.of("[o4,u3,40.0,carol]"), target.targetRows()));
    assertTrue(orders2.compareTo(orders3) < 0);

    // In one batch: an order moves to an existing user who is renamed, an order is inserted and deleted again, the
    // user of another new order is deleted.
    tables.orders(order("o4", "u1", 40.0, 4L), order("o5", "u3", 50.0, 4L));
    tables.deleteOrders(order("o5", "u3", 50.0, 5L));
    String orders6 = tables.orders(order("o6", "u3", 60.0, 5L), order("o7", "u4", 70.0, 5L));
    tables.users(user("u1", "alicia", 4L), user("u4", "dave", 4L));
    String users5 = tables.deleteUsers(user("u3", "carol", 5L));
    syncAndAssertJoinAt(targets, orders6, users5);
    targets.assertEachTarget(target ->
        assertEquals(List.of("[o4,u1,40.0,alicia]", "[o7,u4,70.0,dave]"), target.targetRows()));

    // Renames give their users' joined rows the renames' ts, above the ts of the orders and users in them. A batch of
    // updates only: a MERGE_ON_READ target logs them (inserts may rewrite a small base file instead).
    String orders7 = tables.orders(order("o8", "u4", 80.0, 6L));
    String users6 = tables.users(user("u5", "erin", 1L));
    syncAndAssertJoinAt(targets, orders7, users6);
    String users7 = tables.users(user("u1", "ally", 9L), user("u4", "david", 9L));
    syncAndAssertJoinAt(targets, orders7, users7);

    // Then a renamed user and an order of the other are deleted, and an order moves to a user with a lower ts: each
    // row written carries a lower ts than the row it replaces or deletes (a MERGE_ON_READ target must still take it).
    String users8 = tables.deleteUsers(user("u1", "ally", 10L));
    tables.deleteOrders(order("o7", "u4", 70.0, 7L));
    String orders9 = tables.orders(order("o8", "u5", 80.0, 7L));
    syncAndAssertJoinAt(targets, orders9, users8);
    targets.assertEachTarget(target -> assertEquals(List.of("[o8,u5,80.0,erin]"), target.targetRows()));
  }

  @Test
  void previousStateSupportsDeltaFormulas() throws Exception {
    tables.orders(order("o1", "u1", 10.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.orderingField("ts")
        .sql("SELECT order_id, user_id, amount, 'first' AS user_name, ts FROM <SNAP:orders>").syncInProcess();
    String orders2 = tables.orders(order("o1", "u1", 15.0, 2L), order("o2", "u1", 20.0, 2L));
    // Rows whose amount changed since the previous checkpoint, using PREV: o1 changed, o2 is new.
    job.sql("SELECT n.order_id, n.user_id, n.amount, coalesce(concat('was ', cast(p.amount AS string)), 'new') AS "
        + "user_name, n.ts FROM <SRC:orders> n LEFT JOIN <PREV:orders> p ON n.order_id = p.order_id").syncInProcess();
    assertEquals(List.of("[o1,u1,15.0,was 10.0]", "[o2,u1,20.0,new]"), tables.targetRows());
    assertTrue(HudiTables.lastCheckpoint(tables.targetPath).startsWith("orders=" + orders2));
  }

  @Test
  void snapshotOfATableNotInTheListFailsBeforeCommit() throws Exception {
    tables.orders(order("o1", "u1", 10.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.orderingField("ts").sql("SELECT o.* FROM <SRC:orders> o JOIN <SNAP:payments> p ON o.order_id = p.order_id");

    Throwable failure = assertThrows(Throwable.class, job::syncInProcess);
    StringBuilder messages = new StringBuilder();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      messages.append(cause.getMessage()).append('\n');
    }
    assertTrue(messages.toString().contains("Cannot bind SQL placeholder <SNAP:payments>: no configured table has that "
        + "name"), messages.toString());
    assertTrue(HudiTables.allInstants(tables.targetPath).isEmpty());
  }

  /**
   * Syncs every setup's job once; then each target committed exactly these positions and equals, row for row and with
   * each row's ts, the join of the sources read with time travel at them.
   */
  private void syncAndAssertJoinAt(TargetPerSetup targets, String ordersInstant, String usersInstant) throws Exception {
    targets.syncEach();
    OrdersAndUsers.Join join = tables.joinAt(ordersInstant, usersInstant);
    targets.assertEachTarget(target -> target.assertTargetIs(join));
  }
}
