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

package org.apache.hudi.utilities.freshness.hudi014;

import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.freshness.FreshnessMeter;
import org.apache.hudi.utilities.freshness.FreshnessRecorder;
import org.apache.hudi.utilities.freshness.FreshnessReporter;
import org.apache.hudi.utilities.freshness.FreshnessSink;
import org.apache.hudi.utilities.freshness.HistoryTable;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.ReporterConfig;

// The Hudi 0.14 bundles relocate JCommander; Hudi's own tools use it under this name.
import org.apache.hudi.com.beust.jcommander.JCommander;
import org.apache.hudi.com.beust.jcommander.Parameter;
import org.apache.hudi.com.beust.jcommander.ParameterException;

import org.apache.hadoop.conf.Configuration;

import java.io.PrintStream;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The standalone freshness reporter: watches many pipelines listed in a YAML file, needs no change to them and no
 * Spark, and still reports when a pipeline is stuck and commits nothing.
 *
 * <pre>
 * java -cp &lt;Hudi bundles, Spark's jars, this plugin&gt; \
 *   org.apache.hudi.utilities.freshness.hudi014.FreshnessReporterCli --config freshness.yaml [--interval 60]
 * </pre>
 */
public final class FreshnessReporterCli {

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

    @Parameter(names = {"--help", "-h"}, help = true)
    boolean help = false;
  }

  private FreshnessReporterCli() {
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out, Clock.systemUTC(), new Configuration()));
  }

  /**
   * @return 0 when every pipeline was measured (or its history printed), 1 when one failed, 2 on bad arguments
   */
  static int run(String[] args, PrintStream out, Clock clock, Configuration hadoopConf) throws Exception {
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
    Map<String, FreshnessSink> sinks = new HashMap<>();
    FreshnessReporter reporter = new FreshnessReporter(new HudiTargetTimeline(hadoopConf),
        new FreshnessRecorder(new FreshnessMeter(clock, new HudiQueueProbes(hadoopConf)), hadoopConf),
        pipeline -> sinks.computeIfAbsent(pipeline.name(), name -> sink(pipeline, config.metricsProperties())),
        options.maxCommitDepth);
    int exitCode = 0;
    for (long round = 1; ; round++) {
      List<PipelineFreshness> measured = reporter.reportOnce(config.pipelines());
      out.print(HistoryTable.formatMeasurements(measured));
      exitCode = measured.size() == config.pipelines().size() ? 0 : 1;
      if (options.intervalSeconds <= 0 || (options.rounds > 0 && round >= options.rounds)) {
        return exitCode;
      }
      Thread.sleep(options.intervalSeconds * 1000L);
    }
  }

  private static FreshnessSink sink(PipelineSpec pipeline, Map<String, String> metricsProperties) {
    return HudiMetricsSink.of(HoodieWriteConfig.newBuilder().withPath(pipeline.basePath()).forTable(pipeline.name())
        .withProps(metricsProperties).build(), true);
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
