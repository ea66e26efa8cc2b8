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
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.TimelineListingCounter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.Map;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Instant times become points in time in the zone the table writes them in; the archive folder is listed only when
 * something may have been archived.
 */
class TestSourceTimeline {

  @TempDir
  Path dir;

  private static final Instant NOON = Instant.parse("2026-11-29T12:00:00Z");
  private static final String BEFORE_ANY_COMMIT = "00000000000000";

  @Test
  void instantTimesAreReadInTheZoneTheTableWritesThemIn() {
    // One instant-time string names different moments in different zones: written 30 minutes ago on the JVM's wall
    // clock, it lies 30 minutes ahead when the table writes instant times in a zone one hour behind the JVM's.
    String instant = HoodieActiveTimeline.formatDate(Date.from(NOON.minus(Duration.ofMinutes(30))));
    ZoneId jvm = ZoneId.systemDefault();
    ZoneId behind = ZoneOffset.ofTotalSeconds(jvm.getRules().getOffset(NOON).getTotalSeconds() - 3600);

    assertEquals(NOON.minus(Duration.ofMinutes(30)), SourceTimeline.timeOf(instant, jvm));
    assertEquals(NOON.plus(Duration.ofMinutes(30)), SourceTimeline.timeOf(instant, behind));
  }

  @Test
  void reloadedTimelineListsTheArchiveFolderAgainOnlyAfterACompletedInstantLeftTheActiveTimeline() {
    String path = dir.resolve("orders").toUri().toString();
    // Archival keeps 2 to 3 commits; the metadata table off, so that archival does not wait for its compaction.
    Map<String, String> archiving = Map.of("hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3",
        "hoodie.cleaner.commits.retained", "1", "hoodie.metadata.enable", "false");
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, archiving, order("o1", "u1", 1.0, 1L));
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, archiving, order("o2", "u1", 2.0, 2L));
    // The writer's archiver lists the folder too: each step counts only the timeline's own listings.
    TimelineListingCounter.install(SharedSpark.jsc().hadoopConfiguration());
    try {
      SourceTimeline firstBatch = SourceTimeline.load(path, SharedSpark.jsc().hadoopConfiguration()).get();
      assertFalse(firstBatch.isBehindArchive(BEFORE_ANY_COMMIT));
      assertEquals(1, TimelineListingCounter.archiveListings(path), "a source's first batch lists the folder");

      HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, archiving, order("o3", "u1", 3.0, 3L));
      SourceTimeline nextBatch = firstBatch.reload().get();
      TimelineListingCounter.reset();
      assertFalse(nextBatch.isBehindArchive(BEFORE_ANY_COMMIT));
      assertEquals(0, TimelineListingCounter.archiveListings(path), "a new commit archived nothing: not listed again");

      for (int i = 4; i <= 6; i++) {
        HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, archiving, order("o" + i, "u1", i, i));
      }
      SourceTimeline afterArchival = nextBatch.reload().get();
      TimelineListingCounter.reset();
      assertTrue(afterArchival.isBehindArchive(BEFORE_ANY_COMMIT), "the first commits were archived");
      assertEquals(1, TimelineListingCounter.archiveListings(path), "commits left the active timeline: listed again");
    } finally {
      TimelineListingCounter.uninstall(SharedSpark.jsc().hadoopConfiguration());
    }
  }

  @Test
  void cleanedTableTakesItsHeadroomFromTheCleanerWithoutListingTheArchiveFolder() {
    String path = dir.resolve("orders").toUri().toString();
    // The cleaner keeps 1 commit; archival (5 to 6 commits) has not started.
    Map<String, String> cleaning = Map.of("hoodie.cleaner.commits.retained", "1", "hoodie.keep.min.commits", "5",
        "hoodie.keep.max.commits", "6", "hoodie.metadata.enable", "false");
    String latest = null;
    for (int i = 1; i <= 4; i++) {
      latest = HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, cleaning, order("o1", "u1", i, i));
    }
    TimelineListingCounter.install(SharedSpark.jsc().hadoopConfiguration());
    try {
      SourceTimeline timeline = SourceTimeline.load(path, SharedSpark.jsc().hadoopConfiguration()).get();

      assertTrue(timeline.retention().readability(latest).headroomCommits().isPresent(), "the cleaner's bound");
      assertEquals(0, TimelineListingCounter.archiveListings(path));
    } finally {
      TimelineListingCounter.uninstall(SharedSpark.jsc().hadoopConfiguration());
    }
  }
}
