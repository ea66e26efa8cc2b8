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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.collection.Pair;
import org.apache.hudi.keygen.SimpleKeyGenerator;
import org.apache.hudi.utilities.config.HoodieIncrSourceConfig;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.sources.HoodieIncrSource;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper;
import org.apache.hudi.utilities.sources.multi.TableBatch;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Date;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import scala.collection.JavaConverters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A copy-on-write window read from its files has exactly the stock read's columns, rows and end. Given a table
 * partitioned in Hive-style folders, written with random inserts, updates and deletes, clustered and cleaned inline,
 * when windows after random positions (of random num_instants, with and without the full-table-scan fallback) are
 * read by the plugin and by the stock {@link HoodieIncrSource}, then each pair is equal, or both fail; windows whose
 * files are cleaned are read through the stock relation. Seeded ({@code -Dfile.scan.seed}, printed); more windows
 * with {@code -Dfile.scan.windows=N}. And the scan is sized as the window's rows in its files.
 */
class TestWindowFileScan {

  private static final long SEED = Long.getLong("file.scan.seed", 20261203L);
  private static final int WINDOWS = Integer.getInteger("file.scan.windows", 14);
  private static final int COMMITS = 12;

  /** Non-null and nested columns, decimals and dates: what the file reader must return as the relation does. */
  private static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("region", DataTypes.StringType, false)
      .add("amount", DataTypes.createDecimalType(10, 2))
      .add("day", DataTypes.DateType)
      .add("address", new StructType().add("city", DataTypes.StringType, false).add("zip", DataTypes.StringType), false)
      .add("ts", DataTypes.LongType, false);

  @TempDir
  Path dir;

  @Test
  void windowsReadFromTheirFilesEqualTheStockReadOverRandomWritesClusteringAndCleaning() {
    System.out.println("TestWindowFileScan seed " + SEED + " (-Dfile.scan.seed), " + WINDOWS + " windows");
    Random random = new Random(SEED);
    String path = dir.resolve("orders").toUri().toString();
    writeRandomCommits(path, random);
    List<String> commits = HudiTables.completedCommitInstants(path);
    List<String> clusterings = HudiTables.completedInstants(path, HoodieTimeline.REPLACE_COMMIT_ACTION);
    assertTrue(clusterings.size() > 0 && HudiTables.completedInstants(path, HoodieTimeline.CLEAN_ACTION).size() > 0,
        "the table was neither clustered nor cleaned (seed " + SEED + ")");

    int fromFiles = 0;
    int clusteredFromFiles = 0;
    int throughRelation = 0;
    for (int i = 0; i < WINDOWS; i++) {
      String position = commits.get(random.nextInt(commits.size() - 1));
      int numInstants = 1 + random.nextInt(3);
      boolean fullScanFallback = random.nextBoolean();
      String window = String.format("window %d after %s, num_instants %d, fallback %s (seed %d)", i, position,
          numInstants, fullScanFallback, SEED);
      TypedProperties props = props(path, numInstants, fullScanFallback);

      Pair<Option<Dataset<Row>>, String> stock = stockRead(props, path, position);
      Dataset<Row> stockRows = stock.getLeft().get();
      Exception stockFailure = failureOf(stockRows);
      if (stockFailure != null) {
        // A file of the window was cleaned and the fallback is off: Hudi's relation fails when planned.
        assertThrows(stockFailure.getClass(), () -> read(props, position).rows().count(), window + ": the stock read "
            + "failed with " + stockFailure + ", the plugin's did not");
        throughRelation++;
        continue;
      }
      TableBatch ours = read(props, position);
      assertEquals(Arrays.asList(stockRows.schema().fields()), Arrays.asList(ours.rows().schema().fields()), window);
      assertEquals(Option.of(stock.getRight()), ours.advancedTo(), window);
      assertEquals(stockRows.count(), ours.rows().count(), window);
      assertEquals(0, stockRows.exceptAll(ours.rows()).count(), window + ": rows of the stock read missing");
      assertEquals(0, ours.rows().exceptAll(stockRows).count(), window + ": rows the stock read does not have");
      if (readsFiles(ours.rows())) {
        fromFiles++;
        String end = stock.getRight();
        clusteredFromFiles += clusterings.stream().anyMatch(c -> c.compareTo(position) > 0 && c.compareTo(end) <= 0) ? 1 : 0;
      } else {
        throughRelation++;
      }
    }
    String tally = String.format("%d windows read from their files (%d with a clustering inside), %d through the stock "
        + "relation (seed %d)", fromFiles, clusteredFromFiles, throughRelation, SEED);
    System.out.println("TestWindowFileScan: " + tally);
    assertTrue(clusteredFromFiles > 0 && throughRelation > 0, "not every way of reading was tested: " + tally);
  }

