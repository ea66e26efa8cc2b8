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

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The status of a source from its freshness history, as Burrow rates Kafka consumers: from what the pipeline did
 * over a window, not from a lag threshold. The rules, first match wins, with {@code now} the newest observation and
 * the window {@code (now - window, now]}:
 * <ol>
 *   <li>{@link SourceStatus#NO_DATA}: {@code now} has no lag (no checkpoint, no timestamp, source unreadable).</li>
 *   <li>{@link SourceStatus#IDLE}: nothing waits at {@code now} (lag 0).</li>
 *   <li>{@link SourceStatus#STALLED}: data has waited at {@code now}'s position in every observation back to one at
 *   or before {@code now - window}: the position did not move for a whole window while data waited.</li>
 *   <li>{@link SourceStatus#LAGGING}: within the window, at least two observations have a lag, each lag is at least
 *   the one before, the last is larger than the first, and the position changed: the pipeline reads, and falls
 *   behind.</li>
 *   <li>{@link SourceStatus#OK}: otherwise.</li>
 * </ol>
 * Without earlier observations (a first measurement, or the commit callback with history off) only NO_DATA, IDLE and
 * OK can be told apart.
 */
public final class StatusRules {

  private StatusRules() {
  }

  /**
   * The measurement with each source rated against its history.
   *
   * @param history the pipeline's earlier history entries ({@link FreshnessHistory#since}), oldest first
   */
  public static PipelineFreshness rate(PipelineFreshness measured, List<JsonNode> history, Duration window) {
    List<SourceFreshness> rated = new ArrayList<>();
    for (SourceFreshness source : measured.sources()) {
      List<SourceObservation> earlier = new ArrayList<>();
      for (JsonNode entry : history) {
        for (JsonNode node : entry.path("sources")) {
          if (source.source().equals(node.path("source").asText())) {
            earlier.add(SourceObservation.ofHistory(entry, node));
          }
        }
      }
      rated.add(source.withStatus(status(earlier, SourceObservation.of(measured.measuredAt(), source), window)));
    }
    return measured.withSources(rated);
  }

  /**
   * @param earlier the source's earlier observations, oldest first; those before the newest one at or before
   *                {@code now - window} are not looked at
   * @param now     the observation to rate
   * @param window  positive
   */
  public static SourceStatus status(List<SourceObservation> earlier, SourceObservation now, Duration window) {
    Objects.requireNonNull(now, "now");
    FreshnessPolicy.requirePositive(window, "rate a source over a window of " + window);
    if (!now.lag().isPresent()) {
      return SourceStatus.NO_DATA;
    }
    if (!now.dataWaits()) {
      return SourceStatus.IDLE;
    }
    Instant windowStart = now.measuredAt().minus(window);
    if (!waitingSince(earlier, now).isAfter(windowStart)) {
      return SourceStatus.STALLED;
    }
    List<SourceObservation> inWindow = new ArrayList<>();
    for (SourceObservation observation : earlier) {
      if (observation.measuredAt().isAfter(windowStart) && observation.measuredAt().isBefore(now.measuredAt())) {
        inWindow.add(observation);
      }
    }
    inWindow.add(now);
    return lagGrewWhilePositionMoved(inWindow) ? SourceStatus.LAGGING : SourceStatus.OK;
  }

  /** The oldest observation of the unbroken run, ending at {@code now}, in which data waited at now's position. */
  private static Instant waitingSince(List<SourceObservation> earlier, SourceObservation now) {
    Instant since = now.measuredAt();
    for (int i = earlier.size() - 1; i >= 0; i--) {
      SourceObservation observation = earlier.get(i);
      if (observation.measuredAt().isAfter(now.measuredAt())) {
        continue;
      }
      if (!observation.dataWaits() || !observation.position().equals(now.position())) {
        break;
      }
      since = observation.measuredAt();
    }
    return since;
  }

  private static boolean lagGrewWhilePositionMoved(List<SourceObservation> window) {
    Duration first = null;
    Duration previous = null;
    for (SourceObservation observation : window) {
      if (!observation.lag().isPresent()) {
        continue;
      }
      Duration lag = observation.lag().get();
      if (previous != null && lag.compareTo(previous) < 0) {
        return false;
      }
      first = first == null ? lag : first;
      previous = lag;
    }
    boolean moved = window.stream().map(SourceObservation::position).distinct().count() > 1;
    return first != null && previous.compareTo(first) > 0 && moved;
  }
}
