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
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;
import org.apache.hudi.utilities.sources.InputBatch;
import org.apache.hudi.utilities.streamer.HoodieStreamerMetrics;
import org.apache.hudi.utilities.testutils.ExactJoins;
import org.apache.hudi.utilities.testutils.LocalSpark;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Issue 20: views over a star schema (a fact table {@code sales}, dimensions {@code customers}, {@code products},
 * {@code stores}, and {@code regions} behind customers), each maintained by its derived incremental plan and by a full
 * recompute, side by side, over batches that change a fraction of the fact (updates, moves to other customers, inserts,
 * deletes) and of the dimensions (renames, moves to other regions and categories). Each contender writes its own target;
 * after every batch both targets must hold the same rows. AUTO's choice is recorded per batch and compared with the
 * faster contender.
 */
final class ViewsBenchmark implements Benchmark {

  /** The change of the same size at every fact row count: its rows of the fact, and of customers and of products. */
  private static final String FIXED_CHANGE = "fixed";
  private static final long FIXED_FACT_ROWS = 10_000;
  private static final long FIXED_DIMENSION_ROWS = 100;

  @Override
  public String name() {
    return "views";
  }

  @Override
  public String description() {
    return "views over a star schema: derived incremental plan vs full recompute vs an overwrite per change fraction; args: fact row "
        + "counts (default 100000); options fractions=0.0001,0.001,0.01,0.05,0.2 (a fraction of the fact and of the "
        + "dimensions, or fixed: 10 000 fact rows, 100 customers and 100 products at every size) views=all (or names, "
        + "'|'-separated) "
        + "target=COPY_ON_WRITE (or MERGE_ON_READ) buckets=0 (the targets' Bloom index; N: a bucket index of N buckets) "
        + "fact=LATEST_STATE (or CDC: the fact keeps change data and is read as CDC deltas) deletes=spread (the fact "
        + "rows deleted spread over all its ids, so over all its files; or recent: the newest ones, in its newest file)";
  }

  /** A view: its SQL over table placeholders and its target's record key. */
  private static final class View {
    private final String name;
    private final String sql;
    private final String key;

    View(String name, String key, String sql) {
      this.name = name;
      this.key = key;
      this.sql = sql;
    }
  }

  static List<View> views() {
    String salesCustomers = "FROM <TABLE:sales> s JOIN <TABLE:customers> c ON s.customer_id = c.customer_id";
    List<View> views = new ArrayList<>();
    views.add(new View("join2", "sale_id", "SELECT s.sale_id, s.amount, c.name " + salesCustomers));
    views.add(new View("join3", "sale_id", "SELECT s.sale_id, s.amount, c.name, p.category " + salesCustomers
        + " JOIN <TABLE:products> p ON s.product_id = p.product_id"));
    views.add(new View("join4", "sale_id", "SELECT s.sale_id, s.amount, c.name, p.category, t.city " + salesCustomers
        + " JOIN <TABLE:products> p ON s.product_id = p.product_id JOIN <TABLE:stores> t ON s.store_id = t.store_id"));
    views.add(new View("join5-chain", "sale_id", "SELECT s.sale_id, s.amount, c.name, r.region_name, p.category, "
        + "t.city " + salesCustomers + " JOIN <TABLE:regions> r ON c.region_id = r.region_id "
        + "JOIN <TABLE:products> p ON s.product_id = p.product_id JOIN <TABLE:stores> t ON s.store_id = t.store_id"));
    views.add(new View("left-outer", "sale_id", "SELECT s.sale_id, s.amount, c.name, r.region_name FROM <TABLE:sales> s "
        + "LEFT JOIN <TABLE:customers> c ON s.customer_id = c.customer_id "
        + "LEFT JOIN <TABLE:regions> r ON c.region_id = r.region_id"));
    views.add(new View("count-sum", "store_id", "SELECT s.store_id, count(*) AS sales, sum(s.amount) AS total "
        + "FROM <TABLE:sales> s GROUP BY s.store_id"));
    views.add(new View("avg-min-max", "category", "SELECT p.category, avg(s.amount) AS mean, min(s.amount) AS low, "
        + "max(s.amount) AS high FROM <TABLE:sales> s JOIN <TABLE:products> p ON s.product_id = p.product_id "
        + "GROUP BY p.category"));
    views.add(new View("count-distinct", "region_name", "SELECT r.region_name, count(DISTINCT s.customer_id) AS buyers "
        + salesCustomers + " JOIN <TABLE:regions> r ON c.region_id = r.region_id GROUP BY r.region_name"));
    views.add(new View("having", "customer_id", "SELECT s.customer_id, sum(s.amount) AS total, count(*) AS sales "
        + "FROM <TABLE:sales> s GROUP BY s.customer_id HAVING sum(s.amount) > 300"));
    views.add(new View("distinct", "region_id,category", "SELECT DISTINCT c.region_id, p.category " + salesCustomers
        + " JOIN <TABLE:products> p ON s.product_id = p.product_id"));
    return views;
  }