  @Test
  void windowOfAFewUpdatesIsSizedAsItsRowsShareOfTheRewrittenFile() throws IOException {
    String path = dir.resolve("orders").toUri().toString();
    List<Row> orders = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      orders.add(HudiTables.order(String.format("o%04d", i), "u" + i % 50, i, 1L));
    }
    String first = HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", HudiTables.ORDERS,
        orders.toArray(new Row[0]));
    List<Row> updates = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      updates.add(HudiTables.order(String.format("o%04d", i * 100), "u0", -i, 2L));
    }
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", HudiTables.ORDERS, updates.toArray(new Row[0]));

    Dataset<Row> window = read(props(path, 5, false), first).rows();

    assertTrue(readsFiles(window));
    assertEquals(20, window.count());
    String[] files = window.inputFiles();
    assertEquals(1, files.length, "the update rewrote the table's one file");
    long fileBytes = Files.size(Paths.get(URI.create(files[0])));
    LogicalPlan scan = JavaConverters.seqAsJavaList(window.queryExecution().analyzed().collectLeaves()).get(0);
    assertEquals((long) Math.ceil(fileBytes * 20 / 2000.0), scan.stats().sizeInBytes().longValue(),
        "the 20 updated rows' share of the 2,000-row file of " + fileBytes + " bytes");
  }

  /**
   * Commits of upserts (updates and new keys), inserts and deletes into two partitions, small files merged or not;
   * every fourth commit is clustered, and the cleaner keeps three commits, so older windows lose file versions.
   */
  private static void writeRandomCommits(String path, Random random) {
    List<String> keys = new ArrayList<>();
    for (int commit = 0; commit < COMMITS; commit++) {
      String operation = keys.isEmpty() ? "insert" : List.of("upsert", "upsert", "insert", "delete").get(random.nextInt(4));
      List<Row> rows = new ArrayList<>();
      if (operation.equals("delete")) {
        for (int i = 0; i < 1 + random.nextInt(3) && !keys.isEmpty(); i++) {
          rows.add(row(keys.remove(random.nextInt(keys.size())), commit));
        }
      } else {
        for (int i = 0; i < 2 + random.nextInt(6); i++) {
          boolean update = operation.equals("upsert") && !keys.isEmpty() && random.nextBoolean();
          String key = update ? keys.get(random.nextInt(keys.size())) : "k" + commit + "_" + i;
          if (!update) {
            keys.add(key);
          }
          rows.add(row(key, commit));
        }
      }
      SharedSpark.session().createDataFrame(rows, ROWS).write().format("hudi")
          .option("hoodie.table.name", "orders")
          .option("hoodie.datasource.write.operation", operation)
          .option("hoodie.datasource.write.recordkey.field", "id")
          .option("hoodie.datasource.write.partitionpath.field", "region")
          // Folders named region=eu: Spark must not take a partition column from the files' paths.
          .option("hoodie.datasource.write.hive_style_partitioning", "true")
          .option("hoodie.datasource.write.precombine.field", "ts")
          .option("hoodie.datasource.write.keygenerator.class", SimpleKeyGenerator.class.getName())
          .option("hoodie.upsert.shuffle.parallelism", "2")
          .option("hoodie.insert.shuffle.parallelism", "2")
          .option("hoodie.delete.shuffle.parallelism", "2")
          .option("hoodie.parquet.small.file.limit", random.nextBoolean() ? "0" : "104857600")
          .option("hoodie.metadata.enable", "false")
          .option("hoodie.clustering.inline", "true")
          .option("hoodie.clustering.inline.max.commits", "4")
          // See TestTableServiceSchedule: Hudi 0.14's row-writer clustering intermittently reads a group as empty.
          .option("hoodie.datasource.write.row.writer.enable", "false")
          .option("hoodie.clean.automatic", "true")
          .option("hoodie.cleaner.commits.retained", "3")
          .option("hoodie.keep.min.commits", "40")
          .option("hoodie.keep.max.commits", "50")
          .mode(SaveMode.Append)
          .save(path);
    }
  }

  private static Row row(String key, int commit) {
    String region = Math.abs(key.hashCode()) % 2 == 0 ? "eu" : "us";
    return RowFactory.create(key, region, new BigDecimal(commit + ".25"), Date.valueOf("2026-12-0" + (1 + commit % 9)),
        RowFactory.create("city" + commit, commit % 2 == 0 ? null : "z" + commit), (long) commit);
  }

  /** Whether the rows come from a Spark file scan rather than Hudi's relation (planned or not). */
  private static boolean readsFiles(Dataset<Row> rows) {
    List<LogicalPlan> leaves = JavaConverters.seqAsJavaList(rows.queryExecution().analyzed().collectLeaves());
    return leaves.stream().allMatch(leaf -> leaf instanceof LogicalRelation
        && ((LogicalRelation) leaf).relation() instanceof HadoopFsRelation);
  }

  private static Exception failureOf(Dataset<Row> rows) {
    try {
      rows.count();
      return null;
    } catch (Exception e) {
      return e;
    }
  }

  private static TableBatch read(TypedProperties props, String position) {
    SourceTable table = MultiTableReadConf.from(props).tables().get(0);
    IncrementalTableReader reader = new IncrementalTableReader(props, SharedSpark.jsc(), SharedSpark.session(),
        IncrSourceHelper.getHollowCommitHandleMode(props));
    return reader.read(table, SourceTimeline.load(table.path(), SharedSpark.jsc().hadoopConfiguration()),
        Option.of(position));
  }

  private static Pair<Option<Dataset<Row>>, String> stockRead(TypedProperties jobProps, String path, String after) {
    TypedProperties props = new TypedProperties();
    props.putAll(jobProps);
    props.setProperty(HoodieIncrSourceConfig.HOODIE_SRC_BASE_PATH.key(), path);
    props.setProperty(HoodieIncrSourceConfig.NUM_INSTANTS_PER_FETCH.key(),
        jobProps.getString("hoodie.streamer.source.hudi.orders.num_instants"));
    return new HoodieIncrSource(props, SharedSpark.jsc(), SharedSpark.session(), null)
        .fetchNextBatch(Option.of(after), Long.MAX_VALUE);
  }

  private static TypedProperties props(String path, int numInstants, boolean fullScanFallback) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", path);
    props.setProperty("hoodie.streamer.source.hudi.orders.missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT");
    props.setProperty("hoodie.streamer.source.hudi.orders.num_instants", String.valueOf(numInstants));
    props.setProperty("hoodie.streamer.source.hudi.orders.incr.fallback.fulltablescan.enable", String.valueOf(fullScanFallback));
    props.setProperty("hoodie.datasource.read.incr.fallback.fulltablescan.enable", String.valueOf(fullScanFallback));
    return props;
  }
}
