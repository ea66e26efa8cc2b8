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
import org.apache.hudi.exception.HoodieWriteConflictException;
import org.apache.hudi.utilities.HoodieClusteringJob;
import org.apache.hudi.utilities.HoodieCompactor;
import org.apache.hudi.utilities.faults.PauseWhileWritingKeyGenerator;
import org.apache.hudi.utilities.testutils.ExactJoins;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsersPipeline;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Other writers on the target, as docs/operations.md ("Several writers on the target") sets them up: the Streamer under
 * optimistic concurrency control with a lock provider, the metadata table on (Hudi's default), beside an offline
 * {@code HoodieCompactor}, an offline {@code HoodieClusteringJob} and another Spark writer. Their commits carry no
 * checkpoint; the Streamer's next batch must resume from its own last one, read exactly what came after it, and a
 * batch that loses a write conflict must fail before its checkpoint moves. The target is the exact inner join of
 * orders and users on a MERGE_ON_READ table, which offline compaction needs.
 */
class TestSeveralWritersOnTheTarget extends OrdersAndUsersPipeline {

  /** What every writer of the target sets: docs/operations.md, "Several writers on the target". */
  private static final Map<String, String> OPTIMISTIC_CONCURRENCY = Map.of(
      "hoodie.write.concurrency.mode", "OPTIMISTIC_CONCURRENCY_CONTROL",
      "hoodie.cleaner.policy.failed.writes", "LAZY",
      "hoodie.write.lock.provider", "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider",
      "hoodie.metadata.enable", "true");

  /** The target's columns, as the exact join writes them. */
  private static final StructType JOINED = new StructType()
      .add("order_id", DataTypes.StringType)
      .add("user_id", DataTypes.StringType)
      .add("amount", DataTypes.DoubleType)
      .add("user_name", DataTypes.StringType)
      .add("ts", DataTypes.LongType)
      .add("commit_order", DataTypes.IntegerType, false);

  TestSeveralWritersOnTheTarget() {
    super("joined");
  }

  @BeforeEach
  void streamerUnderOptimisticConcurrency() {
    OPTIMISTIC_CONCURRENCY.forEach(job::property);
    // Compaction is the offline compactor's: the Streamer's inline one never comes due here.
    job.tableType("MERGE_ON_READ").property("hoodie.compact.inline.max.delta.commits", "100")
        .orderingField("commit_order").sql(ExactJoins.INNER_JOIN);
  }

  @Test
  void streamerResumesFromItsOwnCheckpointAfterOfflineCompactionClusteringAndABackfillWriter() throws Exception {
    String orders1 = tables.orders(order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L), user("u2", "bob", 1L));
    job.syncInProcess();
    tables.assertTargetIsTheJoinAt(orders1, users1);
    String users2 = tables.users(user("u1", "alicia", 2L));
    job.syncInProcess();
    tables.assertTargetIsTheJoinAt(orders1, users2);

    // Three other writers commit in turn, none with a checkpoint: a backfill of an old order into a file group of its
    // own, then the compactor merges the Streamer's logs, then the clustering job rewrites both file groups.
    writeBeside(Map.of("hoodie.parquet.small.file.limit", "0"), joinedRow("h1", "u2", 5.0, "bob", 1L));
    compactOffline();
    clusterOffline();
    assertEquals(1, HudiTables.completedInstants(tables.targetPath, HoodieTimeline.COMMIT_ACTION).size(),
        "one compaction");
    assertEquals(1, HudiTables.completedInstants(tables.targetPath, HoodieTimeline.REPLACE_COMMIT_ACTION).size(),
        "one clustering");

    // The Streamer resumes from the checkpoint of its own last delta commit, three commits back, and reads only the
    // two orders written since: the updated o2 and the new o3.
    String orders2 = tables.orders(order("o2", "u2", 21.0, 3L), order("o3", "u1", 30.0, 3L));
    job.syncInProcess();
    tables.assertTargetIs(tables.joinAt(orders2, users2).with(RowFactory.create("h1", "u2", 5.0, "bob", 1L)));
    assertEquals(2, HudiTables.recordsWrittenByLastCommit(tables.targetPath), "records written by the batch");
    assertTrue(HudiTables.pendingInstants(tables.targetPath).isEmpty(), HudiTables.pendingInstants(tables.targetPath)
        .toString());
  }

  @Test
  void batchThatLosesAWriteConflictFailsBeforeItsCheckpointMovesAndTheNextBatchIsExact() throws Exception {
    Map<String, String> pausingKeys = Map.of("hoodie.datasource.write.keygenerator.class",
        PauseWhileWritingKeyGenerator.class.getName());
    pausingKeys.forEach(job::property);
    String orders1 = tables.orders(order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L), user("u2", "bob", 1L));
    job.syncInProcess();
    tables.assertTargetIsTheJoinAt(orders1, users1);

    // While the Streamer writes the batch of o1's update, a repair job rewrites o1's row as it is (same file group):
    // it commits first, so the Streamer's commit finds the conflict.
    String orders2 = tables.orders(order("o1", "u1", 11.0, 2L));
    PauseWhileWritingKeyGenerator.Pause pause = PauseWhileWritingKeyGenerator.pauseNextWriteTo(tables.targetPath);
    CompletableFuture<Void> batch = CompletableFuture.runAsync(() -> {
      try {
        job.syncInProcess();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    try {
      pause.awaitHeld(5, TimeUnit.MINUTES);
      writeBeside(pausingKeys, joinedRow("o1", "u1", 10.0, "alice", 1L));
    } finally {
      pause.release();
    }
    ExecutionException failure = assertThrows(ExecutionException.class, () -> batch.get(5, TimeUnit.MINUTES));
    assertTrue(causes(failure).stream().anyMatch(cause -> cause instanceof HoodieWriteConflictException),
        "a write conflict: " + causes(failure));
    assertEquals("orders=" + orders1 + ",users=" + users1, HudiTables.lastCheckpoint(tables.targetPath),
        "the failed batch moved no position");
    assertEquals(1, HudiTables.pendingInstants(tables.targetPath, HoodieTimeline.DELTA_COMMIT_ACTION).size(),
        "the failed batch's delta commit, left for the cleaner to roll back lazily");

    job.syncInProcess();
    tables.assertTargetIsTheJoinAt(orders2, users1);
    assertEquals(1, HudiTables.recordsWrittenByLastCommit(tables.targetPath), "o1 again, nothing more");
  }

  private static Row joinedRow(String orderId, String userId, double amount, String userName, long ts) {
    return RowFactory.create(orderId, userId, amount, userName, ts, 0);
  }

  /** Another Spark writer's upsert into the target, under optimistic concurrency like the Streamer's. */
  private void writeBeside(Map<String, String> moreOptions, Row... rows) {
    Map<String, String> options = new HashMap<>(OPTIMISTIC_CONCURRENCY);
    options.put("hoodie.datasource.write.precombine.field", "commit_order");
    options.putAll(moreOptions);
    HudiTables.upsert(tables.targetPath, "joined", "MERGE_ON_READ", "order_id", JOINED, options, rows);
  }

  /** {@code HoodieCompactor --mode scheduleAndExecute}, an operator's offline compaction. */
  private void compactOffline() {
    HoodieCompactor.Config config = new HoodieCompactor.Config();
    config.basePath = tables.targetPath;
    config.tableName = "joined";
    config.runningMode = "scheduleAndExecute";
    config.parallelism = 2;
    config.configs = serviceConfigs("hoodie.compact.inline.max.delta.commits=1");
    assertEquals(0, new HoodieCompactor(SharedSpark.jsc(), config).compact(0), "HoodieCompactor");
  }

  /** {@code HoodieClusteringJob --mode scheduleAndExecute}, an operator's offline clustering. */
  private void clusterOffline() {
    HoodieClusteringJob.Config config = new HoodieClusteringJob.Config();
    config.basePath = tables.targetPath;
    config.tableName = "joined";
    config.runningMode = "scheduleAndExecute";
    config.configs = serviceConfigs("hoodie.clustering.async.enabled=false");
    assertEquals(0, new HoodieClusteringJob(SharedSpark.jsc(), config).cluster(0), "HoodieClusteringJob");
  }

  private static List<String> serviceConfigs(String... more) {
    List<String> configs = OPTIMISTIC_CONCURRENCY.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.toCollection(ArrayList::new));
    configs.addAll(List.of(more));
    return configs;
  }

  private static List<Throwable> causes(Throwable failure) {
    List<Throwable> causes = new ArrayList<>();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      causes.add(cause);
    }
    return causes;
  }
}
