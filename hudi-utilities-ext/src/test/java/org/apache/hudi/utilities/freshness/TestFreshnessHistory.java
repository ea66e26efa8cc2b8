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

import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The durable history of a pipeline: entries survive, the newest are kept, and a person can read the trend.
 */
class TestFreshnessHistory {

  private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
  private static final FreshnessPolicy POLICY = FreshnessPolicy.of(Duration.ofMinutes(60), Duration.ofDays(7));

  @TempDir
  Path dir;

  private static PipelineFreshness measurementAt(Instant at, long lagMinutes, Observer observer) {
    return new PipelineFreshness("joined", "/data/joined", observer, at,
        StoredCheckpoint.found("2026112911000000" + lagMinutes % 10, "orders=1,users=2", 1), List.of(
            SourceFreshness.measure("orders", SourceKind.HUDI, "1",
                QueueHead.waitingSince(at.minus(Duration.ofMinutes(lagMinutes)), 2), at, POLICY),
            SourceFreshness.noCheckpoint("users", SourceKind.HUDI)));
  }

  @Test
  void keepsTheNewestEntriesInTimeOrder() throws Exception {
    FreshnessHistory history = FreshnessHistory.open(dir.resolve("history").toUri().toString(), 3,
        new Configuration());
    for (int i = 0; i < 5; i++) {
      history.append(measurementAt(T0.plus(Duration.ofMinutes(i)), i, i % 2 == 0 ? Observer.CALLBACK
          : Observer.REPORTER));
    }
    List<JsonNode> entries = history.newest(10);
    assertEquals(List.of(T0.plus(Duration.ofMinutes(2)).toString(), T0.plus(Duration.ofMinutes(3)).toString(),
        T0.plus(Duration.ofMinutes(4)).toString()),
        entries.stream().map(entry -> entry.get("measuredAt").asText()).collect(Collectors.toList()));
    assertEquals(2, history.newest(2).size());
    JsonNode orders = entries.get(2).get("sources").get(0);
    assertEquals("WAITING", orders.get("state").asText());
    assertEquals(240.0, orders.get("lagSeconds").asDouble());
    assertEquals(2, orders.get("pending").asLong());
    JsonNode users = entries.get(2).get("sources").get(1);
    assertEquals("NO_CHECKPOINT", users.get("state").asText());
    assertFalse(users.has("lagSeconds"));
  }

  @Test
  void measurementsTakenAtTheSameMomentKeepTheirWriteOrder() throws Exception {
    FreshnessHistory history = FreshnessHistory.open(dir.toString(), 10, new Configuration());
    for (long lagMinutes = 1; lagMinutes <= 5; lagMinutes++) {
      history.append(measurementAt(T0, lagMinutes, Observer.REPORTER));
    }
    assertEquals(List.of(60.0, 120.0, 180.0, 240.0, 300.0), history.newest(10).stream()
        .map(entry -> entry.get("sources").get(0).get("lagSeconds").asDouble()).collect(Collectors.toList()));
  }

  @Test
  void anEntryPrunedByAnotherWriterBetweenListingAndReadIsLeftOut() throws Exception {
    Configuration conf = new Configuration();
    FreshnessHistory writer = FreshnessHistory.open(dir.toUri().toString(), 10, conf);
    for (int i = 0; i < 3; i++) {
      writer.append(measurementAt(T0.plus(Duration.ofMinutes(i)), i, Observer.CALLBACK));
    }
    conf.set("fs.file.impl", PrunedWhileReading.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);

    List<JsonNode> entries = FreshnessHistory.open(dir.toUri().toString(), 10, conf).newest(10);

    assertEquals(List.of(T0.plus(Duration.ofMinutes(1)).toString(), T0.plus(Duration.ofMinutes(2)).toString()),
        entries.stream().map(entry -> entry.get("measuredAt").asText()).collect(Collectors.toList()));
  }

  /** The local file system, where another writer prunes the oldest entry just after the reader listed it. */
  public static final class PrunedWhileReading extends LocalFileSystem {
    private boolean pruned;

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path path, int bufferSize) throws IOException {
      if (!pruned) {
        pruned = true;
        delete(path, false);
      }
      return super.open(path, bufferSize);
    }
  }

  @Test
  void missingHistoryIsEmpty() throws Exception {
    assertTrue(FreshnessHistory.open(dir.resolve("none").toString(), 3, new Configuration()).newest(5).isEmpty());
  }

  @Test
  void printsOneRowPerSourceAndMeasurementWithDashesForUnknownValues() throws Exception {
    FreshnessHistory history = FreshnessHistory.open(dir.toString(), 10, new Configuration());
    history.append(measurementAt(T0, 6, Observer.CALLBACK));
    List<String> lines = HistoryTable.format(history.newest(10)).lines().collect(Collectors.toList());
    assertEquals(3, lines.size());
    assertEquals(List.of("measured_at", "pipeline", "observer", "commit", "source", "state", "status", "lag_s",
        "raw_lag_s", "sla_ratio", "pending"), List.of(lines.get(0).trim().split(" +")));
    assertEquals(List.of(T0.toString(), "joined", "CALLBACK", "20261129110000006", "orders", "WAITING", "OK", "360.0",
        "360.0", "0.100", "2"), List.of(lines.get(1).trim().split(" +")));
    assertEquals(List.of(T0.toString(), "joined", "CALLBACK", "20261129110000006", "users", "NO_CHECKPOINT",
        "NO_DATA", "-", "-", "-", "-"), List.of(lines.get(2).trim().split(" +")));
  }

  @Test
  void readsTheEntriesSinceATimeAndTheOneBefore() throws Exception {
    FreshnessHistory history = FreshnessHistory.open(dir.toString(), 10, new Configuration());
    for (int minutes = 0; minutes <= 40; minutes += 10) {
      history.append(measurementAt(T0.plus(Duration.ofMinutes(minutes)), 1, Observer.REPORTER));
    }

    List<String> since = history.since(T0.plus(Duration.ofMinutes(25))).stream()
        .map(entry -> entry.get("measuredAt").asText()).collect(Collectors.toList());

    assertEquals(List.of(T0.plus(Duration.ofMinutes(20)).toString(), T0.plus(Duration.ofMinutes(30)).toString(),
        T0.plus(Duration.ofMinutes(40)).toString()), since);
    assertEquals(5, history.since(T0.minus(Duration.ofMinutes(1))).size());
    assertTrue(FreshnessHistory.open(dir.resolve("none").toString(), 3, new Configuration()).since(T0).isEmpty());
  }
}
