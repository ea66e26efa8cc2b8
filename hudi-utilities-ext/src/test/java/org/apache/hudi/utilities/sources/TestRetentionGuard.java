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

import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.utilities.hudi014.RetentionGuard;
import org.apache.hudi.utilities.testutils.FailureMessages;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsersPipeline;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.TargetGauges;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The retention guard over a real cleaner: a source position whose window the cleaner removed fails the batch before
 * any commit, with the fix; the headroom of a position is published and, with fail-fast, stops the batch while the
 * position is still readable.
 */
class TestRetentionGuard extends OrdersAndUsersPipeline {

  private static final String MIN_HEADROOM_COMMITS = RetentionGuard.MIN_HEADROOM_COMMITS_METRIC;
  private static final String MIN_HEADROOM_SECONDS = RetentionGuard.MIN_HEADROOM_SECONDS_METRIC;

  TestRetentionGuard() {
    super("order_rows");
  }

  @BeforeEach
  void orderRowsJob() {
    job.property("hoodie.metrics.on", "true")
        .property("hoodie.metrics.reporter.type", "INMEMORY")
        .sql("SELECT order_id, ts FROM <SRC:orders>");
  }

  /** With Hudi's metadata table (and its column stats) on, Hudi lists the sources' files through it. */
  @ParameterizedTest(name = "metadata table on: {0}")
  @ValueSource(booleans = {false, true})
  void windowTheCleanerRemovedFailsBeforeAnyCommitAndTheFallbackReadsIt(boolean metadataTable) throws Exception {
    if (metadataTable) {
      tables = tables.withColumnStats();
    }
    String first = tables.ordersKeepingCommits(1, order("o1", "u1", 1.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    // Each commit rewrites o1's only file; keeping one commit, the cleaner removes the files of the earlier ones.
    String second = tables.ordersKeepingCommits(1, order("o1", "u1", 2.0, 2L));
    tables.ordersKeepingCommits(1, order("o1", "u1", 3.0, 3L));
    String last = tables.ordersKeepingCommits(1, order("o1", "u1", 4.0, 4L));

    String messages = failingBatchMessages();
    assertTrue(messages.contains("Cannot read table 'orders' incrementally after " + first + ": the source's cleaner "
        + "has removed files written by commits [" + second) && messages.contains("Nothing was committed")
        && messages.contains("hoodie.streamer.source.hudi.orders.incr.fallback.fulltablescan.enable=true"), messages);

    job.property("hoodie.streamer.source.hudi.orders.incr.fallback.fulltablescan.enable", "true").syncInProcess();
    assertEquals(List.of("[o1,4]"), targetRows());
    assertTrue(HudiTables.lastCheckpoint(tables.targetPath).startsWith("orders=" + last + ","));
  }

  @Test
  void windowTheFileVersionsCleanerRemovedFailsBeforeAnyCommitAndAPositionAheadOfItReads() throws Exception {
    String first = tables.ordersKeepingFileVersions(1, order("o1", "u1", 1.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    // Each commit writes a new version of o1's only file; keeping one version, each clean removes the one before. The
    // clean metadata records no earliest commit to retain under this policy: what it removed names the bound.
    String second = tables.ordersKeepingFileVersions(1, order("o1", "u1", 2.0, 2L));
    String third = tables.ordersKeepingFileVersions(1, order("o1", "u1", 3.0, 3L));
    String last = tables.ordersKeepingFileVersions(1, order("o1", "u1", 4.0, 4L));

    String messages = failingBatchMessages();
    assertTrue(messages.contains("Cannot read table 'orders' incrementally after " + first + ": the source's cleaner "
        + "has removed files written by commits [" + second + ", " + third + "], which that window reads (it keeps "
        + "file versions (KEEP_LATEST_FILE_VERSIONS) and has removed files written by commits up to " + third)
        && messages.contains("Nothing was committed")
        && messages.contains("hoodie.streamer.source.hudi.orders.incr.fallback.fulltablescan.enable=true")
        && messages.contains("hoodie.cleaner.fileversions.retained"), messages);

    // The window after the third commit reads only the last one, whose file the cleaner keeps.
    job.checkpoint("orders=" + third).syncInProcess();
    assertEquals(List.of("[o1,4]"), targetRows());
    assertTrue(HudiTables.lastCheckpoint(tables.targetPath).startsWith("orders=" + last + ","));
    // The batch measured its resume position, the third commit: the newest whose files a clean removed.
    assertEquals(0L, TargetGauges.value(tables.targetPath, MIN_HEADROOM_COMMITS));
    job.syncInProcess();
    assertEquals(1L, TargetGauges.value(tables.targetPath, MIN_HEADROOM_COMMITS),
        "the commits after the newest one whose files were removed, up to the position");
  }

  @Test
  void logFilesTheFileVersionsCleanerRemovedFailTheirWindowBeforeAnyCommit() throws Exception {
    tables.orders(order("o1", "u1", 1.0, 1L));
    String first = tables.usersKeepingFileVersions(1, user("u1", "alice", 1L));
    job.sql("SELECT user_id AS order_id, ts FROM <SRC:users>").syncInProcess();
    // The update goes to a log file of u1's file slice and the compaction after it starts a new slice; the next
    // write (a new key, in a file group of its own) cleans before it compacts, and removes the old slice with its log
    // file, whose name carries the slice's base instant, not the update's: only the log bounds the removed commits.
    tables.usersKeepingFileVersions(1, user("u1", "bob", 2L));
    String update = HudiTables.lastCompleted(tables.usersPath, HoodieTimeline.DELTA_COMMIT_ACTION);
    tables.usersKeepingFileVersions(1, user("u2", "carol", 3L));

    String messages = failingBatchMessages();
    assertTrue(messages.contains("Cannot read table 'users' incrementally after " + first + ": the source's cleaner "
        + "has removed files written by commits [" + update + "]") && messages.contains("KEEP_LATEST_FILE_VERSIONS")
        && messages.contains("Nothing was committed"), messages);
  }

  @Test
  void headroomIsPublishedAndFailFastStopsTheBatchWhileThePositionIsStillReadable() throws Exception {
    tables.ordersKeepingCommits(2, order("o1", "u1", 1.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    tables.ordersKeepingCommits(2, order("o1", "u1", 2.0, 2L));
    tables.ordersKeepingCommits(2, order("o1", "u1", 3.0, 3L));
    String fourth = tables.ordersKeepingCommits(2, order("o1", "u1", 4.0, 4L));
    job.syncInProcess();
    // Keeping two commits, the clean after the 4th keeps the 3rd on (and the 2nd's files, the last before it): the
    // position (the 1st) still reads, with headroom 0; users, never cleaned, has no bound and no headroom.
    assertEquals(0L, TargetGauges.value(tables.targetPath, MIN_HEADROOM_COMMITS));
    assertTrue(TargetGauges.value(tables.targetPath, MIN_HEADROOM_SECONDS) <= 0);
    assertEquals(List.of("[o1,4]"), targetRows());

    tables.ordersKeepingCommits(2, order("o1", "u1", 5.0, 5L));
    job.property("hoodie.streamer.source.multi.hudi.retention.warn.headroom.commits", "4")
        .property("hoodie.streamer.source.multi.hudi.retention.fail.fast", "true");
    String messages = failingBatchMessages();
    assertTrue(messages.contains("Cannot read table 'orders': Table 'orders' at " + fourth + " is 1 commits")
        && messages.contains("below hoodie.streamer.source.multi.hudi.retention.warn.headroom.commits=4")
        && messages.contains("hoodie.cleaner.commits.retained"), messages);

    job.property("hoodie.streamer.source.multi.hudi.retention.fail.fast", "false").syncInProcess();
    assertEquals(List.of("[o1,5]"), targetRows());
  }

  @Test
  void previousSnapshotTheCleanerPassedFailsBeforeAnyCommitNamingTableAndFix() throws Exception {
    String first = tables.ordersKeepingCommits(2, order("o1", "u1", 1.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.sql("SELECT n.order_id, n.ts FROM <SRC:orders> n LEFT ANTI JOIN <PREV:orders> p ON n.order_id = p.order_id")
        .syncInProcess();
    // Keeping two commits, the clean after the 4th keeps the 3rd on (and the 2nd's files, the last before it): the
    // window after the position still reads, but Hudi refuses time travel to the position, before that bound.
    tables.ordersKeepingCommits(2, order("o1", "u1", 2.0, 2L));
    String third = tables.ordersKeepingCommits(2, order("o1", "u1", 3.0, 3L));
    tables.ordersKeepingCommits(2, order("o1", "u1", 4.0, 4L));

    String messages = failingBatchMessages();
    assertTrue(messages.contains("Cannot read table 'orders' as of " + first + " for <SNAP>/<PREV> in the SQL: "
        + "Cleaner cleaned up the timestamp of interest") && messages.contains("Nothing was committed")
        && messages.contains("hoodie.cleaner.commits.retained"), messages);
    assertTrue(HudiTables.lastCheckpoint(tables.targetPath).startsWith("orders=" + first + ","),
        "the checkpoint moved; the cleaner keeps from " + third);
  }

  /** Runs a batch that must fail and checks that it left the target's timeline as it was; returns its messages. */
  private String failingBatchMessages() {
    List<String> timeline = HudiTables.allInstants(tables.targetPath);
    Throwable failure = assertThrows(Throwable.class, job::syncInProcess);
    assertEquals(timeline, HudiTables.allInstants(tables.targetPath), "the target's timeline changed");
    return FailureMessages.of(failure);
  }

  private List<String> targetRows() {
    return SharedSpark.session().read().format("hudi").load(tables.targetPath).select("order_id", "ts")
        .collectAsList().stream().map(Object::toString).sorted().collect(Collectors.toList());
  }
}
