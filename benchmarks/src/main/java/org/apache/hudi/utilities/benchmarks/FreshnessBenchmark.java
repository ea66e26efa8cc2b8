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

import org.apache.hudi.callback.common.HoodieWriteCommitCallbackMessage;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.callback.FreshnessCommitCallback;
import org.apache.hudi.utilities.config.HoodieFreshnessConfig;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.freshness.FreshnessState;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.StreamerPipelineSpec;
import org.apache.hudi.utilities.reporter.FreshnessReporter;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;
import org.apache.hudi.utilities.streamer.HoodieStreamer;
import org.apache.hudi.utilities.testutils.LocalSpark;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Cost of source freshness: the commit callback per Streamer commit with 1 and 8 Hudi sources, as a ratio to the
 * commit's own time; and one reporter run over 100 pipelines of 2 sources each.
 *
 * <p>Arguments: {@code [rounds]} measured Streamer rounds per source count (default 5, after one warm-up round).
 */
final class FreshnessBenchmark implements Benchmark {

  private static final int SOURCE_TABLES = 8;
  private static final int ROWS_PER_COMMIT = 100;
  private static final int PIPELINES = 100;
  private static final int REPORTER_RUNS = 3;
  private static final StructType SCHEMA = new StructType().add("id", DataTypes.StringType, false)
      .add("v", DataTypes.LongType).add("ts", DataTypes.LongType);
  /** Metrics are on in both measurements, with Hudi's in-memory reporter: the registry work counts, no network. */
  private static final Map<String, String> METRICS = Map.of("hoodie.metrics.on", "true",
      "hoodie.metrics.reporter.type", "INMEMORY");

  @Override
  public String name() {
    return "freshness";
  }

  @Override
  public String description() {
    return "commit callback cost per commit (1 and 8 sources) vs the commit's time; reporter time for 100 pipelines";
  }

  @Override
  public void run(List<String> args, PrintStream out) throws Exception {
    int rounds = args.isEmpty() ? 5 : Integer.parseInt(args.get(0));
    SparkSession spark = LocalSpark.start("freshness-benchmark");
    try (WorkDirectory work = WorkDirectory.create("freshness-benchmark")) {
      measure(rounds, spark, work, out);
    }
  }

  private static void measure(int rounds, SparkSession spark, WorkDirectory work, PrintStream out) throws Exception {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Configuration conf = jsc.hadoopConfiguration();
    List<String> sources = new ArrayList<>();
    for (int i = 0; i < SOURCE_TABLES; i++) {
      sources.add(work.tablePath("src_" + i));
      upsert(spark, sources.get(i), "src_" + i, 0);
    }

    ResultTable callback = new ResultTable("sources", "rounds", "commit ms (median)", "callback ms (median)",
        "callback / commit");
    for (int sourceCount : new int[] {1, SOURCE_TABLES}) {
      double[] medians = callbackCost(spark, jsc, work, sources.subList(0, sourceCount), rounds);
      callback.row(sourceCount, rounds, medians[0], medians[1], String.format("%.3f", medians[1] / medians[0]));
    }

    double reporterMillis = reporterCost(conf, work, sources);
    ResultTable reporter = new ResultTable("pipelines", "sources each", "runs", "reporter ms (median)",
        "ms per pipeline");
    reporter.row(PIPELINES, 2, REPORTER_RUNS, reporterMillis, reporterMillis / PIPELINES);

    out.println("Freshness commit callback, per Streamer commit (COPY_ON_WRITE, " + ROWS_PER_COMMIT
        + " rows per source commit, history and in-memory metrics on):");
    out.print(callback);
    out.println();
    out.println("Freshness reporter, one run over all pipelines (history and in-memory metrics on):");
    out.print(reporter);
  }

  /** @return median commit (Streamer round) time and median callback time, in ms */
  private static double[] callbackCost(SparkSession spark, JavaSparkContext jsc, WorkDirectory work,
                                       List<String> sources, int rounds) throws Exception {
    String name = "target_" + sources.size();
    String target = work.tablePath(name);
    Map<String, String> props = streamerProperties(work, name, sources);
    String[] args = streamerArguments(work, name, target, props);
    Properties writerProps = new Properties();
    writerProps.putAll(props);
    writerProps.putAll(METRICS);
    HoodieWriteConfig writerConfig = HoodieWriteConfig.newBuilder().withPath(target).forTable(name)
        .withProperties(writerProps).build();
    List<Long> commits = new ArrayList<>();
    List<Long> callbacks = new ArrayList<>();
    for (int round = 0; round <= rounds; round++) {
      for (int i = 0; i < sources.size(); i++) {
        upsert(spark, sources.get(i), "src_" + i, round + 1);
      }
      long started = System.nanoTime();
      new HoodieStreamer(HoodieStreamer.getConfig(args), jsc).sync();
      long committed = System.nanoTime();
      String commit = CommitTimeline.lastCompletedInstant(jsc.hadoopConfiguration(), target);
      new FreshnessCommitCallback(writerConfig).call(
          new HoodieWriteCommitCallbackMessage(commit, name, target, Collections.emptyList()));
      long recorded = System.nanoTime();
      checkRecorded(jsc.hadoopConfiguration(), target, commit);
      if (round > 0) {
        commits.add(committed - started);
        callbacks.add(recorded - committed);
      }
    }
    return new double[] {ResultTable.medianMillis(commits), ResultTable.medianMillis(callbacks)};
  }

  /** A callback that failed would be cheap: only a recorded measurement counts. */
  private static void checkRecorded(Configuration conf, String target, String commit) throws Exception {
    List<JsonNode> newest = FreshnessHistory.open(target + "/" + HoodieFreshnessConfig.DEFAULT_HISTORY_FOLDER, 1000, conf)
        .newest(1);
    if (newest.isEmpty() || !commit.equals(newest.get(0).path("commit").asText())) {
      throw new IllegalStateException("Cannot time the freshness callback of commit " + commit + " of " + target
          + ": it recorded nothing (see its log)");
    }
  }

