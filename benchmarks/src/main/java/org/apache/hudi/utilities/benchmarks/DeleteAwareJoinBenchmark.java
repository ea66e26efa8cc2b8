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
import org.apache.spark.sql.SparkSession;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.noop;
import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.ordersSql;
import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.race;
import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.ratio;
import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.table;
import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.usersSql;
import static org.apache.spark.sql.functions.lit;

/**
 * Issue 11: one batch of the delete-aware exact join (docs/exact-joins.md, "Delete-aware inner join"), its deletes
 * found by anti-joins of {@code PREV} and {@code SNAP}, against the same join over CDC deltas (docs/exact-joins.md,
 * "Delete-aware join over CDC deltas"), against recomputing the whole join, side by side (runs interleaved), over
 * source tables that keep change data. Each recipe's batch upserts into its own target and the recomputation overwrites
 * a third; after the runs the three targets must hold the same rows, so the contenders are shown to do the same work.
 */
final class DeleteAwareJoinBenchmark implements Benchmark {

  /** Hudi's CDC relation turns it off for the session; a job without CDC deltas reads with it on. */
  private static final String VECTORIZED_READER = "spark.sql.parquet.enableVectorizedReader";
  private static final String TARGET_COLUMNS = "order_id, user_id, amount, user_name";

  @Override
  public String name() {
    return "exact-join-deletes";
  }

  @Override
  public String description() {
    return "delete-aware exact join: PREV/SNAP anti-joins vs CDC deltas vs recomputing the join; args: order counts "
        + "(default 500000), users = orders / 10, delta = 1000 orders changed or new, 100 deleted, 100 users renamed, "
        + "10 deleted; options file.mib=1 (0: Hudi's default size) runs=3 (interleaved, after one warm-up) batch.runs=1";
  }

  @Override
  public void run(List<String> args, PrintStream out) throws Exception {
    SizesAndOptions options = SizesAndOptions.parse(args, 500_000, Map.of("file.mib", "1", "runs", "3", "batch.runs", "1"));
    SparkSession spark = LocalSpark.start("exact-join-deletes-benchmark");
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    ResultTable table = new ResultTable("orders", "users", "file MiB", "rows PREV/SNAP", "rows CDC",
        "PREV/SNAP ms", "CDC ms", "full join ms", "PREV/SNAP / CDC", "SNAP+PREV files read PREV/SNAP",
        "SNAP files read CDC", "source files", "PREV/SNAP batch ms", "CDC batch ms", "full batch ms",
        "full / CDC batch");
    for (int orders : options.sizes()) {
      for (String fileMib : options.option("file.mib").split(",")) {
        try (WorkDirectory dir = WorkDirectory.create("exact-join-deletes-" + orders)) {
          new Setup(spark, jsc, dir, orders, Integer.parseInt(fileMib))
              .measure(options.intOption("runs"), options.intOption("batch.runs"), table);
        }
      }
    }
    out.println("Delete-aware exact join: PREV/SNAP anti-joins vs CDC deltas vs recomputing the join (median of "
        + options.option("runs") + " interleaved runs after one warm-up, batches of " + options.option("batch.runs")
        + "; sources COPY_ON_WRITE, non-partitioned, change data kept, metadata table and column stats on; snapshot "
        + "pushdown at its default; local[2])");
    out.println(table);
  }

  /** The tables of one size, with one delta of updates, inserts and deletes, and the contenders over them. */
  private static final class Setup {
    private final SparkSession spark;
    private final JavaSparkContext jsc;
    private final WorkDirectory dir;
    private final int orders;
    private final int users;
    private final int fileMib;
    private final String ordersPath;
    private final String usersPath;
    private final String ordersAtCheckpoint;
    private final String usersAtCheckpoint;
    private final String checkpoint;
    private final TypedProperties prevSnap;
    private final TypedProperties cdc;
    private final HudiTableWriter joined;

    Setup(SparkSession spark, JavaSparkContext jsc, WorkDirectory dir, int orders, int fileMib) {
      this.spark = spark;
      this.jsc = jsc;
      this.dir = dir;
      this.orders = orders;
      this.users = orders / 10;
      this.fileMib = fileMib;
      this.ordersPath = dir.tablePath("orders");
      this.usersPath = dir.tablePath("users");
      String spill = dir.resolve("spill").toString();
      HudiTableWriter ordersTable = table("orders", "order_id", fileMib).withColumnStats(spill).withInputOrder()
          .withChangeData();
      HudiTableWriter usersTable = table("users", "user_id", fileMib).withColumnStats(spill).withInputOrder()
          .withChangeData();
      ordersTable.write(spark.sql(ordersSql(0, orders, users, 1) + " ORDER BY user_id"),
          WriteOperationType.BULK_INSERT, ordersPath);
      usersTable.write(spark.sql(usersSql(0, users, "name", 1) + " ORDER BY user_id"), WriteOperationType.BULK_INSERT,
          usersPath);
      this.ordersAtCheckpoint = CommitTimeline.lastCompletedInstant(jsc.hadoopConfiguration(), ordersPath);
      this.usersAtCheckpoint = CommitTimeline.lastCompletedInstant(jsc.hadoopConfiguration(), usersPath);
      this.checkpoint = "orders=" + ordersAtCheckpoint + ",users=" + usersAtCheckpoint;
      // The delta: 500 updated and 500 new orders, 100 deleted orders; 100 renamed users, 10 deleted users.
      ordersTable.write(spark.sql(ordersSql(orders - 500, orders + 500, users, 2)), WriteOperationType.UPSERT,
          ordersPath);
      ordersTable.write(spark.sql(ordersSql(0, 100, users, 3)), WriteOperationType.DELETE, ordersPath);
      usersTable.write(spark.sql(usersSql(0, 100, "renamed", 2)), WriteOperationType.UPSERT, usersPath);
      usersTable.write(spark.sql(usersSql(100, 110, "deleted", 3)), WriteOperationType.DELETE, usersPath);
      this.prevSnap = props(ExactJoins.DELETE_AWARE_INNER_JOIN, false);
      this.cdc = props(ExactJoins.DELETE_AWARE_JOIN_OVER_CDC_DELTAS, true);
      this.joined = table("joined", "order_id", 0).withoutMetadataTable();
    }

