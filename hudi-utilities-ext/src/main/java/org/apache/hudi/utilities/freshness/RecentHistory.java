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

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The history of a long-running observer (the reporter). The entries a status is rated from ({@link StatusRules}: the
 * status window and the newest entry before it) are kept in memory: read from the stored {@link FreshnessHistory} once
 * per pipeline, then appended to with each measurement recorded, so that a round reads no history. Entries that another
 * observer (the commit callback) writes afterwards are not seen; the observer's own measurements, one a round, rate
 * the status. With the history off, the window still holds those, so that a fleet's reporter can do without the
 * history's writes and keep every status.
 *
 * <p>The stored history gets the measurements that change its story ({@link MeasurementStory}), not one a round:
 * a round over tables with no new commit and sources whose state holds writes nothing, where an entry a pipeline a
 * round cost a fleet's reporter four object-store requests each (create, its directory probe and marker clean-up, and
 * the pruning listing). What is left out follows from what is kept: while the story holds, the lag grows with the
 * clock from the last entry written. Written are a pipeline's first measurement by this observer; a measurement whose
 * story differs from the last written, preceded by the last one left out (the highest lag before a drop); and, when
 * nothing changes, one measurement a status window, so that a status window read back after a restart holds an
 * entry.
 */
public final class RecentHistory {

  private final Map<String, List<JsonNode>> entries = new ConcurrentHashMap<>();
  private final Map<String, StoredStory> stored = new ConcurrentHashMap<>();

  /**
   * The kept entries measured at or after {@code from}, and the newest one before it, oldest first; read from
   * {@code stored} the first time the pipeline is asked for. Without a stored history (history off) the window holds
   * this observer's own measurements only, from its first.
   */
  public List<JsonNode> since(String pipeline, Option<FreshnessHistory> stored, Instant from) throws IOException {
    List<JsonNode> kept = entries.get(pipeline);
    if (kept == null) {
      kept = new ArrayList<>(stored.isPresent() ? stored.get().since(from) : List.of());
      entries.put(pipeline, kept);
    }
    synchronized (kept) {
      return new ArrayList<>(window(kept, from));
    }
  }

  /**
   * Keeps a measurement just recorded, dropping entries no window starting before it needs, and writes to the stored
   * history, if any, what changes its story.
   *
   * @throws IOException if the stored history cannot be written; the measurement is kept in memory all the same, and
   *                     the next measurement of the pipeline is compared with the last entry written
   */
  public void record(PipelineFreshness freshness, Duration window, Option<FreshnessHistory> history)
      throws IOException {
    List<JsonNode> kept = entries.computeIfAbsent(freshness.pipeline(), name -> new ArrayList<>());
    synchronized (kept) {
      kept.add(FreshnessHistory.toJson(freshness));
      List<JsonNode> needed = new ArrayList<>(window(kept, freshness.measuredAt().minus(window)));
      kept.clear();
      kept.addAll(needed);
    }
    if (history.isPresent()) {
      stored.computeIfAbsent(freshness.pipeline(), name -> new StoredStory()).write(freshness, window, history.get());
    }
  }

  private static List<JsonNode> window(List<JsonNode> oldestFirst, Instant from) {
    int first = oldestFirst.size();
    while (first > 0 && !Instant.parse(oldestFirst.get(first - 1).path("measuredAt").asText()).isBefore(from)) {
      first--;
    }
    return oldestFirst.subList(Math.max(0, first - 1), oldestFirst.size());
  }

  /** What one pipeline's stored history holds of this observer's measurements. */
  private static final class StoredStory {

    private PipelineFreshness lastWritten;
    private PipelineFreshness lastLeftOut;

    synchronized void write(PipelineFreshness measured, Duration window, FreshnessHistory history) throws IOException {
      MeasurementStory story = MeasurementStory.of(measured);
      if (lastWritten != null && story.equals(MeasurementStory.of(lastWritten))) {
        if (measured.measuredAt().isBefore(lastWritten.measuredAt().plus(window))) {
          lastLeftOut = measured;
          return;
        }
      } else if (lastLeftOut != null) {
        history.append(lastLeftOut);
      }
      // Cleared once written: should the next append fail, it is not written twice.
      lastLeftOut = null;
      history.append(measured);
      lastWritten = measured;
    }
  }
}
