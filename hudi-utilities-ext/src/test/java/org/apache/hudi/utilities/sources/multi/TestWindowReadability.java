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

package org.apache.hudi.utilities.sources.multi;

import org.apache.hudi.common.util.Option;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verdict on a window, as a value: when a window reads incrementally, how the headroom compares, and what the
 * messages say about the cleaner and its fix.
 */
class TestWindowReadability {

  private static final String POSITION = "20261201100000000";
  private static final String BOUND = "20261201090000000";

  @Test
  void windowNeitherArchivedNorCleanedReadsIncrementallyAndIsUnboundedByDefault() {
    WindowReadability window = WindowReadability.after(POSITION).build();

    assertTrue(window.readableIncrementally());
    assertEquals(POSITION, window.fromExclusive());
    assertEquals(Option.empty(), window.headroomCommits());
    assertEquals(Option.empty(), window.headroomTime());
    assertEquals(Option.empty(), window.earliestRetainedInstant());
    assertFalse(window.headroomBelow(Integer.MAX_VALUE), "an unbounded table has no headroom to fall below");
    assertEquals("it has removed nothing", window.cleanerKeeps());
  }

  @Test
  void anArchivedWindowDoesNotReadIncrementallyAndKeepsWhereTheActiveTimelineStarts() {
    WindowReadability window = WindowReadability.after(POSITION)
        .activeTimeline(Option.of(BOUND), true)
        .build();

    assertFalse(window.readableIncrementally());
    assertTrue(window.archived());
    assertEquals(Option.of(BOUND), window.activeTimelineStart());
  }

  @Test
  void windowWithCleanedFilesDoesNotReadIncrementallyAndNamesTheirCommitsOldestFirst() {
    WindowReadability window = WindowReadability.after(POSITION)
        .cleanedCommits(Arrays.asList("20261201100100000", "20261201100200000"))
        .cleaner(Option.of("20261201100300000"), Option.empty())
        .build();

    assertFalse(window.readableIncrementally());
    assertFalse(window.archived());
    assertEquals(Arrays.asList("20261201100100000", "20261201100200000"), window.cleanedCommits());
    assertEquals("it keeps the files of commits from 20261201100300000 on", window.cleanerKeeps());
    assertEquals("retain more commits on the source (hoodie.cleaner.commits.retained)", window.retainMore());
  }

  @Test
  void theHeadroomFallsBelowALimitOnlyWhenItHasFewerCommits() {
    WindowReadability window = WindowReadability.after(POSITION)
        .headroom(BOUND, 2, Duration.ofHours(1))
        .build();

    assertEquals(Option.of(2), window.headroomCommits());
    assertEquals(Option.of(Duration.ofHours(1)), window.headroomTime());
    assertEquals(Option.of(BOUND), window.earliestRetainedInstant());
    assertTrue(window.headroomBelow(3));
    assertFalse(window.headroomBelow(2));
  }

  @Test
  void fileVersionsCleanerSaysWhatItRemovedAndPointsAtItsOwnSettings() {
    WindowReadability window = WindowReadability.after(POSITION)
        .cleaner(Option.empty(), Option.of(BOUND))
        .build();

    assertTrue(window.keepsFileVersions());
    assertEquals(Option.of(BOUND), window.newestRemovedCommit());
    assertTrue(window.cleanerKeeps().startsWith("it keeps file versions (KEEP_LATEST_FILE_VERSIONS) and has removed "
        + "files written by commits up to " + BOUND), window.cleanerKeeps());
    assertTrue(window.retainMore().contains("hoodie.cleaner.fileversions.retained"), window.retainMore());
  }

  @Test
  void cleanerIsBoundEitherByCommitsToRetainOrByRemovedFileVersionsNeverBoth() {
    IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
        () -> WindowReadability.after(POSITION).cleaner(Option.of(BOUND), Option.of(BOUND)));
    assertTrue(failure.getMessage().startsWith("Cannot bound a cleaner both by"), failure.getMessage());
  }

  @Test
  void theCleanedCommitsCannotBeChangedAfterTheVerdict() {
    WindowReadability window = WindowReadability.after(POSITION).cleanedCommits(Collections.singletonList(BOUND)).build();

    assertThrows(UnsupportedOperationException.class, () -> window.cleanedCommits().add(POSITION));
  }
}
