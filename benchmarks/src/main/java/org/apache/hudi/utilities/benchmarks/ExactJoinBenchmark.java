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

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;
import org.apache.hudi.utilities.sources.InputBatch;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Issue 6: one batch of the exact delta-join recipe ({@code Δorders ⋈ SNAP(users) ∪ SNAP(orders) ⋈ Δusers}) against
 * recomputing the whole join, side by side, at two table sizes; and how much of the recipe the snapshot scans take.
 *
 * <p>Each side is measured twice: up to the rows to write (a no-op sink), and as a whole batch that also writes them
 * to a COPY_ON_WRITE target holding the join: the recipe upserts the changed rows, the recomputation overwrites the
 * target with every joined row.
 */
final class ExactJoinBenchmark implements Benchmark {

  private static final String RECIPE =
      "SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts\n"
      + "FROM <SRC:orders> o JOIN <SNAP:users> u ON o.user_id = u.user_id\n"
      + "UNION ALL\n"
      + "SELECT o.order_id, o.user_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts\n"
      + "FROM <SNAP:orders> o JOIN <SRC:users> u ON o.user_id = u.user_id";
  private static final int RUNS = 3;

  @Override
  public String name() {
    return "exact-join";
  }

  @Override
  public String description() {
    return "exact delta-join recipe (SNAP placeholders) vs recomputing the whole join; args: order counts "
        + "(default 200000 1000000), users = orders / 10, delta = 1000 orders + 100 users";
  }

  @Override
  public void run(List<String> args, PrintStream out) throws Exception {
    List<Integer> sizes = args.isEmpty() ? List.of(200_000, 1_000_000)
        : args.stream().map(Integer::parseInt).collect(Collectors.toList());
    SparkSession spark = LocalSpark.start("exact-join-benchmark");
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    ResultTable table = new ResultTable("orders", "users", "delta rows", "recipe ms", "full join ms",
        "full / recipe", "snapshot scans ms", "snapshot share", "recipe batch ms", "full batch ms",
        "full / recipe batch");
    String plan = null;
    for (int orders : sizes) {
      try (WorkDirectory dir = WorkDirectory.create("exact-join-" + orders)) {
        String measured = measure(spark, jsc, dir, orders, table);
        if (plan == null) {
          plan = measured;
        }
      }
    }
    out.println("Exact delta-join recipe vs recomputing the join (median of " + RUNS + " runs after one warm-up; "
        + "tables COPY_ON_WRITE, non-partitioned; local[2])");
    out.println(table);
    out.println("Scans in the recipe's physical plan (column pruning: ReadSchema; filter pushdown: PushedFilters):");
    out.println(plan);
  }

  /**
   * Writes orders and users tables of {@code orders} rows in {@code dir}, then one delta, and measures one size.
   *
   * @return the scans of the recipe's physical plan
   */
  private static String measure(SparkSession spark, JavaSparkContext jsc, WorkDirectory dir, int orders,
                                ResultTable table) throws Exception {
    String ordersPath = dir.tablePath("orders");
    String usersPath = dir.tablePath("users");
    int users = orders / 10;
    HudiTableWriter ordersTable = table("orders", "order_id");
    HudiTableWriter usersTable = table("users", "user_id");
    ordersTable.write(spark.sql(ordersSql(0, orders, users, 1)), WriteOperationType.BULK_INSERT, ordersPath);
    usersTable.write(spark.sql(usersSql(0, users, "name", 1)), WriteOperationType.BULK_INSERT, usersPath);
    String checkpoint = "orders=" + lastInstant(jsc, ordersPath) + ",users=" + lastInstant(jsc, usersPath);
    // The delta: 500 updated and 500 new orders, 100 renamed users.
    ordersTable.write(spark.sql(ordersSql(orders - 500, orders + 500, users, 2)), WriteOperationType.UPSERT,
        ordersPath);
    usersTable.write(spark.sql(usersSql(0, 100, "renamed", 2)), WriteOperationType.UPSERT, usersPath);

    TypedProperties props = props(dir, ordersPath, usersPath);
    Callable<Dataset<Row>> recipe = () -> {
      InputBatch<Dataset<Row>> batch = new HoodieIncrMultiSource(props, jsc, spark, null)
          .fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
      return new MultiDatasetSqlFileTransformer().apply(jsc, spark, batch.getBatch().get(), props);
    };
    Callable<Dataset<Row>> fullJoin = () -> spark.read().format("hudi").load(ordersPath).alias("o")
        .join(spark.read().format("hudi").load(usersPath).alias("u"), "user_id")
        .selectExpr("order_id", "user_id", "amount", "user_name", "greatest(o.ts, u.ts) AS ts");
    String snapshotInstants = "orders=" + lastInstant(jsc, ordersPath) + ",users=" + lastInstant(jsc, usersPath);
    Callable<Dataset<Row>> snapshotScans = () -> asOf(spark, ordersPath, snapshotInstants, "orders")
        .select("order_id", "user_id", "amount", "ts")
        .union(asOf(spark, usersPath, snapshotInstants, "users").selectExpr("user_id", "user_id", "0.0", "ts"));

    long deltaRows = recipe.call().count();
    double recipeMs = medianMillis(() -> noop(recipe));
    double fullMs = medianMillis(() -> noop(fullJoin));
    double scansMs = medianMillis(() -> noop(snapshotScans));
    String targetPath = dir.tablePath("joined");
    HudiTableWriter joined = table("joined", "order_id");
    joined.write(fullJoin.call(), WriteOperationType.BULK_INSERT, targetPath);
    double recipeBatchMs = medianMillis(() -> write(joined, recipe.call(), WriteOperationType.UPSERT, targetPath));
    double fullBatchMs = medianMillis(() -> write(joined, fullJoin.call(), WriteOperationType.INSERT_OVERWRITE_TABLE,
        targetPath));
    table.row(orders, users, deltaRows, recipeMs, fullMs, ratio(fullMs, recipeMs), scansMs,
        String.format("%.0f%%", 100 * scansMs / recipeMs), recipeBatchMs, fullBatchMs,
        ratio(fullBatchMs, recipeBatchMs));
    return scanLines(recipe.call());
  }

