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

package org.apache.hudi.utilities.benchmarks;

import org.apache.hudi.utilities.benchmarks.FleetPipeline.Fault;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.SourceFreshness;
import org.apache.hudi.utilities.reporter.PipelineOutcome;
import org.apache.hudi.utilities.reporter.RoundReport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One round of a reporter held against the truth of the fleet: the healthy pipelines (those with a true lag) measured,
 * the largest error of a published lag against the true age of the oldest waiting record at the measurement's time,
 * wrong counts of records lost, and the made-up values (a lag published for a pipeline that has no true one).
 */
final class RoundScore {

  private final double seconds;
  private int withTrueLag;
  private int measured;
  private long maxLagErrorMillis;
  private int wrongRecordsLost;
  private int madeUp;
  private final Map<Fault, String> faultOutcomes = new EnumMap<>(Fault.class);
  private String worstLag = "none";
  private final List<String> unmeasured = new ArrayList<>();

  private RoundScore(double seconds) {
    this.seconds = seconds;
  }

  static RoundScore of(RoundReport report, Map<String, FleetPipeline> fleet) {
    RoundScore score = new RoundScore(report.duration().toMillis() / 1000.0);
    for (PipelineOutcome outcome : report.outcomes()) {
      FleetPipeline pipeline = fleet.get(outcome.pipeline());
      score.add(pipeline, outcome);
    }
    return score;
  }

  private void add(FleetPipeline pipeline, PipelineOutcome outcome) {
    Fault fault = pipeline.fault();
    SourceFreshness source = outcome.freshness().isPresent() ? outcome.freshness().get().sources().get(0) : null;
    if (fault != Fault.NONE) {
      faultOutcomes.putIfAbsent(fault, source == null ? outcome.kind() + ": " + shorten(outcome.reason())
          : source.state() + ", lag " + (source.lag().isPresent() ? source.lag().get() : "none")
          + (source.checkpointInLog().isPresent() ? ", " + source.checkpointInLog().get() : "")
          + (source.reason().isPresent() ? ": " + shorten(source.reason().get()) : ""));
    }
    if (!fault.hasTrueLag()) {
      if (source != null && (source.lag().isPresent() || source.oldestVisibleAt().isPresent())) {
        madeUp++;
      }
      return;
    }
    withTrueLag++;
    if (source == null || !source.lag().isPresent()) {
      unmeasured.add(pipeline.name() + " (" + pipeline.partitions() + " partitions): " + (source == null
          ? outcome.kind() + " " + shorten(outcome.reason()) : source.state() + " " + source.reason().orElse("")));
      return;
    }
    measured++;
    PipelineFreshness freshness = outcome.freshness().get();
    long expected = pipeline.oldestWaitingAt().isPresent()
        ? freshness.measuredAt().toEpochMilli() - pipeline.oldestWaitingAt().getAsLong() : 0;
    long error = Math.abs(source.lag().get().toMillis() - expected);
    if (error > maxLagErrorMillis) {
      maxLagErrorMillis = error;
      worstLag = pipeline.name() + " (" + pipeline.partitions() + " partitions): lag " + source.lag().get()
          + ", true age " + Duration.ofMillis(expected) + ", " + source.state() + ", oldest visible at "
          + source.oldestVisibleAt().map(Object::toString).orElse("none") + ", position " + source.position()
          .orElse("none");
    }
    long lost = source.checkpointInLog().isPresent() ? source.checkpointInLog().get().recordsLost() : 0;
    if (lost != pipeline.recordsLost()) {
      wrongRecordsLost++;
    }
  }

  private static String shorten(String reason) {
    return reason.length() <= 110 ? reason : reason.substring(0, 107) + "...";
  }

  double seconds() {
    return seconds;
  }

  /** Pipelines with a true lag measured, as "measured/all". */
  String measuredOfHealthy() {
    return measured + "/" + withTrueLag;
  }

  boolean allHealthyMeasured() {
    return measured == withTrueLag;
  }

  long maxLagErrorMillis() {
    return maxLagErrorMillis;
  }

  int wrongRecordsLost() {
    return wrongRecordsLost;
  }

  int madeUp() {
    return madeUp;
  }

  /** The pipeline whose lag was furthest from the truth, and both. */
  String worstLag() {
    return worstLag;
  }

  /** The pipelines with a true lag that got none, with the reason. */
  List<String> unmeasured() {
    return unmeasured;
  }

  /** For each fault, what the round made of its first pipeline. */
  Map<Fault, String> faultOutcomes() {
    return faultOutcomes;
  }
}
