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

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The freshness metrics in Prometheus' model: one name per measure, the pipeline and the source as labels, doubles.
 * Holds the newest measurement of each pipeline and the counts; every scrape or push builds the series from them, so
 * a value that is not known has no series (never a made-up 0) and a known 0 is always reported.
 *
 * <p>Per source, labels {@code pipeline}, {@code source}, {@code source_kind} ({@code hudi} or {@code kafka}):
 * {@value #LAG}, {@value #RAW_LAG}, {@value #SLA_RATIO}, {@value #PENDING_INSTANTS} (Hudi sources),
 * {@value #OFFSET_LAG} (Kafka sources), {@value #RETENTION_HEADROOM_COMMITS} and {@value #RETENTION_HEADROOM} (Hudi
 * sources whose retention bounds the position, see {@link RetentionHeadroom}), and {@value #STATUS} with a {@code status} label, 1 for the source's
 * {@link SourceStatus} and 0 for the others. Per pipeline, label {@code pipeline}: {@value #SLA},
 * {@value #UNREADABLE_SOURCES}, {@value #CHECKPOINT_SEARCH_DEPTH} (reporter only), {@value #LAST_MEASUREMENT},
 * {@value #MEASUREMENTS}{@code _total} and {@value #FAILURES}{@code _total}.
 *
 * <p>A Kafka source's series also carry its cluster (label {@value #CLUSTER_LABEL},
 * {@link PipelineSpec#kafkaCluster()}), so that the alert rules can leave out the sources of a cluster the reporter
 * cannot reach. Every series of a pipeline with extra labels ({@link PipelineSpec#labels()}) carries them too; a
 * pipeline without has none. A family's series may differ in their label names (Prometheus' text format and the
 * pushgateway allow it, and Prometheus reads a missing label as an empty one), so no label is filled in for the
 * pipelines that lack it.
 */
public final class LabelledFreshnessMetrics implements MultiCollector {

  public static final String LAG = "hudi_freshness_lag_seconds";
  public static final String RAW_LAG = "hudi_freshness_raw_lag_seconds";
  public static final String SLA_RATIO = "hudi_freshness_sla_ratio";
  public static final String PENDING_INSTANTS = "hudi_freshness_pending_instants";
  public static final String OFFSET_LAG = "hudi_freshness_offset_lag";
  public static final String STATUS = "hudi_freshness_status";
  public static final String RETENTION_HEADROOM_COMMITS = "hudi_freshness_retention_headroom_commits";
  public static final String RETENTION_HEADROOM = "hudi_freshness_retention_headroom_seconds";
  public static final String RECORDS_LOST = "hudi_freshness_records_lost";
  public static final String CHECKPOINT_AHEAD_OF_LOG = "hudi_freshness_checkpoint_ahead_of_log_offsets";
  public static final String SLA = "hudi_freshness_sla_seconds";
  public static final String UNREADABLE_SOURCES = "hudi_freshness_unreadable_sources";
  public static final String CHECKPOINT_SEARCH_DEPTH = "hudi_freshness_checkpoint_search_depth";
  public static final String LAST_MEASUREMENT = "hudi_freshness_last_measurement_timestamp_seconds";
  /** Exposed with the suffix {@code _total}. */
  public static final String MEASUREMENTS = "hudi_freshness_measurements";
  /** Exposed with the suffix {@code _total}. */
  public static final String FAILURES = "hudi_freshness_failures";

  public static final String PIPELINE_LABEL = "pipeline";
  public static final String SOURCE_LABEL = "source";
  public static final String SOURCE_KIND_LABEL = "source_kind";
  public static final String STATUS_LABEL = "status";
  /** Kafka sources: the name of their cluster. */
  public static final String CLUSTER_LABEL = "cluster";

  /** The metrics of this process: the commit callback is re-created with each write client, its counts are not. */
  private static final LabelledFreshnessMetrics PROCESS = new LabelledFreshnessMetrics();

  private final ConcurrentMap<String, PipelineFreshness> latest = new ConcurrentHashMap<>();
  /** The newest settings of each pipeline: its SLA, labels and Kafka cluster. */
  private final ConcurrentMap<String, PipelineSpec> specs = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, AtomicLong> measurements = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, AtomicLong> failures = new ConcurrentHashMap<>();
  private final Predicate<String> pipelines;
  private final LabelledFreshnessMetrics all;

  /** Empty metrics of their own, for a reporter or a test. */
  public LabelledFreshnessMetrics() {
    this.pipelines = pipeline -> true;
    this.all = this;
  }

  private LabelledFreshnessMetrics(LabelledFreshnessMetrics all, String pipeline) {
    this.pipelines = pipeline::equals;
    this.all = all;
  }

  /** The metrics of this process, shared by every commit callback in it. */
  public static LabelledFreshnessMetrics process() {
    return PROCESS;
  }

  /** Replaces the pipeline's values with this measurement's and counts it. */
  public void update(PipelineSpec pipeline, PipelineFreshness freshness) {
    // The settings first: a concurrent scrape labels every measurement it sees with them.
    all.specs.put(freshness.pipeline(), pipeline);
    all.latest.put(freshness.pipeline(), freshness);
    all.measurements.computeIfAbsent(freshness.pipeline(), name -> new AtomicLong()).incrementAndGet();
    // A counter is reported from its first 0, so that increase() sees the first failure.
    all.failures.computeIfAbsent(freshness.pipeline(), name -> new AtomicLong());
  }

  /** Counts a measurement of the pipeline that failed as a whole; its last values stay. */
  public void countFailure(PipelineSpec pipeline) {
    all.specs.put(pipeline.name(), pipeline);
    all.failures.computeIfAbsent(pipeline.name(), name -> new AtomicLong()).incrementAndGet();
  }

  /** The same metrics restricted to one pipeline: what is pushed to the pushgateway under that pipeline's group. */
  public MultiCollector of(String pipeline) {
    return new LabelledFreshnessMetrics(all, pipeline);
  }

  /**
   * Serves these metrics over HTTP (path {@code /metrics}), for Prometheus to scrape without a pushgateway.
   *
   * @param port 0 for a free port
   * @return the running server; close it to stop
   */
  public HTTPServer serve(String host, int port) throws IOException {
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(this);
    return HTTPServer.builder().hostname(host).port(port).registry(registry).buildAndStart();
  }

  @Override
  public MetricSnapshots collect() {
    List<PipelineFreshness> measured = new ArrayList<>();
    all.latest.forEach((pipeline, freshness) -> {
      if (pipelines.test(pipeline)) {
        measured.add(freshness);
      }
    });
    MetricSnapshots.Builder snapshots = MetricSnapshots.builder();
    snapshots.metricSnapshot(sourceGauge(measured, LAG, "Seconds the oldest data not yet committed has waited, "
        + "floored at 0 and capped", Unit.SECONDS, (source, put) ->
        source.lag().ifPresent(lag -> put.accept(Labels.EMPTY, seconds(lag)))));
    snapshots.metricSnapshot(sourceGauge(measured, RAW_LAG, "Lag before flooring and capping; negative means the "
        + "observer's clock is behind the data's", Unit.SECONDS, (source, put) ->
        source.rawLag().ifPresent(raw -> put.accept(Labels.EMPTY, seconds(raw)))));
    snapshots.metricSnapshot(sourceGauge(measured, SLA_RATIO, "Lag divided by the SLA, clamped to 0-1", null,
        (source, put) -> source.slaRatio().ifPresent(ratio -> put.accept(Labels.EMPTY, ratio))));
    snapshots.metricSnapshot(sourceGauge(measured, PENDING_INSTANTS, "Completed instants of a Hudi source waiting "
        + "after the checkpoint", null, pending(SourceKind.HUDI)));
    snapshots.metricSnapshot(sourceGauge(measured, OFFSET_LAG, "Records of a Kafka source waiting after the "
        + "checkpoint, over all partitions", null, pending(SourceKind.KAFKA)));
    snapshots.metricSnapshot(sourceGauge(measured, RETENTION_HEADROOM_COMMITS, "Completed commits from the earliest "
        + "instant the source's cleaner and archival retain up to the checkpoint; at 0 the next clean may remove "
        + "unread data", null, (source, put) ->
        source.headroom().ifPresent(headroom -> put.accept(Labels.EMPTY, (double) headroom.commits()))));
    snapshots.metricSnapshot(sourceGauge(measured, RETENTION_HEADROOM, "Time from the earliest instant the source "
        + "retains to the checkpoint; negative once retention has passed it", Unit.SECONDS, (source, put) ->
        source.headroom().ifPresent(headroom -> put.accept(Labels.EMPTY, seconds(headroom.time())))));
    snapshots.metricSnapshot(sourceGauge(measured, RECORDS_LOST, "Records of a Kafka source that retention removed "
        + "below the checkpoint before the pipeline read them: data loss", null, (source, put) ->
        source.checkpointInLog().ifPresent(inLog -> put.accept(Labels.EMPTY, (double) inLog.recordsLost()))));
    snapshots.metricSnapshot(sourceGauge(measured, CHECKPOINT_AHEAD_OF_LOG, "Offsets by which a Kafka source's "
        + "checkpoint is past the end of its log (topic recreated or truncated); the lag is then unknown", null,
        (source, put) -> source.checkpointInLog().ifPresent(inLog ->
            put.accept(Labels.EMPTY, (double) inLog.offsetsAheadOfLog()))));
    snapshots.metricSnapshot(sourceGauge(measured, STATUS, "1 for the source's status (OK, LAGGING, STALLED, IDLE, "
        + "NO_DATA), 0 for the others", null, (source, put) -> {
          for (SourceStatus status : SourceStatus.values()) {
            put.accept(Labels.of(STATUS_LABEL, status.name()), status == source.status() ? 1.0 : 0.0);
          }
        }));
    snapshots.metricSnapshot(pipelineGauge(measured, SLA, "The pipeline's freshness SLA", Unit.SECONDS,
        freshness -> seconds(all.specs.get(freshness.pipeline()).policy().sla())));
    snapshots.metricSnapshot(pipelineGauge(measured, UNREADABLE_SOURCES, "Sources that could not be read in the "
        + "last measurement", null, freshness -> (double) freshness.unreadableSources()));
    GaugeSnapshot.Builder depth = GaugeSnapshot.builder().name(CHECKPOINT_SEARCH_DEPTH)
        .help("Commits the reporter looked at to find the checkpoint");
    for (PipelineFreshness freshness : measured) {
      freshness.searchDepth().ifPresent(value -> depth.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
          .labels(pipelineLabels(freshness.pipeline())).value(value).build()));
    }
    snapshots.metricSnapshot(depth.build());
    snapshots.metricSnapshot(pipelineGauge(measured, LAST_MEASUREMENT, "When the last measurement was taken, "
        + "in seconds since the epoch", Unit.SECONDS, freshness -> freshness.measuredAt().toEpochMilli() / 1000.0));
    snapshots.metricSnapshot(counter(MEASUREMENTS, "Measurements taken", all.measurements));
    snapshots.metricSnapshot(counter(FAILURES, "Measurements that failed as a whole", all.failures));
    return snapshots.build();
  }

  private static BiConsumer<SourceFreshness, BiConsumer<Labels, Double>> pending(SourceKind kind) {
    return (source, put) -> {
      if (source.kind() == kind) {
        source.pending().ifPresent(pending -> put.accept(Labels.EMPTY, (double) pending));
      }
    };
  }

  private MetricSnapshot sourceGauge(List<PipelineFreshness> measured, String name, String help, Unit unit,
                                     BiConsumer<SourceFreshness, BiConsumer<Labels, Double>> values) {
    GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
    if (unit != null) {
      gauge.unit(unit);
    }
    for (PipelineFreshness freshness : measured) {
      for (SourceFreshness source : freshness.sources()) {
        Labels labels = pipelineLabels(freshness.pipeline()).merge(sourceLabels(freshness.pipeline(), source));
        values.accept(source, (extra, value) -> gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
            .labels(labels.merge(extra)).value(value).build()));
      }
    }
    return gauge.build();
  }

  private MetricSnapshot pipelineGauge(List<PipelineFreshness> measured, String name, String help, Unit unit,
                                       Function<PipelineFreshness, Double> value) {
    GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
    if (unit != null) {
      gauge.unit(unit);
    }
    for (PipelineFreshness freshness : measured) {
      gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(pipelineLabels(freshness.pipeline()))
          .value(value.apply(freshness)).build());
    }
    return gauge.build();
  }

  private MetricSnapshot counter(String name, String help, Map<String, AtomicLong> counts) {
    CounterSnapshot.Builder counter = CounterSnapshot.builder().name(name).help(help);
    counts.forEach((pipeline, count) -> {
      if (pipelines.test(pipeline)) {
        counter.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(pipelineLabels(pipeline))
            .value(count.get()).build());
      }
    });
    return counter.build();
  }

  /** The labels of a source, besides its pipeline's: its name, its kind, and a Kafka source's cluster. */
  private Labels sourceLabels(String pipeline, SourceFreshness source) {
    Labels labels = Labels.of(SOURCE_LABEL, source.source(), SOURCE_KIND_LABEL,
        source.kind().name().toLowerCase(java.util.Locale.ROOT));
    return source.kind() == SourceKind.KAFKA
        ? labels.add(CLUSTER_LABEL, all.specs.get(pipeline).kafkaCluster().get()) : labels;
  }

  /** The labels of every series of a pipeline: its name and its extra labels. */
  private Labels pipelineLabels(String pipeline) {
    return Labels.of(PIPELINE_LABEL, pipeline).merge(all.specs.get(pipeline).labels().prometheus());
  }

  private static double seconds(Duration duration) {
    return duration.toMillis() / 1000.0;
  }
}
