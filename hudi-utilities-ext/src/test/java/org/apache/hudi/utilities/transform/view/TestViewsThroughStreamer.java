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

package org.apache.hudi.utilities.transform.view;

import org.apache.hudi.DataSourceReadOptions;
import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.keygen.NonpartitionedKeyGenerator;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpointManager;
import org.apache.hudi.utilities.config.HoodieViewConfig;
import org.apache.hudi.utilities.config.ViewStrategy;
import org.apache.hudi.utilities.hudi014.ViewMetrics;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.StreamerJob;
import org.apache.hudi.utilities.testutils.TargetGauges;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Views end to end: given Hudi source tables (COPY_ON_WRITE and MERGE_ON_READ, one read as CDC) changed by the seeded
 * workload of {@link TestViewDifferential}, when the stock HoodieStreamer runs a view's SQL file over
 * &lt;TABLE:name&gt; placeholders after each batch of changes, then the target equals the view's query run over the
 * tables read with time travel at the checkpoint the target committed, as multisets of rows.
 *
 * <p>Quick by default (6 to 8 rounds, past the rounds of the insert-and-delete and the added column);
 * {@code -Dview.streamer.rounds=N} runs N rounds of each view.
 */
class TestViewsThroughStreamer {

  private static final long SEED = Long.getLong("view.differential.seed", 20261202L);
  /** Rounds of every view test but the strategy one: each test's quick default, or this many. */
  private static final Integer ROUNDS = Integer.getInteger("view.streamer.rounds");

  @TempDir
  Path dir;

  @Test
  void joinViewWithLeftOuterJoinsIntoMergeOnReadTarget() throws Exception {
    run("SELECT o.order_id, o.amount, u.user_name, c.region FROM <TABLE:orders> o "
        + "LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id LEFT JOIN <TABLE:countries> c ON u.country = c.code",
        "order_id", "MERGE_ON_READ", 8, Map.of());
  }

  /** Orders read one commit per batch ({@code num_instants=1}): the view follows the checkpoint, not the tables. */
  @Test
  void groupedViewIntoCopyOnWriteTarget() throws Exception {
    run("SELECT u.country, o.status, count(*) AS n, sum(o.amount) AS total, count(DISTINCT o.user_id) AS buyers "
        + "FROM <TABLE:orders> o JOIN <TABLE:users> u ON o.user_id = u.user_id GROUP BY u.country, o.status "
        + "HAVING count(*) > 1", "country,status", "COPY_ON_WRITE", 7,
        Map.of("hoodie.streamer.source.hudi.orders.num_instants", "1"));
  }

  /**
   * A grouped view keeping aggregate state, joined with the CDC-read users: each changed group is updated from the
   * state its MERGE_ON_READ target row stores (a merged read of base and log files).
   */
  @Test
  void groupedViewKeepingAggregateStateIntoMergeOnReadTarget() throws Exception {
    run("SELECT u.country, count(*) AS n, sum(o.amount) AS total, avg(o.amount) AS mean FROM <TABLE:orders> o "
        + "JOIN <TABLE:users> u ON o.user_id = u.user_id WHERE u.country IS NOT NULL GROUP BY u.country", "country",
        "MERGE_ON_READ", 6, Map.of());
  }

  @Test
  void unionViewIntoCopyOnWriteTarget() throws Exception {
    run("SELECT 'order' AS kind, order_id AS id, amount AS value FROM <TABLE:orders> UNION ALL "
        + "SELECT 'payment' AS kind, p.payment_id AS id, p.paid + o.amount AS value FROM <TABLE:payments> p "
        + "JOIN <TABLE:orders> o ON p.order_id = o.order_id", "kind,id", "COPY_ON_WRITE", 6, Map.of());
  }

