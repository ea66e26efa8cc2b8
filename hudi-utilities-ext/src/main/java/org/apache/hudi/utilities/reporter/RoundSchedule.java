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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * Rounds at a fixed rate, start to start: round {@code n} starts at {@code first + n * period}. A round that lasts
 * longer than the period is an overrun: counted, logged, and the start times it ran past are skipped, not queued, so the
 * next round starts at the next start time still ahead. The period never stretches silently by the rounds' length.
 */
public final class RoundSchedule {

  private static final Logger LOG = LoggerFactory.getLogger(RoundSchedule.class);

  /** Waits; a test's sleeper moves its clock instead. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;

    Sleeper THREAD = duration -> Thread.sleep(duration.toMillis());
  }

  private final Duration period;
  private final Clock clock;
  private final Sleeper sleeper;
  private Instant nextStart;
  private long overruns;

  /**
   * @throws IllegalArgumentException if the period is not positive
   */
  public RoundSchedule(Duration period, Clock clock, Sleeper sleeper) {
    checkArgument(!period.isNegative() && !period.isZero(), () -> "Cannot run rounds every " + period
        + ": --interval must be positive (or 0 to run once)");
    this.period = period;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** Waits for the next round's start time (the first call returns at once) and returns it. */
  public Instant awaitNextRound() throws InterruptedException {
    Instant now = clock.instant();
    if (nextStart == null) {
      nextStart = now;
    } else if (now.isAfter(nextStart)) {
      long missed = Duration.between(nextStart, now).toNanos() / period.toNanos() + 1;
      overruns++;
      LOG.warn("The freshness round due at {} overran by {}: {} start time(s) skipped, the next round starts at {} "
          + "(rounds overrun: {}; measure fewer pipelines per reporter with --shard-count, or add --workers)",
          nextStart, Duration.between(nextStart, now), missed, nextStart.plus(period.multipliedBy(missed)), overruns);
      nextStart = nextStart.plus(period.multipliedBy(missed));
    }
    Duration wait = Duration.between(now, nextStart);
    if (!wait.isZero()) {
      sleeper.sleep(wait);
    }
    Instant start = nextStart;
    nextStart = nextStart.plus(period);
    return start;
  }

  public Duration period() {
    return period;
  }

  /** Rounds that lasted past the next round's start time. */
  public long overruns() {
    return overruns;
  }
}
