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
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.keygen.NonpartitionedKeyGenerator;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;
import org.apache.hudi.utilities.sources.HoodieIncrSource;
import org.apache.hudi.utilities.sources.InputBatch;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 *   <li>P3 fan-out: 1, 2, 4 and 8 tables, read one after another vs all at once;</li>
 * </ul>
 * with the peak heap of each. A batch is what differs between the contenders: building the source, fetching from
 * the checkpoint, the SQL transformer, and evaluating every row and column of its output (Spark's noop sink); the
 * write of the same rows into a target is left out. Every contender is checked to return the same rows.
 *
 * <p>P1 runs once per file size: with Hudi's default of 120 MiB a table of a few million rows is a handful of files,
 * with 1 MiB it has as many files as a table about a hundred times larger has at the default, which is what a snapshot
 * scan pays for (it opens every file; parquet statistics on {@code _hoodie_commit_time} let it skip their rows).
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

  private final List<String> defaults = List.of("1000000,5000000", "10000", "15", "100000", DEFAULT_FILE_MIB + ",1");

  private Path work;
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
        + "fan-out 1-8 tables sequential vs parallel, peak heap";
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
    work = Files.createTempDirectory("multi-benchmark");
    spark = LocalSpark.start("multi-benchmark");
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    out.printf(Locale.ROOT, "Sizes: %s rows per table (P1, P2) written in parquet files of at most %s MiB, %d-row "
        + "delta per table and batch, fan-out tables of %d rows (P3); median of %d interleaved runs after %d warm-up "
        + "runs; peak heap = JVM heap (driver and local executors)%n", values.get(0), values.get(4), delta,
        fanOutRows, repetitions, WARM_UP_RUNS);

    ResultTable incremental = new ResultTable("max file MiB", "rows per table", "files per table", "ours ms",
        "workaround ms", "workaround / ours", "ours heap MiB", "workaround heap MiB");
    ResultTable overhead = new ResultTable("rows", "HoodieIncrSource ms", "HoodieIncrMultiSource ms", "multi / stock",
        "stock heap MiB", "multi heap MiB");
    List<String> verdicts = new ArrayList<>();
    for (int fileMib : fileMibs) {
      verdicts.add(incrementalPromise(sizes, delta, fileMib, incremental, fileMib == fileMibs[0] ? overhead : null));
    }
    ResultTable fanOut = fanOut(fanOutRows, delta);

    out.println();
    out.println("P1 incremental promise: one batch of two tables, each with one new commit of " + delta + " rows");
    out.print(incremental);
    verdicts.forEach(out::println);
    out.println();
    out.println("P2 overhead: one table, one new commit of " + delta + " rows, same SQL");
    out.print(overhead);
    out.println();
    out.println("P3 fan-out: N tables of " + fanOutRows + " rows, each with one new commit of " + delta + " rows; "
        + "sequential = read.parallelism 1, parallel = read.parallelism N");
    out.print(fanOut);
    deleteRecursively(work);
  }

  /** The tables of a run take gigabytes: they are not kept. */
  private static void deleteRecursively(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.delete(path);
      }
    }
  }

  /**
   * P1 for one file size, and P2 on its first table size when {@code overhead} is given.
   *
   * @return the verdict on the goals
   */
  private String incrementalPromise(long[] sizes, long delta, int fileMib, ResultTable incremental,
                                    ResultTable overhead) throws Exception {
    String a = table("a_" + fileMib);
    String b = table("b_" + fileMib);
    long written = 0;
    List<Timed> ours = new ArrayList<>();
    List<Timed> workaround = new ArrayList<>();
    for (long size : sizes) {
      append(a, "a", "bulk_insert", "k", written, size - written, fileMib);
      append(b, "b", "bulk_insert", "k", written, size - written, fileMib);
      String positionA = lastInstant(a);
      String positionB = lastInstant(b);
      append(a, "a", "insert", "d" + size + "-", 0, delta, fileMib);
      append(b, "b", "insert", "d" + size + "-", 0, delta, fileMib);
      written = size;

      String bothTables = sql("SELECT id, v, ts FROM <SRC:a> UNION ALL SELECT id, v, ts FROM <SRC:b>");
      String snapshotScan = sql("CREATE OR REPLACE TEMPORARY VIEW b_snapshot USING hudi OPTIONS (path '" + b + "');\n"
          + "SELECT id, v, ts FROM <SRC> UNION ALL SELECT id, v, ts FROM b_snapshot WHERE _hoodie_commit_time > '"
          + positionB + "'");
      List<Timed> p1 = race("P1 at " + size, 2 * delta, List.of(
          () -> multiSource(List.of("a", "b"), List.of(a, b), "a=" + positionA + ",b=" + positionB, bothTables, 1),
          () -> stockSource(a, positionA, snapshotScan)));
      ours.add(p1.get(0));
      workaround.add(p1.get(1));
      incremental.row(fileMib, size, parquetFiles(b), p1.get(0).millis, p1.get(1).millis,
          ratio(p1.get(1).millis, p1.get(0).millis), p1.get(0).heapMib, p1.get(1).heapMib);

      if (overhead != null && size == sizes[0]) {
        String oneTable = sql("SELECT id, v, ts FROM <SRC>");
        List<Timed> p2 = race("P2 at " + size, delta, List.of(() -> stockSource(a, positionA, oneTable),
            () -> multiSource(List.of("a"), List.of(a), "a=" + positionA, oneTable, 1)));
        overhead.row(size, p2.get(0).millis, p2.get(1).millis, ratio(p2.get(1).millis, p2.get(0).millis),
            p2.get(0).heapMib, p2.get(1).heapMib);
      }
    }
    double oursGrowth = ours.get(ours.size() - 1).millis / ours.get(0).millis;
    double workaroundGrowth = workaround.get(workaround.size() - 1).millis / workaround.get(0).millis;
    double atLargest = workaround.get(workaround.size() - 1).millis / ours.get(ours.size() - 1).millis;
    return String.format(Locale.ROOT, "files of at most %d MiB, largest / smallest size: ours %.2fx (goal <= 1.2: %s), "
        + "workaround %.2fx; workaround / ours at the largest size %.2fx (goal >= 10: %s)", fileMib, oursGrowth,
        met(oursGrowth <= 1.2), workaroundGrowth, atLargest, met(atLargest >= 10));
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
      append(paths.get(i), names.get(i), "bulk_insert", "k", 0, rows, DEFAULT_FILE_MIB);
      positions.add(names.get(i) + "=" + lastInstant(paths.get(i)));
      append(paths.get(i), names.get(i), "insert", "d", 0, delta, DEFAULT_FILE_MIB);
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
   * most {@code maxFileMib}. Small-file handling is off, so that a commit's rows land in new files, as an append-only
   * table's do: a commit that rewrote old files would make an incremental read scan those too.
   */
  private void append(String path, String table, String operation, String prefix, long from, long count,
                      int maxFileMib) {
    spark.range(from, from + count, 1, 2)
        .selectExpr("concat('" + prefix + "', id) AS id", "id AS v", "id % 1000 AS ts")
        .write().format("hudi")
        .options(Map.of("hoodie.table.name", table,
            "hoodie.datasource.write.operation", operation,
            "hoodie.datasource.write.recordkey.field", "id",
            "hoodie.datasource.write.precombine.field", "ts",
            "hoodie.datasource.write.partitionpath.field", "",
            "hoodie.datasource.write.keygenerator.class", NonpartitionedKeyGenerator.class.getName(),
            "hoodie.bulkinsert.shuffle.parallelism", "2",
            "hoodie.insert.shuffle.parallelism", "2",
            "hoodie.parquet.small.file.limit", "0",
            "hoodie.parquet.max.file.size", String.valueOf(maxFileMib * 1024L * 1024L)))
        .mode(SaveMode.Append).save(path);
  }

  private String lastInstant(String path) {
    return HoodieTableMetaClient.builder().setConf(jsc.hadoopConfiguration()).setBasePath(path)
        .setLoadActiveTimelineOnLoad(true).build().getCommitsTimeline().filterCompletedInstants().lastInstant().get()
        .getTimestamp();
  }

  /** The parquet files of a table: what a snapshot scan opens, one task each. */
  private static long parquetFiles(String table) throws IOException {
    try (Stream<Path> files = Files.walk(Paths.get(URI.create(table)))) {
      return files.filter(file -> file.toString().endsWith(".parquet")).count();
    }
  }

  private String table(String name) {
    return work.resolve(name).toUri().toString();
  }

  private String sql(String text) {
    try {
      Path file = Files.createTempFile(work, "batch", ".sql");
      Files.writeString(file, text);
      return file.toUri().toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String ratio(double numerator, double denominator) {
    return String.format(Locale.ROOT, "%.2f", numerator / denominator);
  }

  private static String met(boolean met) {
    return met ? "met" : "not met";
  }
}