  /** The median time of {@link #RUNS} runs after one warm-up. */
  private static double medianMillis(Callable<Void> batch) throws Exception {
    batch.call();
    List<Long> nanos = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      long start = System.nanoTime();
      batch.call();
      nanos.add(System.nanoTime() - start);
    }
    return ResultTable.medianMillis(nanos);
  }

  private static Void noop(Callable<Dataset<Row>> query) throws Exception {
    query.call().write().format("noop").mode(SaveMode.Overwrite).save();
    return null;
  }

  private static String ratio(double numerator, double denominator) {
    return String.format("%.1fx", numerator / denominator);
  }

  private static String scanLines(Dataset<Row> dataset) {
    return Arrays.stream(dataset.queryExecution().executedPlan().toString().split("\n"))
        .filter(line -> line.contains("Scan"))
        .map(line -> "  " + line.trim().replaceAll("Location: \\S+ \\[[^]]*]", "Location: ..."))
        .collect(Collectors.joining("\n"));
  }

  private static Dataset<Row> asOf(SparkSession spark, String path, String positions, String table) {
    String instant = positions.replaceAll(".*" + table + "=(\\d+).*", "$1");
    return spark.read().format("hudi").option("as.of.instant", instant).load(path);
  }

  private static String ordersSql(int from, int to, int users, long ts) {
    return String.format("SELECT concat('o', id) AS order_id, concat('u', id %% %d) AS user_id, "
        + "CAST(id AS DOUBLE) AS amount, CAST(%d AS BIGINT) AS ts FROM range(%d, %d)", users, ts, from, to);
  }

  private static String usersSql(int from, int to, String name, long ts) {
    return String.format("SELECT concat('u', id) AS user_id, concat('%s', id) AS user_name, CAST(%d AS BIGINT) AS ts "
        + "FROM range(%d, %d)", name, ts, from, to);
  }

  /** The tables of this benchmark, sources and target: no metadata table, Hudi's defaults otherwise. */
  private static HudiTableWriter table(String name, String recordKey) {
    return HudiTableWriter.nonPartitioned(name, recordKey).withoutMetadataTable();
  }

  private static Void write(HudiTableWriter table, Dataset<Row> rows, WriteOperationType operation, String path) {
    table.write(rows, operation, path);
    return null;
  }

  private static String lastInstant(JavaSparkContext jsc, String path) {
    return CommitTimeline.lastCompletedInstant(jsc.hadoopConfiguration(), path);
  }

  private static TypedProperties props(WorkDirectory dir, String ordersPath, String usersPath) throws Exception {
    Path sql = dir.resolve("recipe.sql");
    Files.write(sql, RECIPE.getBytes(StandardCharsets.UTF_8));
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders,users");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", ordersPath);
    props.setProperty("hoodie.streamer.source.hudi.users.path", usersPath);
    props.setProperty("hoodie.streamer.transformer.sql.file", sql.toUri().toString());
    return props;
  }
}
