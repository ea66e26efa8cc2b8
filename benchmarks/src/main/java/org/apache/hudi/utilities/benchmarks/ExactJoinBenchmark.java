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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;
import org.apache.hudi.utilities.sources.InputBatch;
import org.apache.hudi.utilities.testutils.ExactJoins;
import org.apache.hudi.utilities.testutils.LocalSpark;
import org.apache.hudi.utilities.testutils.ScannedFiles;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import static org.apache.spark.sql.functions.lit;

/**
 * Issue 6 and 11: one batch of the exact delta-join recipe ({@code Δorders ⋈ SNAP(users) ∪ SNAP(orders) ⋈ Δusers})
 * with and without the delta-key pushdown into its snapshot reads, against recomputing the whole join, side by side
 * (runs interleaved), at several table sizes and parquet file sizes; where a recipe batch's time goes; and how many
 * files the snapshot scans read.
 *
 * <p>Each side is measured up to the rows to write (a no-op sink), and as a whole batch that also writes them to a
 * COPY_ON_WRITE target holding the join: the recipe upserts the changed rows, the recomputation overwrites the target
 * with every joined row.
 */
final class ExactJoinBenchmark implements Benchmark {

  private static final String PUSHDOWN_MAX_KEYS = "hoodie.streamer.source.multi.hudi.snapshot.pushdown.max.keys";
  /** Hudi's default parquet file size: no size set. */
  private static final int DEFAULT_FILE_SIZE = 0;

  @Override
  public String name() {
    return "exact-join";
  }

  @Override
  public String description() {
    return "exact delta-join recipe, delta-key pushdown off and on, vs recomputing the whole join; args: order counts "
        + "(default 500000), users = orders / 10, delta = 1000 orders + 100 users; options file.mib=1,0 (0: Hudi's "
        + "default size) runs=3 (interleaved, after one warm-up) batch.runs=3 (0: no write batches)";
  }

  @Override
  public void run(List<String> args, PrintStream out) throws Exception {
    SizesAndOptions options = SizesAndOptions.parse(args, 500_000,
        Map.of("file.mib", "1,0", "runs", "3", "batch.runs", "3"));
    int runs = options.intOption("runs");
    int batchRuns = options.intOption("batch.runs");
    SparkSession spark = LocalSpark.start("exact-join-benchmark");
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    ResultTable table = new ResultTable("orders", "users", "file MiB", "delta rows", "recipe ms", "recipe ms pushdown",
        "full join ms", "full / recipe pushdown", "SNAP files read", "SNAP files read pushdown", "source files",
        "recipe batch ms", "recipe batch ms pushdown", "full batch ms", "full / recipe batch pushdown");
    ResultTable breakdown = new ResultTable("orders", "file MiB", "phase of a recipe batch", "ms", "ms pushdown");
    String plan = null;
    for (int orders : options.sizes()) {
      for (String fileMib : options.option("file.mib").split(",")) {
        try (WorkDirectory dir = WorkDirectory.create("exact-join-" + orders)) {
          String measured = new Setup(spark, jsc, dir, orders, Integer.parseInt(fileMib))
              .measure(runs, batchRuns, table, breakdown);
          plan = plan == null ? measured : plan;
        }
      }
    }
    out.println("Exact delta-join recipe (delta-key pushdown off / on) vs recomputing the join (median of " + runs
        + " interleaved runs after one warm-up, batches of " + batchRuns + "; sources COPY_ON_WRITE, non-partitioned, "
        + "metadata table and column stats on; local[2])");
    out.println(table);
    out.println("Where a recipe batch's time goes (each phase timed on its own; median of " + runs + " runs)");
    out.println(breakdown);
    out.println("Scans in the recipe's physical plan with pushdown (PushedFilters, DataFilters):");
    out.println(plan);
  }

  /** The tables of one size, with one delta, and the contenders over them. */
  private static final class Setup {
    private final SparkSession spark;
    private final JavaSparkContext jsc;
    private final int orders;
    private final int users;
    private final int fileMib;
    private final String ordersPath;
    private final String usersPath;
    private final String targetPath;
    private final String checkpoint;
    private final TypedProperties plain;
    private final TypedProperties pushdown;
    private final HudiTableWriter joined;

