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
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A long-running observer's history: the status window in memory, and a stored history that gets the measurements
 * that change its story, not one a round.
 */
class TestRecentHistory {

  private static final Instant T0 = Instant.parse("2026-12-08T01:00:00Z");
  private static final Duration WINDOW = Duration.ofMinutes(10);
  private static final FreshnessPolicy POLICY = FreshnessPolicy.of(Duration.ofMinutes(30), Duration.ofDays(7));

  @TempDir
  Path dir;

  private FreshnessHistory stored;
  private RecentHistory recent;

  @BeforeEach
  void openHistory() throws Exception {
    stored = FreshnessHistory.open(dir.resolve("history").toUri().toString(), 1000, new Configuration());
    recent = new RecentHistory();
  }

  @Test
  void roundsThatOnlyAgeTheSameWaitingDataWriteNothingAndTheLastOfThemIsWrittenBeforeTheChange() throws Exception {
    // Minute 0: data waits at position 1 since minute 0; the reporter measures it every minute.
    for (int minute = 0; minute <= 4; minute++) {
      record(minute, "1", 0, 10 + minute);
    }
    assertEquals(List.of("0"), storedMinutes());

    // Minute 5: the Streamer ingested up to position 2; what waits now arrived at minute 4.
    record(5, "2", 4, 3);

    // Minute 4's measurement is the highest lag at position 1: written before the change, so a chart shows the drop.
    assertEquals(List.of("0", "4", "5"), storedMinutes());
    assertEquals(List.of(0.0, 240.0, 60.0), storedLags());
  }

  @Test
  void unchangedStoryIsWrittenOnceAStatusWindow() throws Exception {
    for (int minute = 0; minute <= 21; minute++) {
      record(minute, "1", 0, 5);
    }

    // At minute 10 the status changed (STALLED: data waited a whole window), so minute 9 is written before it; then
    // nothing changes, and minute 20 is written a window after minute 10.
    assertEquals(List.of("0", "9", "10", "20"), storedMinutes());
    assertEquals(List.of("OK", "OK", "STALLED", "STALLED"), storedStatuses());
  }

  @Test
  void statusWindowReadBackAfterARestartRatesAsTheRoundsKeptInMemoryDid() throws Exception {
    PipelineFreshness last = null;
    for (int minute = 0; minute <= 12; minute++) {
      last = record(minute, "1", 0, 5);
    }
    assertEquals(SourceStatus.STALLED, last.sources().get(0).status());

    // A reporter started anew reads the window from the stored history: the entries of minutes 0, 9 and 10.
    recent = new RecentHistory();
    PipelineFreshness afterRestart = record(13, "1", 0, 5);

    assertEquals(SourceStatus.STALLED, afterRestart.sources().get(0).status());
  }

  @Test
  void newStateReasonOrSearchDepthChangesTheStoryButThePendingCountAloneDoesNot() throws Exception {
    record(0, "1", 0, 5);
    record(1, "1", 0, 500);
    assertEquals(List.of("0"), storedMinutes());

    recordCaughtUp(2, "1");
    assertEquals(List.of("0", "1", "2"), storedMinutes());

    recent.record(measured(3, "1", 3, List.of(
        SourceFreshness.unreadable("orders", SourceKind.HUDI, "1", "no timeline"))), WINDOW, Option.of(stored));
    assertEquals(List.of("0", "1", "2", "3"), storedMinutes());
  }

  @Test
  void withoutAStoredHistoryOnlyTheWindowIsKept() throws Exception {
    recent.record(measured(0, "1", 1, List.of(waiting(0, "1", 0, 5))), WINDOW, Option.empty());

    assertEquals(1, recent.since("joined", Option.empty(), T0).size());
    assertEquals(List.of(), storedMinutes());
  }

  private PipelineFreshness record(int minute, String position, int oldestMinute, long pending) throws Exception {
    return rateAndRecord(measured(minute, position, 1, List.of(waiting(minute, position, oldestMinute, pending))));
  }

  private void recordCaughtUp(int minute, String position) throws Exception {
    Instant at = at(minute);
    rateAndRecord(measured(minute, position, 1, List.of(
        SourceFreshness.measure("orders", SourceKind.HUDI, position, QueueHead.caughtUp(), at, POLICY))));
  }

  /** As the reporter's recorder does: rated over the window kept in memory, then recorded. */
  private PipelineFreshness rateAndRecord(PipelineFreshness measured) throws Exception {
    List<JsonNode> earlier = recent.since("joined", Option.of(stored), measured.measuredAt().minus(WINDOW));
    PipelineFreshness rated = StatusRules.rate(measured, earlier, WINDOW);
    recent.record(rated, WINDOW, Option.of(stored));
    return rated;
  }

  private static SourceFreshness waiting(int minute, String position, int oldestMinute, long pending) {
    return SourceFreshness.measure("orders", SourceKind.HUDI, position,
        QueueHead.waitingSince(at(oldestMinute), pending), at(minute), POLICY);
  }

  private static PipelineFreshness measured(int minute, String position, int searchDepth,
                                            List<SourceFreshness> sources) {
    return new PipelineFreshness("joined", "/data/joined", Observer.REPORTER, at(minute),
        StoredCheckpoint.found("2026120801000000" + position, "orders=" + position, searchDepth), sources);
  }

  private static Instant at(int minute) {
    return T0.plus(Duration.ofMinutes(minute));
  }

  private List<String> storedMinutes() throws Exception {
    return stored.newest(100).stream()
        .map(entry -> String.valueOf(Duration.between(T0, Instant.parse(entry.get("measuredAt").asText())).toMinutes()))
        .collect(Collectors.toList());
  }

  private List<Double> storedLags() throws Exception {
    return stored.newest(100).stream().map(entry -> entry.get("sources").get(0).get("lagSeconds").asDouble())
        .collect(Collectors.toList());
  }

  private List<String> storedStatuses() throws Exception {
    return stored.newest(100).stream().map(entry -> entry.get("sources").get(0).get("status").asText())
        .collect(Collectors.toList());
  }
}
