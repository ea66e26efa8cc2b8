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

import org.apache.hudi.utilities.freshness.LabelledFreshnessMetrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The reporter observed, as Prometheus observes its own scrapes: its rounds, published next to the pipelines' labelled
 * metrics (its {@code /metrics} endpoint, its pushgateway group). {@value #INTERVAL} lets the alert rules derive a
 * measurement's staleness from the configured cadence; {@value #LAST_COMPLETE_ROUND} and {@value #OVERRUNS}{@code _total}
 * show a reporter falling behind. {@value #KAFKA_CLUSTER_REACHABLE} (label {@code cluster}) lets the alert rules raise one
 * alert for a Kafka cluster that does not answer instead of one per pipeline reading it.
 */
public final class ReporterMetrics implements MultiCollector {

  public static final String INTERVAL = "hudi_freshness_reporter_interval_seconds";
  public static final String ROUND_DURATION = "hudi_freshness_reporter_round_duration_seconds";
  /** Label {@code outcome}: {@code measured}, {@code failed}, {@code timed_out}. */
  public static final String ROUND_PIPELINES = "hudi_freshness_reporter_round_pipelines";
  public static final String LAST_COMPLETE_ROUND = "hudi_freshness_reporter_last_complete_round_timestamp_seconds";
  /** Exposed with the suffix {@code _total}. */
  public static final String ROUNDS = "hudi_freshness_reporter_rounds";
  /** Exposed with the suffix {@code _total}. */
  public static final String OVERRUNS = "hudi_freshness_reporter_round_overruns";
  public static final String WORKERS = "hudi_freshness_reporter_workers";
  public static final String STUCK_WORKERS = "hudi_freshness_reporter_stuck_workers";
  /** Label {@code cluster}: 1 if the last round read the cluster's topics and offsets, 0 if it did not answer. */
  public static final String KAFKA_CLUSTER_REACHABLE = "hudi_freshness_kafka_cluster_reachable";

  private final Duration interval;
  private final MeasurementRound round;
  private final Supplier<Map<String, Boolean>> kafkaClusters;
  private RoundReport last;
  private long rounds;
  private long overruns;

  /**
   * @param interval      the configured time from one round's start to the next; zero when the reporter runs once
   * @param kafkaClusters whether each Kafka cluster of the last round answered, by name
   */
  ReporterMetrics(Duration interval, MeasurementRound round, Supplier<Map<String, Boolean>> kafkaClusters) {
    this.interval = interval;
    this.round = round;
    this.kafkaClusters = kafkaClusters;
  }

  synchronized void roundDone(RoundReport report) {
    last = report;
    rounds++;
  }

  /** The schedule's count of rounds that ran past the next round's start time. */
  public synchronized void overruns(long count) {
    overruns = count;
  }

  @Override
  public synchronized MetricSnapshots collect() {
    MetricSnapshots.Builder snapshots = MetricSnapshots.builder();
    if (!interval.isZero()) {
      snapshots.metricSnapshot(gauge(INTERVAL, "The configured time from one round's start to the next (--interval)",
          Unit.SECONDS, interval.toMillis() / 1000.0));
    }
    snapshots.metricSnapshot(gauge(WORKERS, "Workers measuring pipelines at the same time (--workers)", null,
        round.workers()));
    snapshots.metricSnapshot(gauge(STUCK_WORKERS, "Workers held by a measurement past its deadline (replaced in the "
        + "pool until it returns)", null, round.stuckWorkers()));
    snapshots.metricSnapshot(counter(ROUNDS, "Rounds completed", rounds));
    snapshots.metricSnapshot(counter(OVERRUNS, "Rounds that lasted past the next round's start time (that start "
        + "time was skipped)", overruns));
    if (last != null) {
      snapshots.metricSnapshot(gauge(ROUND_DURATION, "How long the last round took", Unit.SECONDS,
          last.duration().toMillis() / 1000.0));
      snapshots.metricSnapshot(gauge(LAST_COMPLETE_ROUND, "When the last round completed, in seconds since the epoch",
          Unit.SECONDS, last.startedAt().plus(last.duration()).toEpochMilli() / 1000.0));
      GaugeSnapshot.Builder pipelines = GaugeSnapshot.builder().name(ROUND_PIPELINES)
          .help("Pipelines of the last round by outcome: measured, failed, timed_out (past --pipeline-timeout)");
      for (PipelineOutcome.Kind kind : PipelineOutcome.Kind.values()) {
        pipelines.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
            .labels(Labels.of("outcome", kind.name().toLowerCase(Locale.ROOT))).value(last.count(kind)).build());
      }
      snapshots.metricSnapshot(pipelines.build());
    }
    GaugeSnapshot.Builder clusters = GaugeSnapshot.builder().name(KAFKA_CLUSTER_REACHABLE).help("1 if the last round "
        + "read the Kafka cluster's topics and offsets, 0 if it did not answer (down, unreachable, or refusing the "
        + "reporter's credentials)");
    kafkaClusters.get().forEach((cluster, answered) -> clusters.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
        .labels(Labels.of(LabelledFreshnessMetrics.CLUSTER_LABEL, cluster)).value(answered ? 1 : 0).build()));
    snapshots.metricSnapshot(clusters.build());
    return snapshots.build();
  }

  private static MetricSnapshot gauge(String name, String help, Unit unit, double value) {
    GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
    if (unit != null) {
      gauge.unit(unit);
    }
    return gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
  }

  private static MetricSnapshot counter(String name, String help, long value) {
    return CounterSnapshot.builder().name(name).help(help)
        .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value).build()).build();
  }
}
