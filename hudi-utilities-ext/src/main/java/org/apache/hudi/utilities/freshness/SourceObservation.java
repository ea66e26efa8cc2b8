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

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What {@link StatusRules} needs of one measurement of one source: when, where the pipeline stood, whether data
 * waited and how long. Built from a measurement just taken or from a history entry.
 */
public final class SourceObservation {

  private final Instant measuredAt;
  private final FreshnessState state;
  private final String position;
  private final Duration lag;

  public SourceObservation(Instant measuredAt, FreshnessState state, Option<String> position, Option<Duration> lag) {
    this.measuredAt = Objects.requireNonNull(measuredAt, "measuredAt");
    this.state = Objects.requireNonNull(state, "state");
    this.position = position.orElse(null);
    this.lag = lag.orElse(null);
  }

  /** The observation of a source measured at {@code measuredAt}. */
  public static SourceObservation of(Instant measuredAt, SourceFreshness source) {
    return new SourceObservation(measuredAt, source.state(), source.position(), source.lag());
  }

  /**
   * The observation of a source in a history entry ({@link FreshnessHistory#newest}).
   *
   * @param entry  the entry, for its time
   * @param source the source's node of that entry
   */
  public static SourceObservation ofHistory(JsonNode entry, JsonNode source) {
    JsonNode position = source.get("position");
    JsonNode lag = source.get("lagSeconds");
    return new SourceObservation(Instant.parse(entry.path("measuredAt").asText()),
        FreshnessState.valueOf(source.path("state").asText()),
        position == null ? Option.empty() : Option.of(position.asText()),
        lag == null ? Option.empty() : Option.of(Duration.ofMillis(Math.round(lag.asDouble() * 1000))));
  }

  public Instant measuredAt() {
    return measuredAt;
  }

  public FreshnessState state() {
    return state;
  }

  public Option<String> position() {
    return Option.ofNullable(position);
  }

  public Option<Duration> lag() {
    return Option.ofNullable(lag);
  }

  /** Whether data waited after the position (with or without a known lag). */
  boolean dataWaits() {
    return state == FreshnessState.WAITING || state == FreshnessState.NO_TIMESTAMP;
  }

  @Override
  public String toString() {
    return "SourceObservation{" + measuredAt + " " + state + ", position=" + position + ", lag=" + lag + "}";
  }
}
