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
import org.apache.hudi.utilities.hudi014.CompletedInstantReader;
import org.apache.hudi.utilities.hudi014.StoredCheckpointReader;
import org.apache.hudi.utilities.hudi014.WriterDuringBackoff;
import org.apache.hudi.utilities.testutils.FailureMessages;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsersPipeline;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A source's completed instant read while its writer is still writing its file. Hudi 0.14 completes an instant on a
 * local file system by creating the completed file and then writing into it
 * ({@code HoodieWrapperFileSystem#createImmutableFileInPath}), so a listing can show it completed while its file is
 * empty or half written. Each test puts a real instant file of a real source in that state, as the writer's file system
 * exposes it, for a moment or for the whole batch, and runs the stock Streamer: no batch fails for it, no row is
 * skipped, and no checkpoint moves past a commit that was not read.
 */
class TestSourcesWrittenWhileRead extends OrdersAndUsersPipeline {

  TestSourcesWrittenWhileRead() {
    super("order_rows");
  }

  @BeforeEach
  void orderRowsJob() {
    job.sql("SELECT order_id, ts FROM <SRC:orders>");
  }

  @Test
  void commitWhoseFileIsEmptyForTheWholeBatchEndsTheWindowBeforeItAndTheNextBatchReadsIt() throws Exception {
    firstBatch();
    String second = tables.orders(order("o2", "u1", 2.0, 2L));
    String third = tables.orders(order("o3", "u1", 3.0, 3L));
    InstantFile thirdFile = InstantFile.of(tables.ordersPath, third, HoodieTimeline.COMMIT_ACTION);
    long held = CompletedInstantReader.instantsHeld();

    thirdFile.exposeEmpty();
    job.syncInProcess();

    assertTrue(CompletedInstantReader.instantsHeld() > held, "the empty commit was not held");
    assertEquals(List.of("[o1,1]", "[o2,2]"), targetRows());
    assertTrue(HudiTables.lastCheckpoint(tables.targetPath).startsWith("orders=" + second + ","),
        () -> "the checkpoint moved past the commit being written: " + HudiTables.lastCheckpoint(tables.targetPath));

    thirdFile.finishWriting();
    job.syncInProcess();

    assertEquals(List.of("[o1,1]", "[o2,2]", "[o3,3]"), targetRows());
    assertTrue(HudiTables.lastCheckpoint(tables.targetPath).startsWith("orders=" + third + ","));
  }

  @Test
  void commitFileHalfWrittenForAMomentIsReadInTheSameBatchOnceItsWriterFinishes() throws Exception {
    firstBatch();
    String second = tables.orders(order("o2", "u1", 2.0, 2L));
    InstantFile secondFile = InstantFile.of(tables.ordersPath, second, HoodieTimeline.COMMIT_ACTION);

    secondFile.exposeHalf();
    try (WriterDuringBackoff writer = WriterDuringBackoff.finishing(secondFile::finishWriting)) {
      job.syncInProcess();
      assertTrue(writer.finished(), "no reader met the unfinished file");
    }

    assertEquals(List.of("[o1,1]", "[o2,2]"), targetRows());
    assertTrue(HudiTables.lastCheckpoint(tables.targetPath).startsWith("orders=" + second + ","));
  }

  @Test
  void cleanWhoseFileIsEmptyIsTakenAsNotYetCompletedAndTheBatchReads() throws Exception {
    // Each commit rewrites o1's only file; keeping one commit, a clean follows each commit from the second on.
    tables.ordersKeepingCommits(1, order("o1", "u1", 1.0, 1L));
    tables.ordersKeepingCommits(1, order("o1", "u1", 2.0, 2L));
    tables.ordersKeepingCommits(1, order("o1", "u1", 3.0, 3L));
    tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    String last = tables.ordersKeepingCommits(1, order("o1", "u1", 4.0, 4L));
    List<String> cleans = HudiTables.completedInstants(tables.ordersPath, HoodieTimeline.CLEAN_ACTION);
    assertTrue(cleans.size() > 1, () -> "the cleaner keeping one commit did not clean: " + cleans);
    InstantFile clean = InstantFile.of(tables.ordersPath, cleans.get(cleans.size() - 1), HoodieTimeline.CLEAN_ACTION);

    clean.exposeEmpty();
    job.syncInProcess();
    clean.finishWriting();

    assertEquals(List.of("[o1,4]"), targetRows());
    assertTrue(HudiTables.lastCheckpoint(tables.targetPath).startsWith("orders=" + last + ","));
  }

  @Test
  void commitFileLeftEmptyLongAgoFailsTheBatchNamingTheInstantAndCommitsNothing() throws Exception {
    firstBatch();
    String second = tables.orders(order("o2", "u1", 2.0, 2L));
    InstantFile secondFile = InstantFile.of(tables.ordersPath, second, HoodieTimeline.COMMIT_ACTION);
    secondFile.exposeEmpty();
    secondFile.modifiedAgo(Duration.ofMinutes(10));
    List<String> timeline = HudiTables.allInstants(tables.targetPath);

    String messages = FailureMessages.of(assertThrows(Throwable.class, job::syncInProcess));

    assertEquals(timeline, HudiTables.allInstants(tables.targetPath), "the target's timeline changed");
    assertTrue(messages.contains("Cannot read completed instant [" + second + "__commit__COMPLETED")
        && messages.contains("/orders: its file is empty")
        && messages.contains("Nothing was committed") && messages.contains("repair its timeline"), messages);
  }

  @Test
  void targetCommitWhoseFileIsBeingWrittenLeavesTheCommitBeforeItToDecideTheStoredCheckpoint() throws Exception {
    String first = firstBatch();
    String firstCheckpoint = HudiTables.lastCheckpoint(tables.targetPath);
    tables.orders(order("o2", "u1", 2.0, 2L));
    job.syncInProcess();
    String newestTargetCommit = HudiTables.lastCompletedInstant(tables.targetPath).get();
    InstantFile.of(tables.targetPath, newestTargetCommit, HoodieTimeline.COMMIT_ACTION).exposeEmpty();

    StoredCheckpointReader reader = new StoredCheckpointReader(SharedSpark.jsc().hadoopConfiguration());
    assertEquals(firstCheckpoint, reader.newest(tables.targetPath, StoredCheckpointReader.UNBOUNDED).checkpoint().get());
    assertTrue(firstCheckpoint.startsWith("orders=" + first + ","), firstCheckpoint);
  }

  /** The first batch, over one order and one user; returns the order's commit. */
  private String firstBatch() throws Exception {
    String first = tables.orders(order("o1", "u1", 1.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    return first;
  }

  private List<String> targetRows() {
    return SharedSpark.session().read().format("hudi").load(tables.targetPath).select("order_id", "ts")
        .collectAsList().stream().map(Object::toString).sorted().collect(Collectors.toList());
  }

  /**
   * A completed instant's file on the local file system, put in the states a reader can find it in while Hudi writes
   * it: created and still empty, or half written (its checksum file not matching yet), then written whole.
   */
  private static final class InstantFile {
    private final Path file;
    private final byte[] content;

    private InstantFile(Path file) throws IOException {
      this.file = file;
      this.content = Files.readAllBytes(file);
      assertTrue(content.length > 1, "an instant file without content: " + file);
    }

    static InstantFile of(String tablePath, String instant, String action) throws IOException {
      return new InstantFile(Path.of(URI.create(tablePath)).resolve(".hoodie").resolve(instant + "." + action));
    }

    void exposeEmpty() {
      write(new byte[0]);
    }

    void exposeHalf() {
      write(Arrays.copyOf(content, content.length / 2));
    }

    void finishWriting() {
      write(content);
    }

    void modifiedAgo(Duration age) throws IOException {
      Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    }

    private void write(byte[] bytes) {
      try {
        Files.write(file, bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
