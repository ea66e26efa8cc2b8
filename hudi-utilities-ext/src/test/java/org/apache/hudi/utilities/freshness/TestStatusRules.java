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

package org.apache.hudi.utilities.freshness;

import org.apache.hudi.common.util.Option;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The status rules on observations taken by a clock the test moves: each rule, its boundary, and which rule wins.
 */
class TestStatusRules {

  private static final Duration WINDOW = Duration.ofMinutes(60);

  /** A clock the test moves forward; each observation is taken at its current time. */
  private Clock clock = Clock.fixed(Instant.parse("2026-11-30T08:00:00Z"), ZoneOffset.UTC);
  private final List<SourceObservation> earlier = new ArrayList<>();

  private void advance(long minutes) {
    clock = Clock.offset(clock, Duration.ofMinutes(minutes));
  }

  private SourceObservation waiting(String position, long lagMinutes) {
    return new SourceObservation(clock.instant(), FreshnessState.WAITING, Option.of(position),
        Option.of(Duration.ofMinutes(lagMinutes)));
  }

  private SourceObservation caughtUp(String position) {
    return new SourceObservation(clock.instant(), FreshnessState.CAUGHT_UP, Option.of(position),
        Option.of(Duration.ZERO));
  }

  private SourceObservation noLag(FreshnessState state) {
    return new SourceObservation(clock.instant(), state, Option.empty(), Option.empty());
  }

  /** Records an observation now, then moves the clock. */
  private void observe(SourceObservation observation, long thenMinutes) {
    earlier.add(observation);
    advance(thenMinutes);
  }

  private SourceStatus rate(SourceObservation now) {
    return StatusRules.status(earlier, now, WINDOW);
  }

  @Test
  void sourceWithoutLagHasNoData() {
    observe(waiting("1", 5), 10);
    assertEquals(SourceStatus.NO_DATA, rate(noLag(FreshnessState.NO_CHECKPOINT)));
    assertEquals(SourceStatus.NO_DATA, rate(noLag(FreshnessState.UNREADABLE)));
    assertEquals(SourceStatus.NO_DATA, rate(noLag(FreshnessState.NO_TIMESTAMP)));
  }

  @Test
  void nothingWaitingIsIdleEvenAfterALongStall() {
    for (int i = 0; i < 10; i++) {
      observe(waiting("1", 10L * i), 10);
    }
    assertEquals(SourceStatus.IDLE, rate(caughtUp("1")));
  }

  @Test
  void dataWaitingAtTheSamePositionForAWholeWindowIsStalled() {
    observe(waiting("1", 0), 30);
    observe(waiting("1", 30), 29);
    assertEquals(SourceStatus.OK, rate(waiting("1", 59)), "59 minutes: not yet a whole window");
    advance(1);
    assertEquals(SourceStatus.STALLED, rate(waiting("1", 60)), "exactly one window");
  }

  @Test
  void moveWithinTheWindowIsNoStall() {
    observe(waiting("1", 0), 50);
    observe(waiting("2", 50), 20);
    assertEquals(SourceStatus.OK, rate(waiting("2", 20)), "the run at position 2 is 20 minutes old");
  }

  @Test
  void caughtUpObservationBreaksTheStall() {
    observe(waiting("1", 0), 40);
    observe(caughtUp("1"), 10);
    observe(waiting("1", 5), 20);
    assertEquals(SourceStatus.OK, rate(waiting("1", 25)), "data waits since 30 minutes only");
  }

  @Test
  void growingLagWhileThePositionMovesIsLagging() {
    observe(waiting("1", 5), 15);
    observe(waiting("2", 10), 15);
    observe(waiting("3", 15), 15);
    assertEquals(SourceStatus.LAGGING, rate(waiting("4", 20)));
  }

  @Test
  void lagThatShrinksOnceIsNotLagging() {
    observe(waiting("1", 5), 15);
    observe(waiting("2", 12), 15);
    observe(waiting("3", 8), 15);
    assertEquals(SourceStatus.OK, rate(waiting("4", 20)));
  }

  @Test
  void onlyTheWindowCountsForLagging() {
    observe(waiting("1", 30), 30);
    // Out of the window by the time of the rating: its larger lag does not break the growth that follows.
    observe(waiting("2", 5), 31);
    observe(waiting("3", 10), 15);
    assertEquals(SourceStatus.LAGGING, rate(waiting("4", 20)));
  }

  @Test
  void growingLagWithoutAMoveIsNotLaggingButStallsAfterAWindow() {
    observe(waiting("1", 5), 20);
    observe(waiting("1", 25), 20);
    assertEquals(SourceStatus.OK, rate(waiting("1", 45)), "40 minutes at one position: waiting, not lagging");
    observe(waiting("1", 45), 20);
    assertEquals(SourceStatus.STALLED, rate(waiting("1", 65)));
  }

  @Test
  void firstMeasurementIsOk() {
    assertEquals(SourceStatus.OK, rate(waiting("1", 500)));
  }

  @Test
  void theWindowMustBePositive() {
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
        () -> StatusRules.status(earlier, waiting("1", 1), Duration.ZERO));
    assertEquals("Cannot rate a source over a window of PT0S: it must be positive", thrown.getMessage());
  }
}