    Setup(SparkSession spark, JavaSparkContext jsc, WorkDirectory dir, int orders, int fileMib) throws Exception {
      this.spark = spark;
      this.jsc = jsc;
      this.orders = orders;
      this.users = orders / 10;
      this.fileMib = fileMib;
      this.ordersPath = dir.tablePath("orders");
      this.usersPath = dir.tablePath("users");
      this.targetPath = dir.tablePath("joined");
      String spill = dir.resolve("spill").toString();
      HudiTableWriter ordersTable = table("orders", "order_id", fileMib).withColumnStats(spill).withInputOrder();
      HudiTableWriter usersTable = table("users", "user_id", fileMib).withColumnStats(spill).withInputOrder();
      // Laid out by the join key, as a table meant for data skipping on it is (sorted at write, or clustered).
      ordersTable.write(spark.sql(ordersSql(0, orders, users, 1) + " ORDER BY user_id"),
          WriteOperationType.BULK_INSERT, ordersPath);
      usersTable.write(spark.sql(usersSql(0, users, "name", 1) + " ORDER BY user_id"), WriteOperationType.BULK_INSERT,
          usersPath);
      this.checkpoint = "orders=" + lastInstant(ordersPath) + ",users=" + lastInstant(usersPath);
      // The delta: 500 updated and 500 new orders (of 1,000 consecutive users), 100 renamed users.
      ordersTable.write(spark.sql(ordersSql(orders - 500, orders + 500, users, 2)), WriteOperationType.UPSERT,
          ordersPath);
      usersTable.write(spark.sql(usersSql(0, 100, "renamed", 2)), WriteOperationType.UPSERT, usersPath);
      Path sql = dir.resolve("recipe.sql");
      Files.write(sql, ExactJoins.INNER_JOIN.getBytes(StandardCharsets.UTF_8));
      this.plain = props(sql, "0");
      this.pushdown = props(sql, "100");
      this.joined = table("joined", "order_id", DEFAULT_FILE_SIZE).withoutMetadataTable();
    }

    String measure(int runs, int batchRuns, ResultTable table, ResultTable breakdown) throws Exception {
      long deltaRows = recipe(plain).count();
      long pushdownRows = recipe(pushdown).count();
      if (deltaRows != pushdownRows) {
        throw new IllegalStateException("Cannot time the pushdown: it gives " + pushdownRows + " rows, not " + deltaRows);
      }
      List<Double> rowsMs = race(runs, List.of(() -> noop(recipe(plain)), () -> noop(recipe(pushdown)),
          () -> noop(fullJoin())));
      Map<String, Double> plainPhases = new RecipeBreakdown(spark, jsc, plain, checkpoint, snapshotTables())
          .measure(runs);
      Map<String, Double> pushdownPhases = new RecipeBreakdown(spark, jsc, pushdown, checkpoint, snapshotTables())
          .measure(runs);
      plainPhases.forEach((phase, ms) -> breakdown.row(orders, fileLabel(), phase, ms, pushdownPhases.get(phase)));
      List<Double> batchMs = List.of(Double.NaN, Double.NaN, Double.NaN);
      if (batchRuns > 0) {
        joined.write(fullJoin(), WriteOperationType.BULK_INSERT, targetPath);
        batchMs = race(batchRuns, List.of(
            () -> write(recipe(plain), WriteOperationType.UPSERT),
            () -> write(recipe(pushdown), WriteOperationType.UPSERT),
            () -> write(fullJoin(), WriteOperationType.INSERT_OVERWRITE_TABLE)));
      }
      table.row(orders, users, fileLabel(), deltaRows, rowsMs.get(0), rowsMs.get(1), rowsMs.get(2),
          ratio(rowsMs.get(2), rowsMs.get(1)), ScannedFiles.filesRead(recipe(plain)), ScannedFiles.filesRead(recipe(pushdown)),
          sourceFiles(), batchMs.get(0), batchMs.get(1), batchMs.get(2), ratio(batchMs.get(2), batchMs.get(1)));
      return scanLines(recipe(pushdown));
    }

    private Dataset<Row> recipe(TypedProperties props) {
      InputBatch<Dataset<Row>> batch = new HoodieIncrMultiSource(props, jsc, spark, null)
          .fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
      return new MultiDatasetSqlFileTransformer().apply(jsc, spark, batch.getBatch().get(), props);
    }

