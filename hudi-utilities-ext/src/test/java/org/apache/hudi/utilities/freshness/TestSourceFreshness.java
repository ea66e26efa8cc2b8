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

import org.apache.hudi.utilities.config.HoodieFreshnessConfig.Mode;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lag, clock skew, caps and SLA ratios of one source: the arithmetic every observer shares.
 */
class TestSourceFreshness {

  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private static final FreshnessPolicy HOUR_SLA = FreshnessPolicy.of(Duration.ofMinutes(60), Duration.ofDays(7));

  private static SourceFreshness waitingSince(Instant oldest, FreshnessPolicy policy) {
    return SourceFreshness.measure("orders", SourceKind.HUDI, "20261129100000000",
        QueueHead.waitingSince(oldest, 3), NOW, policy);
  }

  @Test
  void lagIsTheTimeTheOldestWaitingDataHasBeenVisible() {
    SourceFreshness freshness = waitingSince(NOW.minus(Duration.ofMinutes(42)), HOUR_SLA);
    assertEquals(FreshnessState.WAITING, freshness.state());
    assertEquals(Duration.ofMinutes(42), freshness.lag().get());
    assertEquals(Duration.ofMinutes(42), freshness.rawLag().get());
    assertEquals(42.0 / 60.0, freshness.slaRatio().getAsDouble(), 1e-9);
    assertEquals(3, freshness.pending().getAsLong());
  }

  @Test
  void dataStampedAfterNowFloorsLagAtZeroAndKeepsTheNegativeRawLagAsClockSkew() {
    SourceFreshness freshness = waitingSince(NOW.plusSeconds(90), HOUR_SLA);
    assertEquals(Duration.ZERO, freshness.lag().get());
    assertEquals(Duration.ofSeconds(-90), freshness.rawLag().get());
    assertEquals(0.0, freshness.slaRatio().getAsDouble());
  }

  @Test
  void lagOfAnIdlePipelineIsCappedWhileRawLagIsNot() {
    SourceFreshness defaultCap = waitingSince(NOW.minus(Duration.ofDays(400)), HOUR_SLA);
    assertEquals(Duration.ofDays(7), defaultCap.lag().get());
    assertEquals(Duration.ofDays(400), defaultCap.rawLag().get());
    assertEquals(1.0, defaultCap.slaRatio().getAsDouble());

    FreshnessPolicy oneDayCap = FreshnessPolicy.of(Duration.ofMinutes(60), Duration.ofDays(1));
    assertEquals(Duration.ofDays(1), waitingSince(NOW.minus(Duration.ofDays(3)), oneDayCap).lag().get());
  }

  @Test
  void slaRatioIsClampedToOne() {
    SourceFreshness late = waitingSince(NOW.minus(Duration.ofMinutes(150)), HOUR_SLA);
    assertEquals(Duration.ofMinutes(150), late.lag().get());
    assertEquals(1.0, late.slaRatio().getAsDouble());
  }

  @Test
  void defaultSlaIsAnHourForStreamingAndADayForBatch() {
    assertEquals(Duration.ofMinutes(60), Mode.STREAMING.defaultSla());
    assertEquals(Duration.ofMinutes(1440), Mode.BATCH.defaultSla());
    SourceFreshness batch = waitingSince(NOW.minus(Duration.ofHours(6)),
        FreshnessPolicy.of(Mode.BATCH.defaultSla(), FreshnessPolicy.DEFAULT_LAG_CAP));
    assertEquals(0.25, batch.slaRatio().getAsDouble(), 1e-9);
  }

  @Test
  void nothingAfterTheCheckpointIsLagZero() {
    SourceFreshness freshness = SourceFreshness.measure("orders", SourceKind.HUDI, "1", QueueHead.caughtUp(), NOW,
        HOUR_SLA);
    assertEquals(FreshnessState.CAUGHT_UP, freshness.state());
    assertEquals(Duration.ZERO, freshness.lag().get());
    assertEquals(0.0, freshness.slaRatio().getAsDouble());
    assertEquals(0, freshness.pending().getAsLong());
  }

  @Test
  void recordWithoutTimestampSuppressesTheLagButKeepsThePendingCount() {
    SourceFreshness freshness = SourceFreshness.measure("clicks", SourceKind.KAFKA, "clicks,0:5",
        QueueHead.withoutTimestamp(7), NOW, HOUR_SLA);
    assertEquals(FreshnessState.NO_TIMESTAMP, freshness.state());
    assertFalse(freshness.lag().isPresent());
    assertFalse(freshness.rawLag().isPresent());
    assertFalse(freshness.slaRatio().isPresent());
    assertEquals(7, freshness.pending().getAsLong());
  }

  @Test
  void noCheckpointHasNoValueAtAll() {
    SourceFreshness freshness = SourceFreshness.noCheckpoint("users", SourceKind.HUDI);
    assertEquals(FreshnessState.NO_CHECKPOINT, freshness.state());
    assertFalse(freshness.position().isPresent());
    assertFalse(freshness.lag().isPresent());
    assertFalse(freshness.rawLag().isPresent());
    assertFalse(freshness.slaRatio().isPresent());
    assertFalse(freshness.pending().isPresent());
    assertFalse(freshness.oldestVisibleAt().isPresent());
  }

  @Test
  void policyRejectsNonPositiveDurations() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> FreshnessPolicy.of(Duration.ZERO, Duration.ofDays(1)));
    assertTrue(error.getMessage().startsWith("Cannot use a SLA of PT0S"), error.getMessage());
  }
}
