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

import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.hudi014.RecordIndexScan;
import org.apache.hudi.utilities.hudi014.TableSnapshot;
import org.apache.hudi.utilities.testutils.LocalSpark;
import org.apache.hudi.utilities.testutils.ScannedFiles;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.noop;
import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.race;
import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.ratio;
import static org.apache.hudi.utilities.benchmarks.ExactJoinBenchmark.usersSql;
import static org.apache.spark.sql.functions.col;

/**
 * A snapshot read restricted to a delta's keys, the three ways a table allows: through the record-level index (the
 * file groups it names), through the column stats (Hudi's data skipping on {@code key IN (keys)}), and as a full scan
 * with the keys as a filter (what a table with a record-level index gets without the index path, since Hudi 0.14's data
 * skipping on such a table would use the newest index for any instant). Over a users table laid out by the key, where
 * column stats skip well, and in random order, where they cannot.
 */
final class SnapshotKeysBenchmark implements Benchmark {

  @Override
  public String name() {
    return "snapshot-keys";
  }

  @Override
  public String description() {
    return "a snapshot read by a delta's keys: record-level index vs column stats vs full scan; args: user counts "
        + "(default 1000000); options keys=10,100 (random users, seeded) file.mib=1 layout=sorted,random runs=5";
  }

  @Override
  public void run(List<String> args, PrintStream out) throws Exception {
    SizesAndOptions options = SizesAndOptions.parse(args, 1_000_000,
        Map.of("keys", "10,100", "file.mib", "1", "layout", "sorted,random", "runs", "5"));
    SparkSession spark = LocalSpark.start("snapshot-keys-benchmark");
    int fileMib = options.intOption("file.mib");
    ResultTable table = new ResultTable("users", "layout", "keys", "rows", "files", "index ms", "column stats ms",
        "full scan ms", "column stats / index", "files read index", "files read column stats");
    for (int users : options.sizes()) {
      for (String layout : options.option("layout").split(",")) {
        try (WorkDirectory dir = WorkDirectory.create("snapshot-keys-" + users)) {
          String spill = dir.resolve("spill").toString();
          String order = layout.equals("random") ? " ORDER BY hash(id)" : " ORDER BY user_id";
          Dataset<Row> rows = spark.sql(usersSql(0, users, "name", 1) + order);
          Snapshot indexed = Snapshot.write(spark, dir.tablePath("users_indexed"), rows,
              ExactJoinBenchmark.table("users", "user_id", fileMib).withColumnStats(spill).withRecordIndex());
          Snapshot stats = Snapshot.write(spark, dir.tablePath("users_stats"), rows,
              ExactJoinBenchmark.table("users", "user_id", fileMib).withColumnStats(spill));
          for (String keyCount : options.option("keys").split(",")) {
            List<Object> keys = randomUsers(users, Integer.parseInt(keyCount));
            Supplier<Dataset<Row>> byIndex = () -> RecordIndexScan.rowsWithKeys(spark, "users", indexed.path,
                indexed.instant, indexed.read(spark), "user_id", keys).get();
            Supplier<Dataset<Row>> byStats = () -> stats.read(spark).filter(col("user_id").isin(keys.toArray()));
            Supplier<Dataset<Row>> fullScan = () -> indexed.read(spark).filter(col("user_id").isin(keys.toArray()));
            long found = byIndex.get().count();
            if (found != byStats.get().count() || found != fullScan.get().count()) {
              throw new IllegalStateException("Cannot compare the reads: they find different rows for " + keys);
            }
            List<Double> ms = race(options.intOption("runs"), List.of(() -> noop(byIndex.get()),
                () -> noop(byStats.get()), () -> noop(fullScan.get())));
            table.row(users, layout, keys.size(), found, indexed.read(spark).inputFiles().length, ms.get(0), ms.get(1),
                ms.get(2), ratio(ms.get(1), ms.get(0)), ScannedFiles.filesRead(byIndex.get()),
                ScannedFiles.filesRead(byStats.get()));
          }
        }
      }
    }
    out.println("A users snapshot read by a delta's keys (median of " + options.option("runs") + " interleaved runs "
        + "after one warm-up; COPY_ON_WRITE, non-partitioned, " + fileMib + " MiB files, metadata table and column stats "
        + "on, the indexed table with a record-level index; local[2]; keys: distinct random users, seed 20261203)");
    out.println(table);
  }

  private static List<Object> randomUsers(int users, int count) {
    Random random = new Random(20261203L);
    List<Object> keys = new ArrayList<>();
    while (keys.size() < count) {
      String key = String.format("u%09d", random.nextInt(users));
      if (!keys.contains(key)) {
        keys.add(key);
      }
    }
    return keys;
  }

  /** A table written once, read as of its one commit. */
  private static final class Snapshot {
    private final String path;
    private final String instant;

    private Snapshot(String path, String instant) {
      this.path = path;
      this.instant = instant;
    }

    static Snapshot write(SparkSession spark, String path, Dataset<Row> rows, HudiTableWriter writer) {
      writer.withInputOrder().write(rows, WriteOperationType.BULK_INSERT, path);
      return new Snapshot(path, CommitTimeline.lastCompletedInstant(spark.sparkContext().hadoopConfiguration(), path));
    }

    Dataset<Row> read(SparkSession spark) {
      return TableSnapshot.asOf(spark, "users", path, Option.of(instant), spark.emptyDataFrame());
    }
  }
}
