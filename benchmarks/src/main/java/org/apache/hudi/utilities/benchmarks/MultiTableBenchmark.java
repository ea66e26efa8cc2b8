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
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;
import org.apache.hudi.utilities.transform.SqlFileBasedTransformer;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The multi-table source measured side by side, each figure also as a ratio so that machine noise cancels:
 * <ul>
 *   <li>P1 incremental promise: two tables at each size, one new commit of {@code delta} rows on each; one batch of
 *   {@code HoodieIncrMultiSource} (both tables read incrementally) vs the workaround the RFC describes, stock
 *   {@code HoodieIncrSource} on one table plus a snapshot scan of the other filtered on {@code _hoodie_commit_time}
 *   (the best it can do: told the other table's last position, which it has no place to keep);</li>
 *   <li>P2 overhead: one table through {@code HoodieIncrMultiSource} vs stock {@code HoodieIncrSource};</li>
 *   <li>P6 physical limit: the P1 batch of both tables vs plain Spark reading exactly the parquet files that the two
 *   delta commits wrote (listed from their commit metadata before the timing), the same columns and rows;</li>
 *   <li>P3 fan-out: 1, 2, 4 and 8 tables, read one after another vs all at once;</li>
 * </ul>
 * with the peak heap of each. A batch is what differs between the contenders: building the source, fetching from
 * the checkpoint, the SQL transformer, and evaluating every row and column of its output (Spark's noop sink); the
 * write of the same rows into a target is left out. Every contender is checked to return the same rows.
 *
 * <p>P1 runs once per file size: with Hudi's default of 120 MiB a table of a few million rows is a handful of files,
 * with 1 MiB it has as many files as a table about a hundred times larger has at the default, which is what a snapshot
 * scan pays for (it opens every file; parquet statistics on {@code _hoodie_commit_time} let it skip their rows). P2 and
 * P6 run once, on the tables of the first file size at the first table size.
 *
 * <p>Arguments: {@code [sizes] [delta] [repetitions] [fan-out table rows] [P1 file sizes in MiB]}, default
 * {@code 1000000,5000000 10000 15 100000 120,1}; each figure is the median of the repetitions after two warm-up runs,
 * the runs of the contenders of one comparison interleaved.
 */
final class MultiTableBenchmark implements Benchmark {

  private static final int[] FAN_OUT = {1, 2, 4, 8};
  private static final int WARM_UP_RUNS = 2;
  /** Hudi's default hoodie.parquet.max.file.size. */
  private static final int DEFAULT_FILE_MIB = 120;
  /** P1: ours at the largest size / ours at the smallest, at most. */
  private static final double GROWTH_GOAL = 1.2;
  /** P1: workaround / ours at the largest size, at least. */
  private static final double PROMISE_GOAL = 10;
  /** P2: HoodieIncrMultiSource / HoodieIncrSource on one table, at most. */
  private static final double OVERHEAD_GOAL = 1.05;
  /** P6: HoodieIncrMultiSource / plain parquet read of the delta files, at most. */
  private static final double PHYSICAL_LIMIT_GOAL = 1.5;

  private final List<String> defaults = List.of("1000000,5000000", "10000", "15", "100000", DEFAULT_FILE_MIB + ",1");

  private WorkDirectory work;
  private SparkSession spark;
  private JavaSparkContext jsc;
  private int repetitions;

  @Override
  public String name() {
    return "multi";
  }

  @Override
  public String description() {
    return "HoodieIncrMultiSource: incremental vs snapshot-scan workaround at two sizes, overhead vs HoodieIncrSource, "
        + "vs a plain parquet read of the delta files, fan-out 1-8 tables sequential vs parallel, peak heap";
  }

  @Override
  public void run(List<String> args, PrintStream out) throws Exception {
    List<String> values = new ArrayList<>(args);
    values.addAll(defaults.subList(Math.min(args.size(), defaults.size()), defaults.size()));
    long[] sizes = Arrays.stream(values.get(0).split(",")).mapToLong(Long::parseLong).toArray();
    long delta = Long.parseLong(values.get(1));
    repetitions = Integer.parseInt(values.get(2));
    long fanOutRows = Long.parseLong(values.get(3));
    int[] fileMibs = Arrays.stream(values.get(4).split(",")).mapToInt(Integer::parseInt).toArray();
    spark = LocalSpark.start("multi-benchmark");
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    out.printf(Locale.ROOT, "Sizes: %s rows per table (P1, P2, P6) written in parquet files of at most %s MiB, %d-row "
        + "delta per table and batch, fan-out tables of %d rows (P3); median of %d interleaved runs after %d warm-up "
        + "runs; peak heap = JVM heap (driver and local executors)%n", values.get(0), values.get(4), delta,
        fanOutRows, repetitions, WARM_UP_RUNS);
    try (WorkDirectory directory = WorkDirectory.create("multi-benchmark")) {
      work = directory;
      measure(sizes, delta, fanOutRows, fileMibs, out);
    }
  }

  private void measure(long[] sizes, long delta, long fanOutRows, int[] fileMibs, PrintStream out) throws Exception {
    ResultTable incremental = new ResultTable("max file MiB", "rows per table", "files per table", "ours ms",
        "workaround ms", "workaround / ours", "ours heap MiB", "workaround heap MiB");
    OneBatch oneBatch = new OneBatch();
    List<String> verdicts = new ArrayList<>();
    for (int fileMib : fileMibs) {
      verdicts.add(incrementalPromise(sizes, delta, fileMib, incremental,
          fileMib == fileMibs[0] ? Option.of(oneBatch) : Option.empty()));
    }
    ResultTable fanOut = fanOut(fanOutRows, delta);

    out.println();
    out.println("P1 incremental promise: one batch of two tables, each with one new commit of " + delta + " rows");
    out.print(incremental);
    verdicts.forEach(out::println);
    out.println();
    out.println("P2 overhead: one table, one new commit of " + delta + " rows, same SQL");
    out.print(oneBatch.overhead);
    out.println(oneBatch.overheadVerdict);
    out.println();
    out.println("P6 physical limit: one batch of two tables, each with one new commit of " + delta + " rows, vs a "
        + "plain Spark parquet read of the files those two commits wrote (same columns, same rows)");
    out.print(oneBatch.physicalLimit);
    out.println(oneBatch.physicalLimitVerdict);
    out.println();
    out.println("P3 fan-out: N tables of " + fanOutRows + " rows, each with one new commit of " + delta + " rows; "
        + "sequential = read.parallelism 1, parallel = read.parallelism N");
    out.print(fanOut);
  }

  /** P2 and P6: measured once, on the two tables of P1 at its first file size and first table size. */
  private static final class OneBatch {
    private final ResultTable overhead = new ResultTable("rows", "HoodieIncrSource ms", "HoodieIncrMultiSource ms",
        "multi / stock", "stock heap MiB", "multi heap MiB");
    private final ResultTable physicalLimit = new ResultTable("rows per table", "delta files", "parquet ms",
        "HoodieIncrMultiSource ms", "multi / parquet", "parquet heap MiB", "multi heap MiB");
    private String overheadVerdict = "";
    private String physicalLimitVerdict = "";
  }

  /**
   * P1 for one file size; and P2 and P6 on its first table size when {@code oneBatch} is given.
   *
   * @return the verdict on the goals
   */
  private String incrementalPromise(long[] sizes, long delta, int fileMib, ResultTable incremental,
                                    Option<OneBatch> oneBatch) throws Exception {
    String a = table("a_" + fileMib);
    String b = table("b_" + fileMib);
    long written = 0;
    List<Timed> ours = new ArrayList<>();
    List<Timed> workaround = new ArrayList<>();
    for (long size : sizes) {
      append(a, "a", WriteOperationType.BULK_INSERT, "k", written, size - written, fileMib);
      append(b, "b", WriteOperationType.BULK_INSERT, "k", written, size - written, fileMib);
      String positionA = lastInstant(a);
      String positionB = lastInstant(b);
      append(a, "a", WriteOperationType.INSERT, "d" + size + "-", 0, delta, fileMib);
      append(b, "b", WriteOperationType.INSERT, "d" + size + "-", 0, delta, fileMib);
      written = size;

      String checkpoint = "a=" + positionA + ",b=" + positionB;
      String bothTables = sql("SELECT id, v, ts FROM <SRC:a> UNION ALL SELECT id, v, ts FROM <SRC:b>");
      String snapshotScan = sql("CREATE OR REPLACE TEMPORARY VIEW b_snapshot USING hudi OPTIONS (path '" + b + "');\n"
          + "SELECT id, v, ts FROM <SRC> UNION ALL SELECT id, v, ts FROM b_snapshot WHERE _hoodie_commit_time > '"
          + positionB + "'");
      List<Timed> p1 = race("P1 at " + size, 2 * delta, List.of(
          () -> multiSource(List.of("a", "b"), List.of(a, b), checkpoint, bothTables, 1),
          () -> stockSource(a, positionA, snapshotScan)));
      ours.add(p1.get(0));
      workaround.add(p1.get(1));
      incremental.row(fileMib, size, parquetFiles(b), p1.get(0).millis, p1.get(1).millis,
          ratio(p1.get(1).millis, p1.get(0).millis), p1.get(0).heapMib, p1.get(1).heapMib);

      if (oneBatch.isPresent() && size == sizes[0]) {
        overhead(a, positionA, size, delta, oneBatch.get());
        physicalLimit(a, b, checkpoint, bothTables, size, delta, oneBatch.get());
      }
    }
    double oursGrowth = ours.get(ours.size() - 1).millis / ours.get(0).millis;
    double workaroundGrowth = workaround.get(workaround.size() - 1).millis / workaround.get(0).millis;
    double atLargest = workaround.get(workaround.size() - 1).millis / ours.get(ours.size() - 1).millis;
    return String.format(Locale.ROOT, "files of at most %d MiB, largest / smallest size: ours %.2fx (goal <= %.1f: "
        + "%s), workaround %.2fx; workaround / ours at the largest size %.2fx (goal >= %.0f: %s)", fileMib, oursGrowth,
        GROWTH_GOAL, met(oursGrowth <= GROWTH_GOAL), workaroundGrowth, atLargest, PROMISE_GOAL,
        met(atLargest >= PROMISE_GOAL));
  }

  /** P2: table {@code a} alone through stock HoodieIncrSource and through HoodieIncrMultiSource, same SQL. */
  private void overhead(String a, String positionA, long size, long delta, OneBatch oneBatch) throws Exception {
    String oneTable = sql("SELECT id, v, ts FROM <SRC>");
    List<Timed> p2 = race("P2 at " + size, delta, List.of(() -> stockSource(a, positionA, oneTable),
        () -> multiSource(List.of("a"), List.of(a), "a=" + positionA, oneTable, 1)));
    double multiOverStock = p2.get(1).millis / p2.get(0).millis;
    oneBatch.overhead.row(size, p2.get(0).millis, p2.get(1).millis, ratio(p2.get(1).millis, p2.get(0).millis),
        p2.get(0).heapMib, p2.get(1).heapMib);
    oneBatch.overheadVerdict = String.format(Locale.ROOT, "multi / stock %.2fx (goal <= %.2f: %s)", multiOverStock,
        OVERHEAD_GOAL, met(multiOverStock <= OVERHEAD_GOAL));
  }

  /**
   * P6: the batch of P1 over tables {@code a} and {@code b} vs plain Spark reading the parquet files written by each
   * table's newest commit (its delta), which are listed once from that commit's metadata (write stats), outside the
   * timing. Small-file handling is off, so those files hold the delta's rows and nothing else; both contenders are
   * checked to return the same rows (as a multiset) before they are timed.
   */
  private void physicalLimit(String a, String b, String checkpoint, String sqlFile, long size, long delta,
                             OneBatch oneBatch) throws Exception {
    List<String> deltaFiles = new ArrayList<>();
    for (String table : List.of(a, b)) {
      deltaFiles.addAll(CommitTimeline.filesWrittenBy(jsc.hadoopConfiguration(), table, lastInstant(table)));
    }
    String[] files = deltaFiles.toArray(new String[0]);
    Supplier<Dataset<Row>> parquet = () -> spark.read().parquet(files).select("id", "v", "ts");
    Supplier<Dataset<Row>> multi = () -> multiSource(List.of("a", "b"), List.of(a, b), checkpoint, sqlFile, 1);
    checkSameRows("P6 at " + size, parquet.get(), multi.get());
    List<Timed> p6 = race("P6 at " + size, 2 * delta, List.of(parquet, multi));
    double multiOverParquet = p6.get(1).millis / p6.get(0).millis;
    oneBatch.physicalLimit.row(size, files.length, p6.get(0).millis, p6.get(1).millis,
        ratio(p6.get(1).millis, p6.get(0).millis), p6.get(0).heapMib, p6.get(1).heapMib);
    oneBatch.physicalLimitVerdict = String.format(Locale.ROOT, "multi / parquet %.2fx (goal <= %.1f: %s)",
        multiOverParquet, PHYSICAL_LIMIT_GOAL, met(multiOverParquet <= PHYSICAL_LIMIT_GOAL));
  }

  /** Both contenders return the same rows, each as many times (Spark's exceptAll both ways). */
  private static void checkSameRows(String what, Dataset<Row> first, Dataset<Row> second) {
    long onlyFirst = first.exceptAll(second).count();
    long onlySecond = second.exceptAll(first).count();
    if (onlyFirst != 0 || onlySecond != 0) {
      throw new IllegalStateException("Cannot time " + what + ": its contenders return different rows (" + onlyFirst
          + " only from the first, " + onlySecond + " only from the second)");
    }
  }

  /** P3: 1, 2, 4 and 8 tables read one after another vs all at once. */
  private ResultTable fanOut(long rows, long delta) throws Exception {
    ResultTable fanOut = new ResultTable("tables", "sequential ms", "parallel ms", "parallel / sequential",
        "sequential / 1 table", "parallel / 1 table", "sequential heap MiB", "parallel heap MiB");
    List<String> names = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    List<String> positions = new ArrayList<>();
    for (int i = 0; i < FAN_OUT[FAN_OUT.length - 1]; i++) {
      names.add("t" + i);
      paths.add(table("t" + i));
      append(paths.get(i), names.get(i), WriteOperationType.BULK_INSERT, "k", 0, rows, DEFAULT_FILE_MIB);
      positions.add(names.get(i) + "=" + lastInstant(paths.get(i)));
      append(paths.get(i), names.get(i), WriteOperationType.INSERT, "d", 0, delta, DEFAULT_FILE_MIB);
    }
    Timed[] oneTable = null;
    for (int tables : FAN_OUT) {
      String union = sql(names.subList(0, tables).stream().map(name -> "SELECT id, v, ts FROM <SRC:" + name + ">")
          .collect(Collectors.joining(" UNION ALL ")));
      String checkpoint = String.join(",", positions.subList(0, tables));
      List<String> someNames = names.subList(0, tables);
      List<String> somePaths = paths.subList(0, tables);
      List<Timed> p3 = race("P3 with " + tables + " tables", tables * delta, List.of(
          () -> multiSource(someNames, somePaths, checkpoint, union, 1),
          () -> multiSource(someNames, somePaths, checkpoint, union, tables)));
      Timed sequential = p3.get(0);
      Timed parallel = p3.get(1);
      if (oneTable == null) {
        oneTable = new Timed[] {sequential, parallel};
      }
      fanOut.row(tables, sequential.millis, parallel.millis, ratio(parallel.millis, sequential.millis),
          ratio(sequential.millis, oneTable[0].millis), ratio(parallel.millis, oneTable[1].millis),
          sequential.heapMib, parallel.heapMib);
    }
    return fanOut;
  }

  /** One contender: median time and peak heap over the repetitions. */
  private static final class Timed {
    private final double millis;
    private final long heapMib;

    private Timed(double millis, long heapMib) {
      this.millis = millis;
      this.heapMib = heapMib;
    }
  }

  /**
   * Times contenders against each other, their runs interleaved so that they share the machine's ups and downs, after
   * checking once that each returns the expected number of rows.
   */
  private List<Timed> race(String what, long expectedRows, List<Supplier<Dataset<Row>>> contenders) throws Exception {
    List<List<Long>> nanos = new ArrayList<>();
    long[] heapMib = new long[contenders.size()];
    for (Supplier<Dataset<Row>> contender : contenders) {
      long rows = contender.get().count();
      if (rows != expectedRows) {
        throw new IllegalStateException("Cannot time " + what + ": it returned " + rows + " rows, not " + expectedRows);
      }
      nanos.add(new ArrayList<>());
    }
    for (int run = -WARM_UP_RUNS; run < repetitions; run++) {
      for (int i = 0; i < contenders.size(); i++) {
        try (HeapPeak heap = HeapPeak.start()) {
          long started = System.nanoTime();
          contenders.get(i).get().write().format("noop").mode(SaveMode.Overwrite).save();
          long elapsed = System.nanoTime() - started;
          if (run >= 0) {
            nanos.get(i).add(elapsed);
            heapMib[i] = Math.max(heapMib[i], heap.peakMib());
          }
        }
      }
    }
    List<Timed> timed = new ArrayList<>();
    for (int i = 0; i < contenders.size(); i++) {
      timed.add(new Timed(ResultTable.medianMillis(nanos.get(i)), heapMib[i]));
    }
    return timed;
  }

  private Dataset<Row> multiSource(List<String> tables, List<String> paths, String checkpoint, String sqlFile,
                                   int parallelism) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", String.join(",", tables));
    props.setProperty("hoodie.streamer.source.multi.hudi.read.parallelism", String.valueOf(parallelism));
    IntStream.range(0, tables.size()).forEach(i ->
        props.setProperty("hoodie.streamer.source.hudi." + tables.get(i) + ".path", paths.get(i)));
    props.setProperty("hoodie.streamer.transformer.sql.file", sqlFile);
    InputBatch<Dataset<Row>> batch = new HoodieIncrMultiSource(props, jsc, spark, null)
        .fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
    return new MultiDatasetSqlFileTransformer().apply(jsc, spark, batch.getBatch().get(), props);
  }

  private Dataset<Row> stockSource(String path, String checkpoint, String sqlFile) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.hoodieincr.path", path);
    props.setProperty("hoodie.streamer.transformer.sql.file", sqlFile);
    InputBatch<Dataset<Row>> batch = new HoodieIncrSource(props, jsc, spark, null)
        .fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
    return new SqlFileBasedTransformer().apply(jsc, spark, batch.getBatch().get(), props);
  }

  /**
   * Writes {@code count} rows with keys {@code <prefix><n>}, n from {@code from}, in one commit, in parquet files of at
   * most {@code maxFileMib}, small-file handling off (see {@link HudiTableWriter#withoutSmallFiles}).
   */
  private void append(String path, String table, WriteOperationType operation, String prefix, long from, long count,
                      int maxFileMib) {
    Dataset<Row> rows = spark.range(from, from + count, 1, 2)
        .selectExpr("concat('" + prefix + "', id) AS id", "id AS v", "id % 1000 AS ts");
    HudiTableWriter.nonPartitioned(table, "id").withoutSmallFiles(maxFileMib).write(rows, operation, path);
  }

  private String lastInstant(String path) {
    return CommitTimeline.lastCompletedInstant(jsc.hadoopConfiguration(), path);
  }

  /** The parquet files of a table: what a snapshot scan opens, one task each. */
  private static long parquetFiles(String table) throws IOException {
    try (Stream<Path> files = Files.walk(Paths.get(URI.create(table)))) {
      return files.filter(file -> file.toString().endsWith(".parquet")).count();
    }
  }

  private String table(String name) {
    return work.tablePath(name);
  }

  private String sql(String text) {
    return work.sqlFile(text);
  }

  private static String ratio(double numerator, double denominator) {
    return String.format(Locale.ROOT, "%.2f", numerator / denominator);
  }

  private static String met(boolean met) {
    return met ? "met" : "not met";
  }
}
