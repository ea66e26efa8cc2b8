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
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.kafka.KafkaClusters;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * The external observer: measures the pipelines of its shard once per round, without Spark and without any change to
 * them, so it still reports a pipeline that is stuck and commits nothing. Its parts, each in a file named after its
 * role: the round ({@link MeasurementRound}: workers, a deadline per pipeline, every fault contained), the schedule of
 * rounds ({@link RoundSchedule}, run by the command line {@code FreshnessReporterCli}), the Hudi tables kept across
 * rounds ({@link HudiTableCache}), the measurement of one pipeline ({@link PipelineMeasurement}) and what it publishes
 * about itself ({@link ReporterMetrics}).
 */
public final class FreshnessReporter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FreshnessReporter.class);

  /** Long enough for a pipeline whose tables answer slowly; far below S3A's own 200 s a try. */
  public static final Duration DEFAULT_PIPELINE_TIMEOUT = Duration.ofSeconds(30);

  private final LabelledFreshnessMetrics labelled = new LabelledFreshnessMetrics();
  private final TargetCheckpointMeasurement measurement;
  private final MeasurementRound round;
  private final ReporterMetrics self;
  private final PipelineShard shard;

  /** A reporter running once, with the default workers and deadline, over every pipeline. */
  public FreshnessReporter(Clock clock, Configuration hadoopConf, Map<String, String> metricsProperties,
                           int maxCommitDepth) {
    this(clock, hadoopConf, metricsProperties, maxCommitDepth, Settings.defaults());
  }

  /**
   * @param metricsProperties the {@code hoodie.metrics.*} settings of every pipeline's metrics
   * @param maxCommitDepth    the most target commits looked at to find a checkpoint
   * @throws IllegalArgumentException if {@code maxCommitDepth} is below 1, or a setting is out of range
   */
  public FreshnessReporter(Clock clock, Configuration hadoopConf, Map<String, String> metricsProperties,
                           int maxCommitDepth, Settings settings) {
    this(clock, hadoopConf, metricsProperties, maxCommitDepth, settings, KafkaClusters.withKafkaConsumers());
  }

  /**
   * @param kafka the clients of the Kafka sources' clusters, kept across rounds; closed with this reporter
   */
  public FreshnessReporter(Clock clock, Configuration hadoopConf, Map<String, String> metricsProperties,
                           int maxCommitDepth, Settings settings, KafkaClusters kafka) {
    checkArgument(maxCommitDepth >= 1, () -> "Cannot search " + maxCommitDepth + " commits for a checkpoint: search "
        + "at least 1 (--max-commit-depth)");
    this.measurement = new TargetCheckpointMeasurement(clock, hadoopConf,
        Objects.requireNonNull(metricsProperties, "metricsProperties"), maxCommitDepth, labelled,
        Objects.requireNonNull(kafka, "kafka"));
    this.round = new MeasurementRound(measurement, settings.workers, settings.pipelineTimeout, clock);
    this.self = new ReporterMetrics(settings.interval, round, kafka::reachableThisRound);
    this.shard = settings.shard;
  }

  /** The labelled metrics of the pipelines this reporter measured. */
  public LabelledFreshnessMetrics labelledMetrics() {
    return labelled;
  }

  /** What the reporter publishes about its rounds. */
  public ReporterMetrics reporterMetrics() {
    return self;
  }

  /**
   * Serves the pipelines' labelled metrics and the reporter's own over HTTP (path {@code /metrics}).
   *
   * @param port 0 for a free port
   * @return the running server; close it to stop
   */
  public HTTPServer serve(String host, int port) throws IOException {
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(labelled);
    registry.register(self);
    return HTTPServer.builder().hostname(host).port(port).registry(registry).buildAndStart();
  }

  /**
   * Measures the pipelines of this reporter's shard once. A pipeline that fails or passes its deadline gets no value
   * and is logged; a failure is counted in the pipeline's metrics, a timeout in the reporter's
   * ({@link ReporterMetrics#ROUND_PIPELINES}); the others are measured all the same.
   */
  public RoundReport runRound(List<PipelineSpec> pipelines) {
    List<PipelineSpec> measured = shard.select(pipelines);
    RoundReport report = round.run(measured);
    // Timed-out pipelines are counted once, here, not per pipeline: a store that stops answering raises one alert
    // (HudiFreshnessReporterPipelinesTimingOut), not one per pipeline it holds.
    self.roundDone(report);
    ReporterMetricsPush.push(measured, shard, self);
    LOG.info("Freshness {}", report);
    return report;
  }

  /** {@link #runRound}'s measurements, in order. */
  public List<PipelineFreshness> reportOnce(List<PipelineSpec> pipelines) {
    return runRound(pipelines).measured();
  }

  @Override
  public void close() {
    round.close();
    measurement.close();
  }

  /** How the reporter runs its rounds: immutable, each setting validated when the reporter starts. */
  public static final class Settings {
    private final int workers;
    private final Duration pipelineTimeout;
    private final PipelineShard shard;
    private final Duration interval;

    private Settings(int workers, Duration pipelineTimeout, PipelineShard shard, Duration interval) {
      this.workers = workers;
      this.pipelineTimeout = pipelineTimeout;
      this.shard = shard;
      this.interval = interval;
    }

    /** {@link WorkerPool#defaultSize} workers, {@link #DEFAULT_PIPELINE_TIMEOUT}, every pipeline, run once. */
    public static Settings defaults() {
      return new Settings(WorkerPool.defaultSize(), DEFAULT_PIPELINE_TIMEOUT, PipelineShard.ALL, Duration.ZERO);
    }

    public int workers() {
      return workers;
    }

    public Settings workers(int count) {
      return new Settings(count, pipelineTimeout, shard, interval);
    }

    public Settings pipelineTimeout(Duration timeout) {
      return new Settings(workers, timeout, shard, interval);
    }

    public Settings shard(PipelineShard value) {
      return new Settings(workers, pipelineTimeout, value, interval);
    }

    /** The time from one round's start to the next, published for the alert rules; zero when run once. */
    public Settings interval(Duration value) {
      return new Settings(workers, pipelineTimeout, shard, value);
    }
  }
}