  @Override
  public void run(List<String> args, PrintStream out) throws Exception {
    SizesAndOptions options = SizesAndOptions.parse(args, 100_000,
        Map.of("fractions", "0.0001,0.001,0.01,0.05,0.2", "views", "all", "target", "COPY_ON_WRITE", "buckets", "0",
            "fact", "LATEST_STATE", "deletes", "spread"));
    SparkSession spark = LocalSpark.start("views-benchmark");
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<View> chosen = new ArrayList<>();
    for (View view : views()) {
      if (options.option("views").equals("all") || List.of(options.option("views").split("\\|")).contains(view.name)) {
        chosen.add(view);
      }
    }
    ResultTable table = new ResultTable("fact rows", "view", "fraction", "rows written incr", "incr compute ms",
        "incremental ms", "full compute ms", "full ms", "overwrite ms", "full / incremental",
        "min(full, overwrite) / incremental", "compute full / incr", "AUTO chose", "AUTO right");
    int autoRight = 0;
    int cells = 0;
    for (int facts : options.sizes()) {
      for (View view : chosen) {
        try (WorkDirectory dir = WorkDirectory.create("views-" + facts + "-" + view.name)) {
          Star star = new Star(spark, jsc, dir, facts, options.option("fact").equalsIgnoreCase("CDC"),
              options.option("deletes").equalsIgnoreCase("recent"));
          String incrTarget = dir.tablePath("target-incremental");
          String fullTarget = dir.tablePath("target-full");
          String overwriteTarget = dir.tablePath("target-overwrite");
          HudiTableWriter target = HudiTableWriter.nonPartitioned("target", view.key).withOrderingField("commit_order")
              .withTableType(options.option("target")).withoutMetadataTable();
          if (options.intOption("buckets") > 0) {
            target = target.withBucketIndex(options.intOption("buckets"));
          }
          String sqlFile = dir.sqlFile(view.sql);
          Dataset<Row> initial = star.batch(sqlFile, view.key, "FULL", Option.empty(), incrTarget).rows;
          initial.persist();
          target.write(initial, WriteOperationType.BULK_INSERT, incrTarget);
          target.write(initial, WriteOperationType.BULK_INSERT, fullTarget);
          initial.unpersist();
          target.write(star.query(view.sql), WriteOperationType.BULK_INSERT, overwriteTarget);
          for (String fraction : options.option("fractions").split(",")) {
            String checkpoint = fraction.equals(FIXED_CHANGE) ? star.change(FIXED_FACT_ROWS, FIXED_DIMENSION_ROWS)
                : star.change(Double.parseDouble(fraction));
            ViewRun auto = star.batch(sqlFile, view.key, "AUTO", Option.of(checkpoint), incrTarget);
            Timed incremental = Timed.batch(() -> star.batch(sqlFile, view.key, "STRICT", Option.of(checkpoint),
                incrTarget).rows, WriteOperationType.UPSERT, target, incrTarget);
            Timed full = Timed.batch(() -> star.batch(sqlFile, view.key, "FULL", Option.of(checkpoint), fullTarget)
                .rows, WriteOperationType.UPSERT, target, fullTarget);
            Timed overwrite = Timed.batch(() -> star.query(view.sql), WriteOperationType.INSERT_OVERWRITE_TABLE,
                target, overwriteTarget);
            double incrMs = incremental.totalMs;
            double fullMs = full.totalMs;
            star.assertSameRows(incrTarget, fullTarget, view.name);
            star.assertSameRows(overwriteTarget, fullTarget, view.name);
            // The decision reads "strategy AUTO: incremental, because ..." or "...: full recompute, because ...".
            boolean autoIncremental = auto.decision.startsWith("strategy AUTO: incremental,");
            boolean right = autoIncremental == (incrMs <= fullMs);
            autoRight += right ? 1 : 0;
            cells++;
            table.row(facts, view.name, fraction, incremental.rows, Math.round(incremental.computeMs), Math.round(incrMs),
                Math.round(full.computeMs), Math.round(fullMs), Math.round(overwrite.totalMs),
                String.format(Locale.ROOT, "%.1fx", fullMs / incrMs),
                String.format(Locale.ROOT, "%.1fx", Math.min(fullMs, overwrite.totalMs) / incrMs),
                String.format(Locale.ROOT, "%.1fx", full.computeMs / incremental.computeMs),
                autoIncremental ? "incremental" : "full", right ? "yes" : "no");
            out.printf("%d %s %s: AUTO %s%n", facts, view.name, fraction, auto.decision);
          }
        }
      }
    }
    out.println("Views: derived incremental plan (STRICT) vs full recompute (FULL) vs the query over the snapshots "
        + "written with insert_overwrite_table (overwrite), one batch per change fraction of the "
        + "fact (and of the dimensions), each contender writing into its own " + options.option("target") + " target "
        + (options.intOption("buckets") > 0 ? "(bucket index, " + options.option("buckets") + " buckets) " : "(Bloom index) ")
        + "(compute: the batch's rows computed and cached; the batch: computed and written); the targets are compared "
        + "after every batch; AUTO's choice at its default threshold; local[2]");
    out.println(table);
    out.printf("AUTO picked the faster strategy in %d of %d cases%n", autoRight, cells);
    out.println();
    out.println("The README's orders JOIN users: the view's derived plan vs the hand-written delete-aware recipe "
        + "(docs/exact-joins.md), the rows of one batch (written to Spark's noop sink), median of 3 interleaved runs "
        + "after one warm-up; delta: 500 orders updated, 500 inserted, 100 deleted, 100 users renamed, 10 deleted");
    ResultTable recipes = new ResultTable("orders", "users", "view rows", "recipe rows", "view ms", "recipe ms",
        "view / recipe");
    for (int facts : options.sizes()) {
      try (WorkDirectory dir = WorkDirectory.create("views-readme-join-" + facts)) {
        readmeJoin(spark, jsc, dir, facts, recipes);
      }
    }
    out.println(recipes);
  }

