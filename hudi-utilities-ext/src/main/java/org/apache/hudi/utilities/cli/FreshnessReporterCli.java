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

package org.apache.hudi.utilities.cli;

// The Hudi 0.14 bundles relocate JCommander; Hudi's own tools use it under this name.
import org.apache.hudi.com.beust.jcommander.Parameter;
import org.apache.hudi.com.beust.jcommander.ParametersDelegate;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.freshness.CheckpointInLog;
import org.apache.hudi.utilities.freshness.FreshnessChart;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.freshness.HistoryTable;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.ReporterConfig;
import org.apache.hudi.utilities.freshness.RetentionHeadroom;
import org.apache.hudi.utilities.freshness.SourceFreshness;
import org.apache.hudi.utilities.reporter.FreshnessReporter;
import org.apache.hudi.utilities.reporter.PipelineShard;
import org.apache.hudi.utilities.reporter.RoundReport;
import org.apache.hudi.utilities.reporter.RoundSchedule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The standalone freshness reporter: watches many pipelines listed in a YAML file ({@link ReporterConfig}), needs no
 * change to them and no Spark, and still reports when a pipeline is stuck and commits nothing.
 *
 * <pre>
 * java -cp &lt;Hudi bundles, Spark's jars, this plugin&gt; \
 *   org.apache.hudi.utilities.cli.FreshnessReporterCli --config freshness.yaml [--interval 60]
 * </pre>
 *
 * <p>Options: {@code --config}, {@code --max-commit-depth} (default 100), {@code --interval} seconds (start to start),
 * {@code --rounds}, {@code --workers}, {@code --pipeline-timeout} seconds, {@code --shard-index} and
 * {@code --shard-count},
 * {@code --history}, {@code --history-limit}, {@code --chart} (a PNG of one pipeline's history, with
 * {@code --chart-pipeline}, {@code --chart-width}, {@code --chart-height}), {@code --http-port} and {@code --http-host}
 * (serve the labelled metrics for Prometheus), {@code --output json} (each round's measurements as a JSON document).
 * Each round is measured by {@link FreshnessReporter}.
 */
public final class FreshnessReporterCli {

  /** Command line options. */
  static final class Options {
    @Parameter(names = "--config", required = true, description = "YAML file listing the pipelines (any Hadoop path)")
    String config;

    @Parameter(names = "--max-commit-depth", description = "Most target commits looked at, newest first, to find "
        + "the one holding the Streamer checkpoint")
    int maxCommitDepth = 100;

    @Parameter(names = "--interval", description = "Seconds from the start of one round to the start of the next "
        + "(a fixed rate: a round that lasts longer skips the start times it ran past and counts an overrun); 0 runs "
        + "once")
    long intervalSeconds = 0;

    @Parameter(names = "--workers", description = "Pipelines measured at the same time; by default 4 per processor, "
        + "at least 8 (the work waits on storage and brokers)")
    int workers = FreshnessReporter.Settings.defaults().workers();

    @Parameter(names = "--pipeline-timeout", description = "Seconds one pipeline's measurement may take; past it the "
        + "pipeline gets no value this round and counts as timed out")
    long pipelineTimeoutSeconds = FreshnessReporter.DEFAULT_PIPELINE_TIMEOUT.getSeconds();

    @Parameter(names = "--shard-index", description = "Which shard of the pipelines this reporter measures, from 0 "
        + "to --shard-count - 1 (by the CRC32 of the pipeline's name)")
    int shardIndex = 0;

    @Parameter(names = "--shard-count", description = "Reporters sharing the pipelines of the config; each measures "
        + "its --shard-index, together every pipeline exactly once")
    int shardCount = 1;

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

    @ParametersDelegate
    CommandLine.OutputOption output = new CommandLine.OutputOption();
  }

  private FreshnessReporterCli() {
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args, CommandLine.claimStdout(), System.err, Clock.systemUTC(), new Configuration()));
  }

  /**
   * Runs the reporter as its command line asks: measurements, history and notices to {@code out}, what went wrong to
   * {@code err}.
   *
   * @return 0 when every pipeline was measured (or its history printed), 1 when one failed, 2 on bad arguments
   */
  public static int run(String[] args, PrintStream out, PrintStream err, Clock clock, Configuration hadoopConf)
      throws Exception {
    Options options = new Options();
    Option<Integer> stop = CommandLine.parse("freshness-reporter", "start the freshness reporter", options, args, out,
        err);
    if (stop.isPresent()) {
      return stop.get();
    }
    ReporterConfig config;
    PipelineSpec chartPipeline = null;
    CommandLine.OutputFormat format;
    try {
      format = options.output.format("start the freshness reporter");
      config = ReporterConfig.read(options.config, hadoopConf);
      if (options.chart != null) {
        chartPipeline = chartPipeline(config.pipelines(), options.chartPipeline);
      }
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return CommandLine.BAD_ARGUMENTS;
    } catch (IOException e) {
      err.println("Cannot start the freshness reporter: cannot read --config " + options.config + " (" + e + ")");
      return CommandLine.BAD_ARGUMENTS;
    }
    if (options.history) {
      return printHistory(config.pipelines(), options.historyLimit, out, hadoopConf);
    }
    if (chartPipeline != null) {
      return drawChart(chartPipeline, options, out, err, hadoopConf);
    }
    FreshnessReporter reporter;
    RoundSchedule schedule;
    try {
      reporter = new FreshnessReporter(clock, hadoopConf, config.metricsProperties(), options.maxCommitDepth,
          FreshnessReporter.Settings.defaults().workers(options.workers)
              .pipelineTimeout(Duration.ofSeconds(options.pipelineTimeoutSeconds))
              .shard(PipelineShard.of(options.shardIndex, options.shardCount))
              .interval(Duration.ofSeconds(Math.max(0, options.intervalSeconds))));
      schedule = options.intervalSeconds > 0
          ? new RoundSchedule(Duration.ofSeconds(options.intervalSeconds), clock, RoundSchedule.Sleeper.THREAD) : null;
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return CommandLine.BAD_ARGUMENTS;
    }
    HTTPServer server = options.httpPort == null ? null : reporter.serve(options.httpHost, options.httpPort);
    if (server != null) {
      // A notice, not a measurement: with --output json it stays off the documents.
      (format == CommandLine.OutputFormat.JSON ? err : out).println("Serving the labelled freshness metrics on http://"
          + options.httpHost + ":" + server.getPort() + "/metrics");
    }
    try {
      for (long round = 1; ; round++) {
        if (schedule != null) {
          schedule.awaitNextRound();
          reporter.reporterMetrics().overruns(schedule.overruns());
        }
        RoundReport report = reporter.runRound(config.pipelines());
        List<PipelineFreshness> measured = report.measured();
        if (format == CommandLine.OutputFormat.JSON) {
          CommandLine.printJson(measurementsJson(measured), out);
        } else {
          out.print(HistoryTable.formatMeasurements(measured));
        }
        int exitCode = measured.size() == report.outcomes().size() ? CommandLine.SUCCESS : CommandLine.FAILURE;
        if (schedule == null || (options.rounds > 0 && round >= options.rounds)) {
          return exitCode;
        }
      }
    } finally {
      if (server != null) {
        server.close();
      }
      reporter.close();
    }
  }

  /** One round's measurements, a document per round: the fields of the history table, snake_case, lags in seconds. */
  private static ObjectNode measurementsJson(List<PipelineFreshness> measured) {
    ObjectNode document = CommandLine.newJsonDocument();
    ArrayNode pipelines = document.putArray("pipelines");
    for (PipelineFreshness pipeline : measured) {
      ObjectNode node = pipelines.addObject();
      node.put("pipeline", pipeline.pipeline());
      node.put("base_path", pipeline.basePath());
      node.put("observer", pipeline.observer().name());
      node.put("measured_at", pipeline.measuredAt().toString());
      node.put("commit", pipeline.checkpoint().commit().orElse(null));
      node.put("checkpoint", pipeline.checkpoint().checkpoint().orElse(null));
      node.put("max_lag_seconds", pipeline.maxLag().map(CommandLine::seconds).orElse(null));
      ArrayNode sources = node.putArray("sources");
      for (SourceFreshness source : pipeline.sources()) {
        ObjectNode sourceNode = sources.addObject();
        sourceNode.put("source", source.source());
        sourceNode.put("kind", source.kind().name());
        sourceNode.put("state", source.state().name());
        sourceNode.put("status", source.status().name());
        sourceNode.put("position", source.position().orElse(null));
        sourceNode.put("lag_seconds", source.lag().map(CommandLine::seconds).orElse(null));
        sourceNode.put("pending", source.pending().isPresent() ? source.pending().getAsLong() : null);
        sourceNode.put("retention_headroom_commits", source.headroom().map(RetentionHeadroom::commits).orElse(null));
        sourceNode.put("retention_headroom_seconds",
            source.headroom().map(headroom -> CommandLine.seconds(headroom.time())).orElse(null));
        sourceNode.put("records_lost", source.checkpointInLog().map(CheckpointInLog::recordsLost).orElse(null));
        sourceNode.put("checkpoint_ahead_of_log_offsets",
            source.checkpointInLog().map(CheckpointInLog::offsetsAheadOfLog).orElse(null));
        sourceNode.put("reason", source.reason().orElse(null));
      }
    }
    return document;
  }

  private static int drawChart(PipelineSpec pipeline, Options options, PrintStream out, PrintStream err,
                               Configuration hadoopConf) throws Exception {
    if (!pipeline.historyPath().isPresent()) {
      err.println("Cannot draw the freshness chart of pipeline '" + pipeline.name() + "': its history is off (set "
          + "hoodie.streamer.freshness.history.enable: true)");
      return CommandLine.FAILURE;
    }
    List<JsonNode> entries = FreshnessHistory.open(pipeline.historyPath().get(), pipeline.historyMaxEntries(),
        hadoopConf).newest(options.historyLimit);
    Path file = new Path(options.chart);
    try (OutputStream png = file.getFileSystem(hadoopConf).create(file, true)) {
      FreshnessChart.writePng(pipeline.name(), entries, pipeline.policy().sla(), options.chartWidth,
          options.chartHeight, png);
    }
    out.println("Drew " + entries.size() + " history entries of pipeline '" + pipeline.name() + "' to " + file);
    return CommandLine.SUCCESS;
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
    return CommandLine.SUCCESS;
  }
}