    void measure(int runs, int batchRuns, ResultTable table) throws Exception {
      long prevSnapRows = recipe(prevSnap).count();
      long cdcRows = recipe(cdc).count();
      List<Double> rowsMs = race(runs, List.of(
          () -> noop(recipe(prevSnap)), () -> noop(recipe(cdc)), () -> noop(fullJoin())));
      long prevSnapFiles = ScannedFiles.filesRead(recipe(prevSnap));
      long cdcFiles = ScannedFiles.filesRead(recipe(cdc));
      List<Double> batchMs = List.of(Double.NaN, Double.NaN, Double.NaN);
      if (batchRuns > 0) {
        String prevSnapTarget = dir.tablePath("joined-prev-snap");
        String cdcTarget = dir.tablePath("joined-cdc");
        String fullTarget = dir.tablePath("joined-full");
        Dataset<Row> joinAtCheckpoint = ExactJoins.recomputedAsOf(spark, ordersPath, ordersAtCheckpoint, usersPath,
            usersAtCheckpoint).withColumn(ExactJoins.COMMIT_ORDER, lit(0)).withColumn("_hoodie_is_deleted", lit(false));
        for (String target : List.of(prevSnapTarget, cdcTarget, fullTarget)) {
          joined.write(joinAtCheckpoint, WriteOperationType.BULK_INSERT, target);
        }
        batchMs = race(batchRuns, List.of(
            () -> write(recipe(prevSnap), WriteOperationType.UPSERT, prevSnapTarget),
            () -> write(recipe(cdc), WriteOperationType.UPSERT, cdcTarget),
            () -> write(fullJoin(), WriteOperationType.INSERT_OVERWRITE_TABLE, fullTarget)));
        assertSameRows(fullTarget, prevSnapTarget);
        assertSameRows(fullTarget, cdcTarget);
      }
      table.row(orders, users, fileMib == 0 ? "120 (default)" : String.valueOf(fileMib), prevSnapRows, cdcRows,
          rowsMs.get(0), rowsMs.get(1), rowsMs.get(2), ratio(rowsMs.get(0), rowsMs.get(1)), prevSnapFiles, cdcFiles,
          sourceFiles(), batchMs.get(0), batchMs.get(1), batchMs.get(2), ratio(batchMs.get(2), batchMs.get(1)));
    }

    /** The rows to write of one batch from the checkpoint; the vectorized reader on, as a job without CDC has it. */
    private Dataset<Row> recipe(TypedProperties props) {
      spark.conf().set(VECTORIZED_READER, "true");
      InputBatch<Dataset<Row>> batch = new HoodieIncrMultiSource(props, jsc, spark, null)
          .fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
      return new MultiDatasetSqlFileTransformer().apply(jsc, spark, batch.getBatch().get(), props);
    }

    private Dataset<Row> fullJoin() {
      spark.conf().set(VECTORIZED_READER, "true");
      return ExactJoins.recomputed(spark.read().format("hudi").load(ordersPath),
          spark.read().format("hudi").load(usersPath)).withColumn(ExactJoins.COMMIT_ORDER, lit(0))
          .withColumn("_hoodie_is_deleted", lit(false));
    }

    private Void write(Dataset<Row> rows, WriteOperationType operation, String target) {
      joined.write(rows, operation, target);
      return null;
    }

    /** Both targets hold exactly the same joined rows. */
    private void assertSameRows(String expectedTarget, String actualTarget) {
      Dataset<Row> expected = spark.read().format("hudi").load(expectedTarget).selectExpr(TARGET_COLUMNS.split(", "));
      Dataset<Row> actual = spark.read().format("hudi").load(actualTarget).selectExpr(TARGET_COLUMNS.split(", "));
      long missing = expected.exceptAll(actual).count();
      long extra = actual.exceptAll(expected).count();
      if (missing != 0 || extra != 0) {
        throw new IllegalStateException("Cannot compare the contenders: target " + actualTarget + " misses " + missing
            + " and has " + extra + " rows more than the recomputed join " + expectedTarget);
      }
    }

    private long sourceFiles() {
      return spark.read().format("hudi").load(ordersPath).inputFiles().length
          + spark.read().format("hudi").load(usersPath).inputFiles().length;
    }

    private TypedProperties props(String recipe, boolean changeData) {
      TypedProperties props = new TypedProperties();
      props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders,users");
      props.setProperty("hoodie.streamer.source.hudi.orders.path", ordersPath);
      props.setProperty("hoodie.streamer.source.hudi.users.path", usersPath);
      props.setProperty("hoodie.streamer.transformer.sql.file", dir.sqlFile(recipe));
      if (changeData) {
        props.setProperty("hoodie.streamer.source.hudi.orders.incr.format", "CDC");
        props.setProperty("hoodie.streamer.source.hudi.users.incr.format", "CDC");
      }
      return props;
    }
  }
}
