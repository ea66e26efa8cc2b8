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

package org.apache.hudi.utilities.hudi014;

import com.fasterxml.jackson.databind.JsonNode;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
// The Hudi 0.14 bundles relocate JCommander; Hudi's own tools use it under this name.
import org.apache.hudi.com.beust.jcommander.JCommander;
import org.apache.hudi.com.beust.jcommander.Parameter;
import org.apache.hudi.com.beust.jcommander.ParameterException;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.freshness.FreshnessChart;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.freshness.HistoryTable;
import org.apache.hudi.utilities.freshness.LabelledFreshnessMetrics;
import org.apache.hudi.utilities.freshness.LabelledMetricsPush;
import org.apache.hudi.utilities.freshness.Observer;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.ReporterConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The external observer, on Hudi 0.14: finds each pipeline's checkpoint in its target's timeline
 * ({@link StoredCheckpointReader}, bounded by {@code --max-commit-depth}) and records the freshness of its sources. It
 * needs nothing from the pipelines, so it still reports when a pipeline is stuck and commits nothing. {@link #run} is
 * the body of {@code FreshnessReporterCli}.
 */
public final class FreshnessReporter {

  private static final Logger LOG = LoggerFactory.getLogger(FreshnessReporter.class);

  /** Command line options. */
  static final class Options {
    @Parameter(names = "--config", required = true, description = "YAML file listing the pipelines (any Hadoop path)")
    String config;

    @Parameter(names = "--max-commit-depth", description = "Most target commits looked at, newest first, to find "
        + "the one holding the Streamer checkpoint")
    int maxCommitDepth = 100;

    @Parameter(names = "--interval", description = "Seconds between runs; 0 runs once")
    long intervalSeconds = 0;

    @Parameter(names = "--rounds", description = "Runs to do with --interval; 0 runs until stopped")
    long rounds = 0;

    @Parameter(names = "--history", description = "Print each pipeline's freshness history as a table and exit")
    boolean history = false;

    @Parameter(names = "--history-limit", description = "Newest history entries printed per pipeline")
    int historyLimit = 20;

    @Parameter(names = "--chart", description = "Draw a pipeline's freshness history (lag per source over time and "
        + "the SLA line, newest --history-limit entries) as a PNG to this path (any Hadoop path) and exit")
    String chart;

    @Parameter(names = "--chart-pipeline", description = "The pipeline to draw with --chart; needed when the config "
        + "lists more than one")
    String chartPipeline;

    @Parameter(names = "--chart-width", description = "Width of the --chart PNG in pixels")
    int chartWidth = 1200;

    @Parameter(names = "--chart-height", description = "Height of the --chart PNG in pixels")
    int chartHeight = 600;

    @Parameter(names = "--http-port", description = "Serve the labelled metrics for Prometheus to scrape on this port "
        + "(path /metrics) while the reporter runs; 0 picks a free port; unset serves nothing")
    Integer httpPort;

    @Parameter(names = "--http-host", description = "Address the metrics endpoint binds to")
    String httpHost = "0.0.0.0";

    @Parameter(names = {"--help", "-h"}, help = true)
    boolean help = false;
  }

  private final StoredCheckpointReader checkpoints;
  private final FreshnessRecorder recorder;
  private final Map<String, String> metricsProperties;
  private final Map<String, FreshnessMetrics> metrics = new HashMap<>();
  private final LabelledFreshnessMetrics labelled = new LabelledFreshnessMetrics();
  private final int maxCommitDepth;

  /**
   * @param metricsProperties the {@code hoodie.metrics.*} settings of every pipeline's metrics
   * @param maxCommitDepth    the most target commits looked at to find a checkpoint
   * @throws IllegalArgumentException if {@code maxCommitDepth} is below 1
   */
  public FreshnessReporter(Clock clock, Configuration hadoopConf, Map<String, String> metricsProperties,
                           int maxCommitDepth) {
    if (maxCommitDepth < 1) {
      throw new IllegalArgumentException("Cannot search " + maxCommitDepth + " commits for a checkpoint: search at "
          + "least 1 (--max-commit-depth)");
    }
    this.checkpoints = new StoredCheckpointReader(hadoopConf);
    this.recorder = new FreshnessRecorder(clock, hadoopConf, labelled);
    this.metricsProperties = Objects.requireNonNull(metricsProperties, "metricsProperties");
    this.maxCommitDepth = maxCommitDepth;
  }

  /**
   * Runs the reporter as its command line asks.
   *
   * @return 0 when every pipeline was measured (or its history printed), 1 when one failed, 2 on bad arguments
   */
  public static int run(String[] args, PrintStream out, Clock clock, Configuration hadoopConf) throws Exception {
    Options options = new Options();
    JCommander commander = JCommander.newBuilder().addObject(options).programName("freshness-reporter").build();
    try {
      commander.parse(args);
    } catch (ParameterException e) {
      out.println("Cannot start the freshness reporter: " + e.getMessage() + " (see --help)");
      return 2;
    }
    if (options.help) {
      commander.usage();
      return 0;
    }
    ReporterConfig config = ReporterConfig.read(options.config, hadoopConf);
    if (options.history) {
      return printHistory(config.pipelines(), options.historyLimit, out, hadoopConf);
    }
    if (options.chart != null) {
      return drawChart(config.pipelines(), options, out, hadoopConf);
    }
    FreshnessReporter reporter = new FreshnessReporter(clock, hadoopConf, config.metricsProperties(),
        options.maxCommitDepth);
    HTTPServer server = options.httpPort == null ? null : reporter.serve(options.httpHost, options.httpPort);
    if (server != null) {
      out.println("Serving the labelled freshness metrics on http://" + options.httpHost + ":" + server.getPort()
          + "/metrics");
    }
    try {
      for (long round = 1; ; round++) {
        List<PipelineFreshness> measured = reporter.reportOnce(config.pipelines());
        out.print(HistoryTable.formatMeasurements(measured));
        int exitCode = measured.size() == config.pipelines().size() ? 0 : 1;
        if (options.intervalSeconds <= 0 || (options.rounds > 0 && round >= options.rounds)) {
          return exitCode;
        }
        Thread.sleep(options.intervalSeconds * 1000L);
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  /**
   * Serves this reporter's labelled metrics over HTTP, for Prometheus to scrape without a pushgateway.
   *
   * @param port 0 for a free port
   * @return the running server; close it to stop
   */
  public HTTPServer serve(String host, int port) throws IOException {
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(labelled);
    return HTTPServer.builder().hostname(host).port(port).registry(registry).buildAndStart();
  }

  /** The labelled metrics of the pipelines this reporter measured. */
  public LabelledFreshnessMetrics labelledMetrics() {
    return labelled;
  }

  /**
   * Measures every pipeline once. A pipeline that fails is logged and counted in its metrics; the others go on.
   *
   * @return the measurements of the pipelines that did not fail, in order
   */
  public List<PipelineFreshness> reportOnce(List<PipelineSpec> pipelines) {
    List<PipelineFreshness> measured = new ArrayList<>();
    for (PipelineSpec pipeline : pipelines) {
      FreshnessMetrics pipelineMetrics = metrics.computeIfAbsent(pipeline.name(),
          name -> FreshnessMetrics.ofReporter(pipeline, metricsProperties));
      try {
        StoredCheckpoint stored = checkpoints.newest(pipeline.basePath(), maxCommitDepth);
        if (!stored.checkpoint().isPresent()) {
          LOG.warn("Found no checkpoint in the newest {} commits of pipeline '{}' at {}: its sources have no value",
              stored.commitsSearched(), pipeline.name(), pipeline.basePath());
        }
        measured.add(recorder.record(pipeline, stored, Observer.REPORTER, pipelineMetrics));
      } catch (Exception e) {
        LOG.error("Cannot report the freshness of pipeline '{}' at {}", pipeline.name(), pipeline.basePath(), e);
        pipelineMetrics.countFailure(pipeline.name());
        labelled.countFailure(pipeline.name());
        LabelledMetricsPush.push(pipeline, Observer.REPORTER, labelled);
      }
    }
    return measured;
  }

  private static int drawChart(List<PipelineSpec> pipelines, Options options, PrintStream out,
                               Configuration hadoopConf) throws Exception {
    PipelineSpec pipeline = chartPipeline(pipelines, options.chartPipeline);
    if (!pipeline.historyPath().isPresent()) {
      out.println("Cannot draw the freshness chart of pipeline '" + pipeline.name() + "': its history is off (set "
          + "hoodie.streamer.freshness.history.enable: true)");
      return 1;
    }
    List<JsonNode> entries = FreshnessHistory.open(pipeline.historyPath().get(), pipeline.historyMaxEntries(),
        hadoopConf).newest(options.historyLimit);
    Path file = new Path(options.chart);
    try (OutputStream png = file.getFileSystem(hadoopConf).create(file, true)) {
      FreshnessChart.writePng(pipeline.name(), entries, pipeline.policy().sla(), options.chartWidth,
          options.chartHeight, png);
    }
    out.println("Drew " + entries.size() + " history entries of pipeline '" + pipeline.name() + "' to " + file);
    return 0;
  }

  private static PipelineSpec chartPipeline(List<PipelineSpec> pipelines, String name) {
    if (name == null) {
      if (pipelines.size() > 1) {
        throw new IllegalArgumentException("Cannot choose the pipeline to draw: the config lists "
            + pipelines.stream().map(PipelineSpec::name).collect(Collectors.toList()) + " (name one with "
            + "--chart-pipeline)");
      }
      return pipelines.get(0);
    }
    return pipelines.stream().filter(pipeline -> pipeline.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("Cannot draw pipeline '" + name + "': the config lists "
            + pipelines.stream().map(PipelineSpec::name).collect(Collectors.toList()) + " only (--chart-pipeline)"));
  }

  private static int printHistory(List<PipelineSpec> pipelines, int limit, PrintStream out, Configuration hadoopConf)
      throws Exception {
    for (PipelineSpec pipeline : pipelines) {
      out.println("== " + pipeline.name() + " (" + pipeline.basePath() + ")");
      if (pipeline.historyPath().isPresent()) {
        out.print(HistoryTable.format(FreshnessHistory.open(pipeline.historyPath().get(),
            pipeline.historyMaxEntries(), hadoopConf).newest(limit)));
      } else {
        out.println("(history is off)");
      }
    }
    return 0;
  }
}