  private static double reporterCost(Configuration conf, WorkDirectory work, List<String> sources) throws Exception {
    List<PipelineSpec> pipelines = new ArrayList<>();
    for (int i = 0; i < PIPELINES; i++) {
      String name = "pipeline_" + i;
      String target = work.tablePath("pipelines/" + name);
      int first = i % SOURCE_TABLES;
      int second = (i + 3) % SOURCE_TABLES;
      // Positions at each source's first commit: every later commit is waiting.
      targetWithCheckpoint(conf, target, name, "src_" + first + "=" + firstInstant(conf, sources.get(first))
          + ",src_" + second + "=" + firstInstant(conf, sources.get(second)));
      TypedProperties props = new TypedProperties();
      props.setProperty("hoodie.streamer.source.multi.hudi.tables", "src_" + first + ",src_" + second);
      props.setProperty("hoodie.streamer.source.hudi.src_" + first + ".path", sources.get(first));
      props.setProperty("hoodie.streamer.source.hudi.src_" + second + ".path", sources.get(second));
      pipelines.add(StreamerPipelineSpec.from(props, target, name));
    }
    FreshnessReporter reporter = new FreshnessReporter(Clock.systemUTC(), conf, METRICS, 100);
    List<Long> runs = new ArrayList<>();
    for (int run = 0; run <= REPORTER_RUNS; run++) {
      long started = System.nanoTime();
      List<PipelineFreshness> measured = reporter.reportOnce(pipelines);
      long finished = System.nanoTime();
      boolean allWaiting = measured.stream().flatMap(pipeline -> pipeline.sources().stream())
          .allMatch(source -> source.state() == FreshnessState.WAITING);
      if (measured.size() != PIPELINES || !allWaiting) {
        throw new IllegalStateException("Cannot time the reporter: it measured " + measured.size() + " of "
            + PIPELINES + " pipelines, all sources waiting: " + allWaiting);
      }
      if (run > 0) {
        runs.add(finished - started);
      }
    }
    return ResultTable.medianMillis(runs);
  }

  private static Map<String, String> streamerProperties(WorkDirectory work, String name, List<String> sources)
      throws Exception {
    Map<String, String> props = new LinkedHashMap<>();
    List<String> tables = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      tables.add("src_" + i);
      props.put("hoodie.streamer.source.hudi.src_" + i + ".path", sources.get(i));
      props.put("hoodie.streamer.source.hudi.src_" + i + ".missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT");
    }
    props.put("hoodie.streamer.source.multi.hudi.tables", String.join(",", tables));
    Path sql = work.resolve(name + ".sql");
    Files.writeString(sql, tables.stream().map(table -> "SELECT id, v, ts FROM <SRC:" + table + ">")
        .collect(Collectors.joining(" UNION ALL ")));
    props.put("hoodie.streamer.transformer.sql.file", sql.toUri().toString());
    props.putAll(HudiTableWriter.nonPartitioned(name, "id").options(WriteOperationType.UPSERT));
    return props;
  }

  private static String[] streamerArguments(WorkDirectory work, String name, String target, Map<String, String> props)
      throws Exception {
    Path file = work.resolve(name + ".properties");
    Files.writeString(file, props.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue())
        .collect(Collectors.joining("\n")));
    return new String[] {"--props", file.toUri().toString(), "--target-base-path", target, "--target-table", name,
        "--table-type", "COPY_ON_WRITE", "--op", "UPSERT", "--source-ordering-field", "ts",
        "--source-class", HoodieIncrMultiSource.class.getName(),
        "--transformer-class", MultiDatasetSqlFileTransformer.class.getName()};
  }

  /** One commit of {@link #ROWS_PER_COMMIT} rows to a source table, keys unique to the table. */
  private static void upsert(SparkSession spark, String path, String table, long round) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < ROWS_PER_COMMIT; i++) {
      rows.add(RowFactory.create(table + "-" + i, round * ROWS_PER_COMMIT + i, round));
    }
    HudiTableWriter.nonPartitioned(table, "id").write(spark.createDataFrame(rows, SCHEMA), WriteOperationType.UPSERT,
        path);
  }

  /** A target whose only commit holds the given Streamer checkpoint: what the reporter reads, without Spark. */
  private static void targetWithCheckpoint(Configuration conf, String path, String name, String checkpoint)
      throws Exception {
    HoodieTableMetaClient metaClient = HoodieTableMetaClient.withPropertyBuilder()
        .setTableType(HoodieTableType.COPY_ON_WRITE).setTableName(name).initTable(conf, path);
    HoodieActiveTimeline timeline = metaClient.getActiveTimeline();
    String instant = HoodieActiveTimeline.createNewInstantTime();
    HoodieInstant requested = new HoodieInstant(HoodieInstant.State.REQUESTED, HoodieTimeline.COMMIT_ACTION, instant);
    timeline.createNewInstant(requested);
    timeline.transitionRequestedToInflight(requested, Option.empty());
    HoodieCommitMetadata metadata = new HoodieCommitMetadata();
    metadata.addMetadata(HoodieWriteConfig.STREAMER_CHECKPOINT_KEY, checkpoint);
    timeline.saveAsComplete(new HoodieInstant(HoodieInstant.State.INFLIGHT, HoodieTimeline.COMMIT_ACTION, instant),
        Option.of(metadata.toJsonString().getBytes(StandardCharsets.UTF_8)));
  }

  private static String firstInstant(Configuration conf, String path) {
    return CommitTimeline.firstCompletedInstant(conf, path);
  }
}