  private static void readmeJoin(SparkSession spark, JavaSparkContext jsc, WorkDirectory dir, int orders,
                                 ResultTable table) throws Exception {
    int users = orders / 10;
    String ordersPath = dir.tablePath("orders");
    String usersPath = dir.tablePath("users");
    HudiTableWriter ordersTable = HudiTableWriter.nonPartitioned("orders", "order_id");
    HudiTableWriter usersTable = HudiTableWriter.nonPartitioned("users", "user_id");
    ordersTable.write(spark.sql(ExactJoinBenchmark.ordersSql(0, orders, users, 1)), WriteOperationType.BULK_INSERT,
        ordersPath);
    usersTable.write(spark.sql(ExactJoinBenchmark.usersSql(0, users, "name", 1)), WriteOperationType.BULK_INSERT,
        usersPath);
    String checkpoint = "orders=" + CommitTimeline.lastCompletedInstant(jsc.hadoopConfiguration(), ordersPath)
        + ",users=" + CommitTimeline.lastCompletedInstant(jsc.hadoopConfiguration(), usersPath);
    ordersTable.write(spark.sql(ExactJoinBenchmark.ordersSql(orders - 500, orders + 500, users, 2)),
        WriteOperationType.UPSERT, ordersPath);
    ordersTable.write(spark.sql(ExactJoinBenchmark.ordersSql(0, 100, users, 3)), WriteOperationType.DELETE, ordersPath);
    usersTable.write(spark.sql(ExactJoinBenchmark.usersSql(0, 100, "renamed", 2)), WriteOperationType.UPSERT,
        usersPath);
    usersTable.write(spark.sql(ExactJoinBenchmark.usersSql(100, 110, "deleted", 3)), WriteOperationType.DELETE,
        usersPath);
    TypedProperties view = joinProps(ordersPath, usersPath, dir.sqlFile("SELECT o.order_id, o.user_id, o.amount, "
        + "u.user_name, greatest(o.ts, u.ts) AS ts FROM <TABLE:orders> o JOIN <TABLE:users> u ON o.user_id = u.user_id"));
    view.setProperty("hoodie.streamer.transformer.view.strategy", "STRICT");
    TypedProperties recipe = joinProps(ordersPath, usersPath, dir.sqlFile(ExactJoins.DELETE_AWARE_INNER_JOIN));
    long viewRows = joinRows(spark, jsc, view, checkpoint).count();
    long recipeRows = joinRows(spark, jsc, recipe, checkpoint).count();
    List<Double> ms = ExactJoinBenchmark.race(3, List.of(
        () -> ExactJoinBenchmark.noop(joinRows(spark, jsc, view, checkpoint)),
        () -> ExactJoinBenchmark.noop(joinRows(spark, jsc, recipe, checkpoint))));
    table.row(orders, users, viewRows, recipeRows, ms.get(0), ms.get(1), ExactJoinBenchmark.ratio(ms.get(0), ms.get(1)));
  }

