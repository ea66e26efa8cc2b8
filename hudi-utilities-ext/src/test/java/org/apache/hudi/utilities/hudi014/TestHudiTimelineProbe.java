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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.utilities.freshness.FreshnessPolicy;
import org.apache.hudi.utilities.freshness.FreshnessState;
import org.apache.hudi.utilities.freshness.QueueHead;
import org.apache.hudi.utilities.freshness.RetentionHeadroom;
import org.apache.hudi.utilities.freshness.SourceFreshness;
import org.apache.hudi.utilities.freshness.SourceKind;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * What waits in a real Hudi 0.14 source table after a position, and since when: the completion time of the pending
 * instants, which is when their data became readable, not the instant time, which is when their writer started.
 */
class TestHudiTimelineProbe {

  private static final FreshnessPolicy POLICY = FreshnessPolicy.of(Duration.ofMinutes(60), Duration.ofDays(7));

  @TempDir
  Path dir;

  private Path ordersDir;
  private HudiTimelineProbe probe;

  @BeforeEach
  void createProbe() {
    ordersDir = dir.resolve("orders");
    probe = new HudiTimelineProbe(ordersDir.toUri().toString(),
        path -> SourceTimeline.load(path, SharedSpark.jsc().hadoopConfiguration()));
  }

  private String upsertOrder(String id) {
    return HudiTables.upsert(ordersDir.toUri().toString(), "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order(id, "u1", 1.0, 1L));
  }

  private static Instant instantTime(String instant) throws Exception {
    return HoodieActiveTimeline.parseDateFromInstantTime(instant).toInstant();
  }

  /** Hudi 0.14 takes a completed instant's completion time from its file's modification time. */
  private void completeAt(String instant, Instant completion) throws Exception {
    Files.setLastModifiedTime(ordersDir.resolve(".hoodie").resolve(instant + ".commit"),
        FileTime.from(completion));
  }

  @Test
  void commitThatStartedLongBeforeItCompletedHasWaitedSinceItCompleted() throws Exception {
    String consumed = upsertOrder("o1");
    String slow = upsertOrder("o2");
    Instant completed = instantTime(slow).plus(Duration.ofHours(2));
    completeAt(slow, completed);

    QueueHead head = probe.headAfter(consumed);
    SourceFreshness freshness = SourceFreshness.measure("orders", SourceKind.HUDI, consumed, head,
        completed.plus(Duration.ofMinutes(5)), POLICY);

    assertEquals(completed, head.oldestVisibleAt().get());
    // Counting from the instant time would claim 2h05m: the data was not readable for the first two hours.
    assertEquals(Duration.ofMinutes(5), freshness.lag().get());
    assertEquals(1, head.pending());
  }

  @Test
  void instantsCompletedOutOfOrderWaitSinceTheEarliestCompletion() throws Exception {
    String consumed = upsertOrder("o1");
    String first = upsertOrder("o2");
    String second = upsertOrder("o3");
    Instant secondCompleted = instantTime(second).plus(Duration.ofMinutes(1));
    completeAt(first, instantTime(first).plus(Duration.ofMinutes(30)));
    completeAt(second, secondCompleted);

    QueueHead head = probe.headAfter(consumed);

    assertEquals(FreshnessState.WAITING, head.state());
    assertEquals(secondCompleted, head.oldestVisibleAt().get());
    assertEquals(2, head.pending());
  }

  @Test
  void positionAtTheLatestInstantIsCaughtUp() throws Exception {
    upsertOrder("o1");
    String latest = upsertOrder("o2");

    QueueHead head = probe.headAfter(latest);

    assertEquals(FreshnessState.CAUGHT_UP, head.state());
    assertEquals(0, head.pending());
    assertFalse(head.headroom().isPresent(), "a table never cleaned nor archived bounds no position: " + head);
  }

  @Test
  void positionCarriesItsDistanceFromWhatTheCleanerKeeps() throws Exception {
    Map<String, String> keepTwoCommits = Map.of("hoodie.cleaner.commits.retained", "2", "hoodie.keep.min.commits", "20",
        "hoodie.keep.max.commits", "30", "hoodie.metadata.enable", "false");
    String first = HudiTables.upsert(ordersDir.toUri().toString(), "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        keepTwoCommits, order("o1", "u1", 1.0, 1L));
    String second = HudiTables.upsert(ordersDir.toUri().toString(), "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        keepTwoCommits, order("o1", "u1", 2.0, 2L));
    String third = HudiTables.upsert(ordersDir.toUri().toString(), "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        keepTwoCommits, order("o1", "u1", 3.0, 3L));
    String fourth = HudiTables.upsert(ordersDir.toUri().toString(), "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        keepTwoCommits, order("o1", "u1", 4.0, 4L));

    // Keeping two commits, the clean after the 4th keeps the files of the 3rd on (and the 2nd's, the last before it).
    QueueHead atSecond = probe.headAfter(second);
    QueueHead atFourth = probe.headAfter(fourth);

    assertEquals(RetentionHeadroom.of(0, Duration.between(instantTime(third), instantTime(second))),
        atSecond.headroom().get());
    assertEquals(2, atFourth.headroom().get().commits());
    assertEquals(Duration.between(instantTime(third), instantTime(fourth)), atFourth.headroom().get().time());
    assertEquals(atFourth.headroom(), SourceFreshness.measure("orders", SourceKind.HUDI, fourth, atFourth,
        Instant.now(), POLICY).headroom(), "the measurement carries the probe's headroom");
    assertEquals(RetentionHeadroom.of(0, Duration.between(instantTime(third), instantTime(first))),
        probe.headAfter(first).headroom().get(), "the bound has passed the first commit: negative time");
  }
}