  /**
   * Given a view job with Hudi's in-memory metrics reporter, when batches run under FULL, STRICT, and AUTO with every
   * cost weight 0 (both strategies free: incremental), with an incremental batch's fixed cost a billion milliseconds,
   * and with the default weights (on these tables of a few rows the full recompute is the cheaper), then each batch's
   * decision (1 incremental, 0 full recompute), the change it estimated and both estimated costs are the target's
   * gauges, and the target is the view at the checkpoint after each.
   */
  @Test
  void eachBatchsStrategyAndEstimatedCostsArePublishedAsTheTargetsMetrics() throws Exception {
    String sql = "SELECT o.order_id, o.amount, u.user_name FROM <TABLE:orders> o JOIN <TABLE:users> u "
        + "ON o.user_id = u.user_id";
    ViewJob view = new ViewJob(sql, "order_id", "COPY_ON_WRITE", Map.of("hoodie.metrics.on", "true",
        "hoodie.metrics.reporter.type", "INMEMORY"));
    Map<String, String> free = new LinkedHashMap<>();
    Map<String, String> defaults = new LinkedHashMap<>();
    for (ConfigProperty<Double> weight : Arrays.asList(HoodieViewConfig.AUTO_COST_SCAN_MICROS,
        HoodieViewConfig.AUTO_COST_OUTPUT_MICROS, HoodieViewConfig.AUTO_COST_WRITE_MICROS,
        HoodieViewConfig.AUTO_COST_REWRITE_MICROS, HoodieViewConfig.AUTO_COST_INCREMENTAL_FIXED_MS)) {
      free.put(weight.key(), "0");
      defaults.put(weight.key(), String.valueOf(weight.defaultValue()));
    }
    Map<String, String> slowIncremental = new LinkedHashMap<>(defaults);
    slowIncremental.put(HoodieViewConfig.AUTO_COST_INCREMENTAL_FIXED_MS.key(), "1000000000");
    List<StrategyBatch> batches = Arrays.asList(
        new StrategyBatch("FULL", ViewStrategy.FULL, defaults, false),
        new StrategyBatch("STRICT", ViewStrategy.STRICT, defaults, true),
        new StrategyBatch("AUTO, both strategies free", ViewStrategy.AUTO, free, true),
        new StrategyBatch("AUTO, an incremental batch's fixed cost a billion ms", ViewStrategy.AUTO, slowIncremental,
            false),
        new StrategyBatch("AUTO, the default weights over tables of a few rows", ViewStrategy.AUTO, defaults, false));
    int round = 0;
    for (StrategyBatch batch : batches) {
      view.job.property(HoodieViewConfig.STRATEGY.key(), batch.strategy.name());
      batch.weights.forEach(view.job::property);
      view.syncRound(round++);
      assertEquals(batch.incremental ? 1.0 : 0.0, TargetGauges.doubleValue(view.target, ViewMetrics.INCREMENTAL),
          batch.name);
      double estimated = TargetGauges.doubleValue(view.target, ViewMetrics.ESTIMATED_CHANGE);
      assertTrue(estimated > 0, batch.name + ": every table changed, estimated " + estimated);
      double incrementalMs = TargetGauges.doubleValue(view.target, ViewMetrics.ESTIMATED_INCREMENTAL_MS);
      double fullMs = TargetGauges.doubleValue(view.target, ViewMetrics.ESTIMATED_FULL_MS);
      if (batch.strategy == ViewStrategy.AUTO) {
        assertEquals(batch.incremental, incrementalMs <= fullMs, batch.name + ": incremental ~" + incrementalMs
            + " ms, full ~" + fullMs + " ms");
      }
    }
  }

  /** One batch of the strategy test: its settings and whether it must run incrementally. */
  private static final class StrategyBatch {
    private final String name;
    private final ViewStrategy strategy;
    private final Map<String, String> weights;
    private final boolean incremental;

    StrategyBatch(String name, ViewStrategy strategy, Map<String, String> weights, boolean incremental) {
      this.name = name;
      this.strategy = strategy;
      this.weights = weights;
      this.incremental = incremental;
    }
  }

  /**
   * Runs the view over rounds of the workload's changes. Besides them: in round 3 an order is inserted and deleted
   * before the batch (in two commits it reads together), and from round 4 payments are written with a column more.
   */
  private void run(String sql, String targetKey, String targetType, int quickRounds, Map<String, String> moreProperties)
      throws Exception {
    ViewJob view = new ViewJob(sql, targetKey, targetType, moreProperties);
    view.job.property(HoodieViewConfig.STRATEGY.key(), ViewStrategy.STRICT.name());
    int rounds = ROUNDS == null ? quickRounds : ROUNDS;
    for (int round = 0; round < rounds; round++) {
      view.syncRound(round);
    }
  }

  /** A Streamer job maintaining a view over the workload's tables, and the tables as the job's rounds change them. */
  private final class ViewJob {
    private final SparkSession spark = SharedSpark.session();
    private final ViewWorkload workload = new ViewWorkload(SEED);
    /** The workload's tables the views read. */
    private final List<String> tables = List.of("orders", "users", "payments", "countries");
    private final Map<String, String> paths = new LinkedHashMap<>();
    private final String sql;
    private final String target = dir.resolve("target").toUri().toString();
    private final StreamerJob job;
    private Map<String, Map<String, Object[]>> written = new LinkedHashMap<>();

    ViewJob(String sql, String targetKey, String targetType, Map<String, String> moreProperties) {
      this.sql = sql;
      tables.forEach(table -> paths.put(table, dir.resolve(table).toUri().toString()));
      job = new StreamerJob(dir, target)
          .property("hoodie.streamer.source.multi.hudi.tables", String.join(",", tables))
          .property("hoodie.datasource.write.recordkey.field", targetKey)
          .property("hoodie.streamer.source.hudi.users.incr.format", "CDC")
          .transformers(MultiDatasetSqlFileTransformer.class.getName())
          .tableType(targetType)
          .orderingField(ViewDefinition.COMMIT_ORDER)
          .sql(sql);
      tables.forEach(table -> job
          .property("hoodie.streamer.source.hudi." + table + ".path", paths.get(table))
          .property("hoodie.streamer.source.hudi." + table + ".missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT"));
      moreProperties.forEach(job::property);
      tables.forEach(table -> written.put(table, new TreeMap<>()));
    }