    /** The join recomputed, with the recipes' ordering column, so that both write the target's one schema. */
    private Dataset<Row> fullJoin() {
      return ExactJoins.recomputed(spark.read().format("hudi").load(ordersPath),
          spark.read().format("hudi").load(usersPath)).withColumn(ExactJoins.COMMIT_ORDER, lit(0));
    }

    private Void write(Dataset<Row> rows, WriteOperationType operation) {
      joined.write(rows, operation, targetPath);
      return null;
    }

    private Map<String, String> snapshotTables() {
      return Map.of("orders", ordersPath, "users", usersPath);
    }

    /** The base files of both source tables' latest snapshots: what a full scan of both reads. */
    private long sourceFiles() {
      return spark.read().format("hudi").load(ordersPath).inputFiles().length
          + spark.read().format("hudi").load(usersPath).inputFiles().length;
    }

    private String fileLabel() {
      return fileMib == DEFAULT_FILE_SIZE ? "120 (default)" : String.valueOf(fileMib);
    }

    private TypedProperties props(Path sql, String pushdownMaxKeys) {
      TypedProperties props = new TypedProperties();
      props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders,users");
      props.setProperty("hoodie.streamer.source.hudi.orders.path", ordersPath);
      props.setProperty("hoodie.streamer.source.hudi.users.path", usersPath);
      props.setProperty("hoodie.streamer.transformer.sql.file", sql.toUri().toString());
      props.setProperty(PUSHDOWN_MAX_KEYS, pushdownMaxKeys);
      return props;
    }

    private String lastInstant(String path) {
      return CommitTimeline.lastCompletedInstant(jsc.hadoopConfiguration(), path);
    }
  }

  /**
   * The median milliseconds of each contender over {@code runs} runs after one warm-up, the runs of the contenders
   * interleaved so that they share the machine's ups and downs.
   */
  static List<Double> race(int runs, List<Callable<Void>> contenders) throws Exception {
    List<List<Long>> nanos = new ArrayList<>();
    contenders.forEach(contender -> nanos.add(new ArrayList<>()));
    for (int run = -1; run < runs; run++) {
      for (int i = 0; i < contenders.size(); i++) {
        long start = System.nanoTime();
        contenders.get(i).call();
        if (run >= 0) {
          nanos.get(i).add(System.nanoTime() - start);
        }
      }
    }
    return nanos.stream().map(ResultTable::medianMillis).collect(Collectors.toList());
  }

  static Void noop(Dataset<Row> rows) {
    rows.write().format("noop").mode(SaveMode.Overwrite).save();
    return null;
  }

  static String ratio(double numerator, double denominator) {
    return Double.isNaN(numerator) ? "" : String.format("%.1fx", numerator / denominator);
  }

  private static String scanLines(Dataset<Row> dataset) {
    return Arrays.stream(dataset.queryExecution().executedPlan().toString().split("\n"))
        .filter(line -> line.contains("Scan"))
        .map(line -> "  " + line.trim().replaceAll("Location: \\S+ \\[[^]]*]", "Location: ..."))
        .collect(Collectors.joining("\n"));
  }

  /** Keys zero-padded, so that the string order of ids is their numeric order. */
  static String ordersSql(int from, int to, int users, long ts) {
    return String.format("SELECT format_string('o%%09d', id) AS order_id, format_string('u%%09d', id %% %d) AS user_id, "
        + "CAST(id AS DOUBLE) AS amount, CAST(%d AS BIGINT) AS ts FROM range(%d, %d)", users, ts, from, to);
  }

  static String usersSql(int from, int to, String name, long ts) {
    return String.format("SELECT format_string('u%%09d', id) AS user_id, concat('%s', id) AS user_name, "
        + "CAST(%d AS BIGINT) AS ts FROM range(%d, %d)", name, ts, from, to);
  }

  /** A table of this benchmark: parquet files of at most {@code fileMib} (0 for Hudi's default). */
  static HudiTableWriter table(String name, String recordKey, int fileMib) {
    HudiTableWriter writer = HudiTableWriter.nonPartitioned(name, recordKey);
    return fileMib == DEFAULT_FILE_SIZE ? writer : writer.withMaxFileMib(fileMib);
  }
}
