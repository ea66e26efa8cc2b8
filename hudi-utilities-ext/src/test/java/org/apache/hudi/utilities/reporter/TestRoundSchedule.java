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

package org.apache.hudi.utilities.reporter;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Rounds start at a fixed rate, start to start, on a clock the test moves: sleeping and working both move it. */
class TestRoundSchedule {

  private static final Instant T0 = Instant.parse("2026-12-07T12:00:00Z");
  private static final Duration MINUTE = Duration.ofMinutes(1);

  private final MovableClock clock = new MovableClock(T0);
  private final RoundSchedule schedule = new RoundSchedule(MINUTE, clock, clock::advance);

  @Test
  void roundsShorterThanThePeriodStartAMinuteApartWhateverTheyLast() throws Exception {
    List<Instant> starts = run(Duration.ofSeconds(10), Duration.ofSeconds(50), Duration.ofSeconds(1),
        Duration.ofSeconds(30));

    assertEquals(List.of(T0, T0.plusSeconds(60), T0.plusSeconds(120), T0.plusSeconds(180)), starts);
    assertEquals(0, schedule.overruns());
  }

  @Test
  void roundLongerThanThePeriodIsCountedAndTheStartTimesItRanPastAreSkippedNotQueued() throws Exception {
    // The second round lasts 150 s: it runs past the starts at 120 s and 180 s.
    List<Instant> starts = run(Duration.ofSeconds(10), Duration.ofSeconds(150), Duration.ofSeconds(10),
        Duration.ofSeconds(10));

    assertEquals(List.of(T0, T0.plusSeconds(60), T0.plusSeconds(240), T0.plusSeconds(300)), starts);
    assertEquals(1, schedule.overruns());
  }

  @Test
  void roundEndingExactlyAtTheNextStartIsNoOverrun() throws Exception {
    List<Instant> starts = run(MINUTE, MINUTE);

    assertEquals(List.of(T0, T0.plusSeconds(60)), starts);
    assertEquals(0, schedule.overruns());
  }

  @Test
  void periodOfZeroIsRefusedWithTheOptionToFix() {
    assertEquals("Cannot run rounds every PT0S: --interval must be positive (or 0 to run once)",
        assertThrows(IllegalArgumentException.class,
            () -> new RoundSchedule(Duration.ZERO, clock, clock::advance)).getMessage());
  }

  /** Runs one round per duration, each moving the clock by its duration; returns when each started. */
  private List<Instant> run(Duration... roundDurations) throws InterruptedException {
    List<Instant> starts = new ArrayList<>();
    for (Duration duration : roundDurations) {
      Instant start = schedule.awaitNextRound();
      assertEquals(start, clock.instant(), "a round starts at its start time");
      starts.add(start);
      clock.advance(duration);
    }
    return starts;
  }
}