    /** Writes the round's changes, runs one Streamer batch, and checks the target; then draws the next changes. */
    void syncRound(int round) throws Exception {
      Map<String, Map<String, Object[]>> current = workload.copy();
      for (String table : tables) {
        write(spark, table, paths.get(table), written.get(table), current.get(table), round >= 4);
      }
      if (round == 3) {
        Map<String, Object[]> passing = Map.of("o-transient", new Object[] {"o-transient", "u0", 50, "open", 0L, "s0", 1});
        save(ViewWorkload.dataset(spark, "orders", passing), "orders", paths.get("orders"), "order_id", true, "upsert");
        save(ViewWorkload.dataset(spark, "orders", passing), "orders", paths.get("orders"), "order_id", true, "delete");
      }
      written = current;
      job.syncInProcess();
      assertTargetIsTheViewAtItsCheckpoint(round);
      workload.change();
    }

    private void assertTargetIsTheViewAtItsCheckpoint(int round) {
      String checkpoint = HudiTables.lastCheckpoint(target);
      MultiTableCheckpoint positions = new MultiTableCheckpointManager(tables, tables.get(0), true, false)
          .parse(checkpoint);
      String bound = sql;
      for (String table : tables) {
        spark.read().format("hudi")
            .option(DataSourceReadOptions.TIME_TRAVEL_AS_OF_INSTANT().key(), positions.position(table).get())
            .load(paths.get(table)).drop(HoodieRecord.HOODIE_META_COLUMNS.toArray(new String[0]))
            .createOrReplaceTempView("streamer_view_" + table);
        bound = bound.replace("<TABLE:" + table + ">", "streamer_view_" + table);
      }
      Dataset<Row> expected = spark.sql(bound);
      List<String> columns = Arrays.asList(expected.columns());
      Dataset<Row> actual = spark.read().format("hudi").load(target)
          .select(columns.stream().map(functions::col).toArray(Column[]::new));
      assertEquals(rows(expected), rows(actual), String.format("seed %d, round %d, checkpoint %s: the target differs "
          + "from the view's query over the tables at the checkpoint", SEED, round, checkpoint));
    }
  }

  /** Writes a table's changes: the rows inserted or updated, then deletes of the keys gone (none on the first write). */
  private static void write(SparkSession spark, String table, String path, Map<String, Object[]> before,
                            Map<String, Object[]> after, boolean columnAdded) {
    Map<String, Object[]> upserts = ViewWorkload.upserted(before, after);
    Map<String, Object[]> deletes = ViewWorkload.deleted(before, after);
    String key = String.join(",", ViewWorkload.KEYS.get(table));
    boolean mergeOnRead = table.equals("orders");
    if (!upserts.isEmpty()) {
      Dataset<Row> rows = ViewWorkload.dataset(spark, table, upserts);
      // A nullable column: Hudi takes a new column only if older records can read it as null.
      if (columnAdded && table.equals("payments")) {
        rows = rows.withColumn("note", functions.when(functions.col("paid").isNotNull(), functions.lit("added")));
      }
      save(rows, table, path, key, mergeOnRead, "upsert");
    }
    if (!deletes.isEmpty()) {
      save(ViewWorkload.dataset(spark, table, deletes), table, path, key, mergeOnRead, "delete");
    }
  }

  private static void save(Dataset<Row> rows, String table, String path, String key, boolean mergeOnRead,
                           String operation) {
    rows.write().format("hudi")
        .option("hoodie.table.name", table)
        .option("hoodie.datasource.write.table.type", mergeOnRead ? "MERGE_ON_READ" : "COPY_ON_WRITE")
        .option("hoodie.datasource.write.operation", operation)
        .option("hoodie.datasource.write.recordkey.field", key)
        .option("hoodie.datasource.write.precombine.field", key)
        .option("hoodie.datasource.write.partitionpath.field", "")
        .option("hoodie.datasource.write.keygenerator.class", NonpartitionedKeyGenerator.class.getName())
        .option("hoodie.table.cdc.enabled", table.equals("users") ? "true" : "false")
        // A view reading orders one commit a batch falls behind by about a commit a round (a round's changes are an upsert
        // and a delete): the cleaner keeps the commits of the positions it reads as of.
        .option("hoodie.cleaner.commits.retained", "30")
        .option("hoodie.keep.min.commits", "31")
        .option("hoodie.keep.max.commits", "40")
        .option("hoodie.upsert.shuffle.parallelism", "2")
        .option("hoodie.insert.shuffle.parallelism", "2")
        .option("hoodie.delete.shuffle.parallelism", "2")
        .mode(SaveMode.Append)
        .save(path);
  }

  /** A multiset of rows: their texts, sorted, duplicates kept. */
  private static List<String> rows(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }
}