  private static TypedProperties joinProps(String ordersPath, String usersPath, String sqlFile) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders,users");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", ordersPath);
    props.setProperty("hoodie.streamer.source.hudi.users.path", usersPath);
    props.setProperty("hoodie.streamer.transformer.sql.file", sqlFile);
    props.setProperty("hoodie.datasource.write.recordkey.field", "order_id");
    return props;
  }

  private static Dataset<Row> joinRows(SparkSession spark, JavaSparkContext jsc, TypedProperties props,
                                       String checkpoint) {
    InputBatch<Dataset<Row>> batch = new HoodieIncrMultiSource(props, jsc, spark, null)
        .fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
    return new MultiDatasetSqlFileTransformer().apply(jsc, spark, batch.getBatch().get(), props);
  }

  /** One contender's batch: its rows computed (and cached), then written; the times of both. */
  private static final class Timed {
    private final long rows;
    private final double computeMs;
    private final double totalMs;

    private Timed(long rows, double computeMs, double totalMs) {
      this.rows = rows;
      this.computeMs = computeMs;
      this.totalMs = totalMs;
    }

    static Timed batch(Supplier<Dataset<Row>> batch, WriteOperationType operation, HudiTableWriter target,
                       String targetPath) {
      long start = System.nanoTime();
      Dataset<Row> computed = batch.get().persist();
      long rows = computed.count();
      double computeMs = (System.nanoTime() - start) / 1e6;
      target.write(computed, operation, targetPath);
      computed.unpersist();
      return new Timed(rows, computeMs, (System.nanoTime() - start) / 1e6);
    }
  }

  private static final class ViewRun {
    private final Dataset<Row> rows;
    private final String decision;

    ViewRun(Dataset<Row> rows, String decision) {
      this.rows = rows;
      this.decision = decision;
    }
  }

  /** The star schema's tables and the batches of changes to them. */
  private static final class Star {
    private final SparkSession spark;
    private final JavaSparkContext jsc;
    private final int facts;
    private final int customers;
    private final int products;
    private final Map<String, String> paths = new LinkedHashMap<>();
    private final Map<String, HudiTableWriter> writers = new LinkedHashMap<>();
    private final boolean changeData;
    private final boolean recentDeletes;
    private int nextSale;
    private int round;

    /**
     * @param changeData    whether the fact keeps change data, and batches read it as CDC deltas
     * @param recentDeletes whether a change deletes the newest fact rows (in the fact's newest file) rather than rows
     *                      spread over all its ids
     */
    Star(SparkSession spark, JavaSparkContext jsc, WorkDirectory dir, int facts, boolean changeData,
         boolean recentDeletes) {
      this.spark = spark;
      this.changeData = changeData;
      this.recentDeletes = recentDeletes;
      this.jsc = jsc;
      this.facts = facts;
      this.customers = Math.max(100, facts / 50);
      this.products = Math.max(50, facts / 500);
      for (String table : List.of("sales", "customers", "products", "stores", "regions")) {
        String key = table.equals("sales") ? "sale_id" : table.equals("customers") ? "customer_id"
            : table.equals("products") ? "product_id" : table.equals("stores") ? "store_id" : "region_id";
        paths.put(table, dir.tablePath(table));
        HudiTableWriter writer = HudiTableWriter.nonPartitioned(table, key).withoutMetadataTable();
        writers.put(table, changeData && table.equals("sales") ? writer.withChangeData() : writer);
      }
      write("sales", salesSql(0, facts, 0), WriteOperationType.BULK_INSERT);
      write("customers", "SELECT format_string('c%08d', id) AS customer_id, concat('name', id) AS name, "
          + "format_string('r%02d', id % 20) AS region_id, 0L AS ts FROM range(0, " + customers + ")",
          WriteOperationType.BULK_INSERT);
      write("products", "SELECT format_string('p%07d', id) AS product_id, concat('cat', id % 25) AS category, "
          + "0L AS ts FROM range(0, " + products + ")", WriteOperationType.BULK_INSERT);
      write("stores", "SELECT format_string('t%03d', id) AS store_id, concat('city', id % 7) AS city, 0L AS ts "
          + "FROM range(0, 50)", WriteOperationType.BULK_INSERT);
      write("regions", "SELECT format_string('r%02d', id) AS region_id, concat('region', id) AS region_name, 0L AS ts "
          + "FROM range(0, 20)", WriteOperationType.BULK_INSERT);
      nextSale = facts;
    }

    private String salesSql(long from, long to, int version) {
      return "SELECT format_string('s%010d', id) AS sale_id, format_string('c%08d', (id * 7 + " + version + ") % "
          + customers + ") AS customer_id, format_string('p%07d', (id * 13 + " + version + ") % " + products
          + ") AS product_id, format_string('t%03d', id % 50) AS store_id, CAST((id * 31 + " + version
          + ") % 100 AS INT) AS amount, " + version + "L AS ts FROM range(" + from + ", " + to + ")";
    }

    /**
     * Changes a fraction of the fact (updated, half of them moved to another customer; a tenth as many inserted and
     * deleted) and the same fraction of customers and of products.
     *
     * @return the checkpoint before the change
     */
    String change(double fraction) {
      long dimensionStep = Math.max(1, Math.round(1 / fraction));
      return change(Math.max(1, Math.round(fraction * facts)), customers / dimensionStep, products / dimensionStep);
    }

    /** Changes as many fact rows, and of customers and products each as many dimension rows. */
    String change(long factRows, long dimensionRows) {
      return change(factRows, dimensionRows, dimensionRows);
    }

    private String change(long changed, long changedCustomers, long changedProducts) {
      String checkpoint = checkpoint();
      round++;
      long step = Math.max(1, facts / changed);
      String picked = " WHERE id % " + step + " = " + (round % step);
      write("sales", salesSql(0, facts, round) + picked, WriteOperationType.UPSERT);
      long inserted = Math.max(1, changed / 10);
      // Deleted: the newest sales before this change (as many as inserted), or one in every step * 10 ids.
      String deleted = recentDeletes ? salesSql(nextSale - inserted, nextSale, round)
          : salesSql(0, facts, round) + " WHERE id % " + (step * 10) + " = " + ((round + 1) % step);
      write("sales", salesSql(nextSale, nextSale + inserted, round), WriteOperationType.UPSERT);
      nextSale += inserted;
      write("sales", deleted, WriteOperationType.DELETE);
      long customerStep = Math.max(1, customers / Math.max(1, changedCustomers));
      long productStep = Math.max(1, products / Math.max(1, changedProducts));
      write("customers", "SELECT format_string('c%08d', id) AS customer_id, concat('renamed', id, '-', " + round
          + ") AS name, format_string('r%02d', (id + " + round + ") % 20) AS region_id, " + round + "L AS ts "
          + "FROM range(0, " + customers + ") WHERE id % " + customerStep + " = 0", WriteOperationType.UPSERT);
      write("products", "SELECT format_string('p%07d', id) AS product_id, concat('cat', (id + " + round + ") % 25) AS "
          + "category, " + round + "L AS ts FROM range(0, " + products + ") WHERE id % " + productStep + " = 0",
          WriteOperationType.UPSERT);
      return checkpoint;
    }

    private String checkpoint() {
      List<String> positions = new ArrayList<>();
      paths.forEach((table, path) -> positions.add(table + "=" + CommitTimeline.lastCompletedInstant(
          jsc.hadoopConfiguration(), path)));
      return String.join(",", positions);
    }

    private void write(String table, String sql, WriteOperationType operation) {
      writers.get(table).write(spark.sql(sql), operation, paths.get(table));
    }

    /**
     * One batch from the checkpoint (all of each table without one), through the source and the view transformer, for
     * a target (whose stored rows a full recompute deletes against, and a grouped view's state is read from).
     */
    ViewRun batch(String sqlFile, String key, String strategy, Option<String> checkpoint, String targetPath) {
      TypedProperties props = new TypedProperties();
      props.setProperty("hoodie.streamer.source.multi.hudi.tables", String.join(",", paths.keySet()));
      paths.forEach((table, path) -> {
        props.setProperty("hoodie.streamer.source.hudi." + table + ".path", path);
        props.setProperty("hoodie.streamer.source.hudi." + table + ".missing.checkpoint.strategy",
            "READ_UPTO_LATEST_COMMIT");
      });
      props.setProperty("hoodie.streamer.transformer.sql.file", sqlFile);
      props.setProperty("hoodie.streamer.transformer.view.strategy", strategy);
      props.setProperty("hoodie.datasource.write.recordkey.field", key);
      if (changeData) {
        props.setProperty("hoodie.streamer.source.hudi.sales.incr.format", "CDC");
      }
      // The source learns its target from the Streamer's ingestion metrics (off here: nothing is published).
      HoodieStreamerMetrics metrics = new HoodieStreamerMetrics(HoodieWriteConfig.newBuilder().withPath(targetPath)
          .build());
      InputBatch<Dataset<Row>> batch = new HoodieIncrMultiSource(props, jsc, spark, null, metrics)
          .fetchNext(checkpoint, Long.MAX_VALUE);
      MultiDatasetSqlFileTransformer transformer = new MultiDatasetSqlFileTransformer();
      Dataset<Row> rows = transformer.apply(jsc, spark, batch.getBatch().get(), props);
      return new ViewRun(rows, transformer.viewBatch().orElse(""));
    }

    /**
     * The view's query over the tables' latest snapshots, as a nightly job would run it to overwrite its target, with
     * the ordering field the targets share.
     */
    Dataset<Row> query(String sql) {
      String bound = sql;
      for (Map.Entry<String, String> table : paths.entrySet()) {
        String name = "views_benchmark_" + table.getKey();
        spark.read().format("hudi").load(table.getValue()).createOrReplaceTempView(name);
        bound = bound.replace("<TABLE:" + table.getKey() + ">", name);
      }
      return spark.sql(bound).withColumn("commit_order", functions.lit(0));
    }

    /** The targets hold the same rows in the columns the first has (a full recompute's also holds aggregate state). */
    void assertSameRows(String expectedTarget, String actualTarget, String view) {
      Dataset<Row> expected = data(expectedTarget);
      Dataset<Row> actual = data(actualTarget).select(Arrays.stream(expected.columns()).map(functions::col)
          .toArray(Column[]::new));
      long missing = expected.exceptAll(actual).count();
      long extra = actual.exceptAll(expected).count();
      if (missing != 0 || extra != 0) {
        throw new IllegalStateException(String.format("View %s: the incremental target differs from the recomputed "
            + "one: %d rows missing, %d extra", view, missing, extra));
      }
    }

    private Dataset<Row> data(String path) {
      Dataset<Row> rows = spark.read().format("hudi").load(path);
      return rows.drop("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key", "_hoodie_partition_path",
          "_hoodie_file_name");
    }
  }
}
