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
import org.apache.hudi.utilities.sources.HoodieIncrSource;
import org.apache.hudi.utilities.sources.InputBatch;
import org.apache.hudi.utilities.testutils.LocalSpark;
import org.apache.hudi.utilities.testutils.S3ProxyServer;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;
import org.apache.hudi.utilities.transform.SqlFileBasedTransformer;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The multi-table source on object storage: S3 through Hadoop's S3A, served by S3Proxy in its own JVM.
 * <ul>
 *   <li>Requests: the S3 requests of one batch, per table, of {@code HoodieIncrMultiSource} (both tables in one source)
 *   and of stock {@code HoodieIncrSource} (one per table), for a COPY_ON_WRITE and a MERGE_ON_READ table, each in its
 *   own bucket so that a bucket's requests are that table's, counted by S3Proxy. Four batches: the first batch of a
 *   new source with new commits, a later batch of the same source caught up, a later one with a new commit again,
 *   and the first batch of a new source caught up. A batch is fetching from the checkpoint, the SQL transformer, and
 *   evaluating every row (Spark's noop sink): every request that reading the table costs.</li>
 *   <li>Fan-out: 8 tables, each with a new commit, read by one source with {@code read.parallelism} 1 and 8, with a
 *   latency added to every S3 request by a {@link DelayingProxy} between S3A and S3Proxy.</li>
 * </ul>
 *
 * <p>Arguments: {@code [latency ms] [repetitions] [rows per table]}, default {@code 30 3 1000}; a fan-out figure is the
 * median of the repetitions after one warm-up run (which checks the rows read), the runs of both parallelisms
 * interleaved.
 */
final class S3Benchmark implements Benchmark {

  private static final String ACCESS_KEY = "benchmark-access";
  private static final String SECRET_KEY = "benchmark-secret";
  /** The goal: S3 requests a table may cost per batch in the multi-table source over stock HoodieIncrSource. */
  private static final long EXTRA_REQUESTS_GOAL = 2;
  /** The goal: parallel / sequential for 8 tables, at most. */
  private static final double FAN_OUT_GOAL = 0.35;
  private static final int FAN_OUT_TABLES = 8;
  private static final int WARM_UP_RUNS = 1;
  private static final String ROWS = "SELECT id, v, ts FROM ";

  private final List<String> defaults = List.of("30", "3", "1000");

  private WorkDirectory work;
  private SparkSession spark;
  private JavaSparkContext jsc;
  private S3ProxyServer s3;
  private String verdict;

  @Override
  public String name() {
    return "s3";
  }

  @Override
  public String description() {
    return "HoodieIncrMultiSource on S3 (S3A, S3Proxy): S3 requests per table per batch vs HoodieIncrSource (COW, MOR; "
        + "new commits, caught up), fan-out of 8 tables with injected latency, read.parallelism 8 vs 1";
  }

  @Override
  public void run(List<String> args, PrintStream out) throws Exception {
    List<String> values = new ArrayList<>(args);
    values.addAll(defaults.subList(Math.min(args.size(), defaults.size()), defaults.size()));
    long latencyMillis = Long.parseLong(values.get(0));
    int repetitions = Integer.parseInt(values.get(1));
    long rows = Long.parseLong(values.get(2));
    spark = LocalSpark.start("s3-benchmark");
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    try (WorkDirectory directory = WorkDirectory.create("s3-benchmark");
         S3ProxyServer server = S3ProxyServer.start(directory.resolve("s3proxy"), ACCESS_KEY, SECRET_KEY);
         DelayingProxy latency = DelayingProxy.start(URI.create(server.endpoint()).getPort())) {
      work = directory;
      s3 = server;
      s3.configure(jsc.hadoopConfiguration());
      out.printf(Locale.ROOT, "S3Proxy (in-memory store, own JVM) at %s through S3A; tables of %d rows, each later "
          + "commit upserts %d rows (half of them updates)%n", s3.endpoint(), rows, rows / 5);
      ResultTable requests = requests(rows);
      out.println();
      out.println("S3 requests per table in one batch (as S3Proxy received them), HoodieIncrMultiSource (both tables in "
          + "one source) vs HoodieIncrSource (one source per table); goal multi <= stock + " + EXTRA_REQUESTS_GOAL);
      out.print(requests);
      out.println();
      out.printf(Locale.ROOT, "Fan-out: %d tables of %d rows on S3, each with one new commit of %d rows, %d ms added "
          + "to every S3 request; median of %d interleaved runs after %d warm-up run; fetch = the source's fetch and "
          + "the SQL transformer, evaluate = every row through Spark's noop sink; S3 requests of the last run%n",
          FAN_OUT_TABLES, rows, rows / 5, latencyMillis, repetitions, WARM_UP_RUNS);
      out.print(fanOut(latency, latencyMillis, repetitions, rows));
      out.println(verdict);
      s3.unconfigure(jsc.hadoopConfiguration());
    }
  }

  /** One source table of the request count: its name, Hudi table type and path, in a bucket of its own. */
  private static final class Table {
    private final String name;
    private final String type;
    private final String path;

    private Table(String name, String type, String path) {
      this.name = name;
      this.type = type;
      this.path = path;
    }

    private String bucket() {
      return URI.create(path).getAuthority();
    }
  }

  private ResultTable requests(long rows) throws IOException {
    List<Table> tables = List.of(
        new Table("orders", "COPY_ON_WRITE", s3.createBucket("requests-orders") + "/orders"),
        new Table("users", "MERGE_ON_READ", s3.createBucket("requests-users") + "/users"));
    ResultTable result = new ResultTable("table", "batch", "HoodieIncrSource", "HoodieIncrMultiSource",
        "multi - stock", "goal", "stock by kind", "multi by kind");
    Map<String, String> first = new LinkedHashMap<>();
    for (Table table : tables) {
      upsert(table, 0, rows);
      first.put(table.name, lastInstant(table.path));
      upsert(table, rows / 10 * 9, rows / 5);
    }
    Contenders fresh = new Contenders(tables);
    fresh.measure("first batch, new commits", first, result);
    Map<String, String> second = latestPositions(tables);
    fresh.measure("later batch, caught up", second, result);
    for (Table table : tables) {
      upsert(table, rows, rows / 5);
    }
    fresh.measure("later batch, new commits", second, result);
    new Contenders(tables).measure("first batch, caught up", latestPositions(tables), result);
    return result;
  }

  /** A multi-table source over all tables and a stock source per table, each kept across its batches. */
  private final class Contenders {
    private final List<Table> tables;
    private final HoodieIncrMultiSource multi;
    private final Map<String, HoodieIncrSource> stock = new LinkedHashMap<>();
    private final TypedProperties multiProps;

    private Contenders(List<Table> tables) {
      this.tables = tables;
      multiProps = multiProps(tables.stream().map(table -> table.name).collect(Collectors.toList()),
          tables.stream().map(table -> table.path).collect(Collectors.toList()), 1);
      multi = new HoodieIncrMultiSource(multiProps, jsc, spark, null);
      tables.forEach(table -> stock.put(table.name, new HoodieIncrSource(stockProps(table.path), jsc, spark, null)));
    }

    /** One batch of each source from the positions; a row of requests per table. */
    private void measure(String batch, Map<String, String> positions, ResultTable result) {
      Map<String, Map<String, Long>> byMulti = requestsOf(() -> {
        String checkpoint = tables.stream().map(table -> table.name + "=" + positions.get(table.name))
            .collect(Collectors.joining(","));
        InputBatch<Dataset<Row>> read = multi.fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
        read.getBatch().ifPresent(carrier -> evaluate(new MultiDatasetSqlFileTransformer().apply(jsc, spark, carrier,
            multiProps)));
      });
      for (Table table : tables) {
        Map<String, Map<String, Long>> byStock = requestsOf(() -> {
          InputBatch<Dataset<Row>> read = stock.get(table.name).fetchNext(Option.of(positions.get(table.name)),
              Long.MAX_VALUE);
          read.getBatch().ifPresent(rows -> evaluate(new SqlFileBasedTransformer().apply(jsc, spark, rows,
              stockProps(table.path))));
        });
        long stockTotal = total(byStock.get(table.bucket()));
        long multiTotal = total(byMulti.get(table.bucket()));
        long extra = multiTotal - stockTotal;
        result.row(table.name + " (" + table.type + ")", batch, stockTotal, multiTotal, String.format(Locale.ROOT,
            "%+d", extra), (extra <= EXTRA_REQUESTS_GOAL ? "met" : "NOT met"), byStock.get(table.bucket()),
            byMulti.get(table.bucket()));
      }
    }

    private Map<String, Map<String, Long>> requestsOf(Runnable batch) {
      Map<String, Map<String, Long>> before = requestsByBucket();
      batch.run();
      Map<String, Map<String, Long>> after = requestsByBucket();
      Map<String, Map<String, Long>> sent = new LinkedHashMap<>();
      after.forEach((bucket, counts) -> {
        Map<String, Long> delta = new TreeMap<>();
        counts.forEach((kind, count) -> {
          long more = count - before.get(bucket).getOrDefault(kind, 0L);
          if (more != 0) {
            delta.put(kind, more);
          }
        });
        sent.put(bucket, delta);
      });
      return sent;
    }

    private Map<String, Map<String, Long>> requestsByBucket() {
      Map<String, Map<String, Long>> byBucket = new LinkedHashMap<>();
      for (Table table : tables) {
        try {
          byBucket.put(table.bucket(), s3.requestsTo(table.bucket()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return byBucket;
    }
  }

  private ResultTable fanOut(DelayingProxy latency, long latencyMillis, int repetitions, long rows) {
    String bucket = "fan-out";
    // Every request to this bucket passes the proxy: S3A takes a bucket's endpoint when it first opens the bucket.
    jsc.hadoopConfiguration().set("fs.s3a.bucket." + bucket + ".endpoint", latency.endpoint());
    String root = s3.createBucket(bucket);
    List<String> names = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    List<String> positions = new ArrayList<>();
    for (int i = 0; i < FAN_OUT_TABLES; i++) {
      Table table = new Table("t" + i, "COPY_ON_WRITE", root + "/t" + i);
      names.add(table.name);
      paths.add(table.path);
      upsert(table, 0, rows);
      positions.add(table.name + "=" + lastInstant(table.path));
      upsert(table, rows / 10 * 9, rows / 5);
    }
    String checkpoint = String.join(",", positions);
    long expectedRows = FAN_OUT_TABLES * (rows / 5);
    latency.delay(latencyMillis);
    int[] parallelisms = {1, FAN_OUT_TABLES};
    List<FanOutRuns> runs = List.of(new FanOutRuns(), new FanOutRuns());
    for (int run = -WARM_UP_RUNS; run < repetitions; run++) {
      for (int i = 0; i < parallelisms.length; i++) {
        TypedProperties props = multiProps(names, paths, parallelisms[i]);
        long requestsBefore = requestsTo(bucket);
        long started = System.nanoTime();
        InputBatch<Dataset<Row>> read = new HoodieIncrMultiSource(props, jsc, spark, null)
            .fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
        Dataset<Row> batch = new MultiDatasetSqlFileTransformer().apply(jsc, spark, read.getBatch().get(), props);
        long fetched = System.nanoTime();
        if (run < 0) {
          long count = batch.count();
          if (count != expectedRows) {
            throw new IllegalStateException("Cannot time the fan-out: read.parallelism " + parallelisms[i]
                + " returned " + count + " rows, not " + expectedRows);
          }
          continue;
        }
        long requestsFetching = requestsTo(bucket) - requestsBefore;
        long evaluating = System.nanoTime();
        evaluate(batch);
        long evaluated = System.nanoTime();
        runs.get(i).add(fetched - started, evaluated - evaluating, requestsFetching,
            requestsTo(bucket) - requestsBefore - requestsFetching);
      }
    }
    latency.delay(0);
    ResultTable result = new ResultTable("read.parallelism", "batch ms", "fetch ms", "evaluate ms",
        "S3 requests fetching", "S3 requests evaluating");
    for (int i = 0; i < parallelisms.length; i++) {
      FanOutRuns measured = runs.get(i);
      result.row(parallelisms[i], measured.millis(), ResultTable.medianMillis(measured.fetchNanos),
          ResultTable.medianMillis(measured.evaluateNanos), measured.requestsFetching, measured.requestsEvaluating);
    }
    double ratio = runs.get(1).millis() / runs.get(0).millis();
    verdict = String.format(Locale.ROOT, "%d tables, %d ms per request: read.parallelism %d / 1 = %.2fx (goal <= %.2f: "
        + "%s)", FAN_OUT_TABLES, latencyMillis, FAN_OUT_TABLES, ratio, FAN_OUT_GOAL, ratio <= FAN_OUT_GOAL ? "met"
        : "NOT met");
    return result;
  }

  /** The timed runs of one read.parallelism: the fetch (source and SQL) and the evaluation of every row. */
  private static final class FanOutRuns {
    private final List<Long> fetchNanos = new ArrayList<>();
    private final List<Long> evaluateNanos = new ArrayList<>();
    private final List<Long> batchNanos = new ArrayList<>();
    private long requestsFetching;
    private long requestsEvaluating;

    private void add(long fetch, long evaluate, long fetchRequests, long evaluateRequests) {
      fetchNanos.add(fetch);
      evaluateNanos.add(evaluate);
      batchNanos.add(fetch + evaluate);
      requestsFetching = fetchRequests;
      requestsEvaluating = evaluateRequests;
    }

    private double millis() {
      return ResultTable.medianMillis(batchNanos);
    }
  }

  private long requestsTo(String bucket) {
    try {
      return total(s3.requestsTo(bucket));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Upserts {@code count} rows with keys {@code k<n>}, n from {@code from}, in one commit. */
  private void upsert(Table table, long from, long count) {
    Dataset<Row> rows = spark.range(from, from + count, 1, 2)
        .selectExpr("concat('k', id) AS id", "id AS v", "id % 1000 AS ts");
    HudiTableWriter.nonPartitioned(table.name, "id").withTableType(table.type)
        .write(rows, WriteOperationType.UPSERT, table.path);
  }

  private Map<String, String> latestPositions(List<Table> tables) {
    Map<String, String> positions = new LinkedHashMap<>();
    tables.forEach(table -> positions.put(table.name, lastInstant(table.path)));
    return positions;
  }

  private TypedProperties multiProps(List<String> names, List<String> paths, int parallelism) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", String.join(",", names));
    props.setProperty("hoodie.streamer.source.multi.hudi.read.parallelism", String.valueOf(parallelism));
    IntStream.range(0, names.size()).forEach(i ->
        props.setProperty("hoodie.streamer.source.hudi." + names.get(i) + ".path", paths.get(i)));
    props.setProperty("hoodie.streamer.transformer.sql.file", sql(names.stream().map(name -> ROWS + "<SRC:" + name + ">")
        .collect(Collectors.joining(" UNION ALL "))));
    return props;
  }

  private TypedProperties stockProps(String path) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.hoodieincr.path", path);
    props.setProperty("hoodie.streamer.transformer.sql.file", sql(ROWS + "<SRC>"));
    return props;
  }

  private static void evaluate(Dataset<Row> rows) {
    rows.write().format("noop").mode(SaveMode.Overwrite).save();
  }

  private static long total(Map<String, Long> byKind) {
    return byKind.values().stream().mapToLong(Long::longValue).sum();
  }

  private String lastInstant(String path) {
    return CommitTimeline.lastCompletedInstant(jsc.hadoopConfiguration(), path);
  }

  private String sql(String text) {
    return work.sqlFile(text);
  }
}
