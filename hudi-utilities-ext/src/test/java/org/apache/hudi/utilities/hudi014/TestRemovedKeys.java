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

import org.apache.hudi.DataSourceReadOptions;
import org.apache.hudi.HoodieBaseRelation;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.keygen.ComplexKeyGenerator;
import org.apache.hudi.utilities.config.DeltaFormat;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.transform.view.ViewCost;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.ScannedFiles.filesRead;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * The keys a latest-state table's window removed, read from the file groups its commits deleted from: given real
 * tables written with upserts, deletes, a key deleted and written again, a composite key, partitions, and the table
 * services that move records (clustering, compaction) or drop file groups (insert overwrite), when a view reads any
 * window of them, then its changed keys are exactly those the comparison of the whole table's keys at both ends gives
 * with the window's delta; and a window that deletes from one file group of several reads only that group.
 * Where the groups cannot be read as the snapshot reads them, the keys are compared over the whole table.
 */
class TestRemovedKeys {

  private static final StructType LINES = new StructType()
      .add("order_id", DataTypes.StringType, false)
      .add("line", DataTypes.IntegerType, false)
      .add("region", DataTypes.StringType, false)
      .add("amount", DataTypes.DoubleType)
      .add("ts", DataTypes.LongType, false);
  private static final ViewCost.Weights WEIGHTS = new ViewCost.Weights(0.7, 3.4, 16, 7, 1500);

  @TempDir
  Path dir;

  /** How a table is written: its type and the table service or index that moves its records. */
  enum Layout {
    COPY_ON_WRITE_CLUSTERED("COPY_ON_WRITE", Map.of("hoodie.clustering.inline", "true",
        "hoodie.clustering.inline.max.commits", "3",
        // See TestTableServiceSchedule: Hudi 0.14's row-writer clustering intermittently reads a group as empty.
        "hoodie.datasource.write.row.writer.enable", "false")),
    MERGE_ON_READ_COMPACTED("MERGE_ON_READ", Map.of("hoodie.compact.inline", "true",
        "hoodie.compact.inline.max.delta.commits", "3")),
    // Inserts go to the logs of the buckets' file groups: removed keys may have been written to a log only.
    MERGE_ON_READ_BUCKETS("MERGE_ON_READ", Map.of("hoodie.index.type", "BUCKET",
        "hoodie.bucket.index.num.buckets", "2"));

    private final String tableType;
    private final Map<String, String> options;

    Layout(String tableType, Map<String, String> options) {
      this.tableType = tableType;
      this.options = options;
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Layout.class)
  void changedKeysOfEveryWindowAreTheDeltaAndTheKeysOnlyTheStartHolds(Layout layout) {
    String path = dir.resolve("lines").toUri().toString();
    List<String> instants = new ArrayList<>();
    instants.add(write(path, layout, "upsert", line("o1", 1, "eu", 1), line("o1", 2, "eu", 1), line("o2", 1, "us", 1),
        line("o3", 1, "us", 1)));
    instants.add(write(path, layout, "upsert", line("o4", 1, "eu", 2), line("o5", 1, "us", 2), line("o5", 2, "us", 2),
        line("o8", 1, "ap", 2)));
    instants.add(write(path, layout, "upsert", line("o1", 2, "eu", 3), line("o6", 1, "eu", 3)));
    // The same order id on two lines: only (o1, 1) goes.
    instants.add(write(path, layout, "delete", line("o1", 1, "eu", 4)));
    instants.add(write(path, layout, "delete", line("o2", 1, "us", 5), line("o4", 1, "eu", 5)));
    // Deleted in the commit before, written again: in the table at the end of any window holding both.
    instants.add(write(path, layout, "upsert", line("o2", 1, "us", 6), line("o3", 1, "us", 6)));
    instants.add(write(path, layout, "delete", line("o6", 1, "eu", 7), line("o5", 2, "us", 7)));
    instants.add(write(path, layout, "upsert", line("o7", 1, "eu", 8)));
    // Replaces the partition's groups without counting deletes: windows holding it compare the whole table's keys.
    instants.add(write(path, layout, "insert_overwrite", line("o9", 1, "ap", 9)));
    instants.add(write(path, layout, "delete", line("o7", 1, "eu", 10)));
    // The table's commits, the clusterings and compactions the writes ran included.
    List<String> commits = HudiTables.completedCommitInstants(path);
    assertTrue(commits.size() > instants.size(), "no table service ran: " + commits);

    // Each instant's keys, read once: the windows share their ends.
    Map<String, Set<String>> keysByInstant = new HashMap<>();
    int windowsRemovingKeys = 0;
    int windowsReadByFileGroups = 0;
    for (int start = 0; start < commits.size() - 1; start++) {
      for (int end = start + 1; end < commits.size(); end++) {
        // Each commit alone, and every window from the first commit or to the last: clusterings and compactions in
        // windows of every length, deletes before and after them.
        if (end != start + 1 && start != 0 && end != commits.size() - 1) {
          continue;
        }
        String window = "(" + commits.get(start) + ", " + commits.get(end) + "]";
        Dataset<Row> delta = delta(path, commits.get(start), commits.get(end));
        ViewTableReader reader = ViewTableReader.read(SharedSpark.session(), "lines", path, DeltaFormat.LATEST_STATE,
            Option.of(commits.get(start)), Option.of(commits.get(end)), delta);
        // The keys only the start holds: the start's snapshot except the end's.
        Set<String> removed = new TreeSet<>(keysByInstant.computeIfAbsent(commits.get(start),
            instant -> keysAt(path, instant)));
        removed.removeAll(keysByInstant.computeIfAbsent(commits.get(end), instant -> keysAt(path, instant)));
        Set<String> expected = new TreeSet<>(keys(delta, "order_id", "line"));
        expected.addAll(removed);

        String cost = cost(reader);
        assertEquals(expected, new TreeSet<>(keys(reader.state().changedKeys().get(), "order_id", "line")),
            layout + ", window " + window + ", " + cost);
        windowsRemovingKeys += removed.isEmpty() ? 0 : 1;
        windowsReadByFileGroups += cost.contains("file group(s) at both states") ? 1 : 0;
      }
    }
    assertTrue(windowsRemovingKeys > 3, layout + ": " + windowsRemovingKeys + " windows removed keys");
    assertTrue(windowsReadByFileGroups > 3, layout + ": " + windowsReadByFileGroups + " windows read by file groups");
  }

  /**
   * Three file groups, a key deleted from the second: the removed keys are read from that group alone, once at each
   * end. Comparing the whole table's keys read every group's file at both ends.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"COPY_ON_WRITE", "MERGE_ON_READ"})
  void deleteFromOneFileGroupOfThreeReadsThatGroupOnly(String tableType) {
    String path = dir.resolve("orders").toUri().toString();
    Map<String, String> newGroupPerInsert = Map.of("hoodie.parquet.small.file.limit", "0");
    HudiTables.upsert(path, "orders", tableType, "order_id", HudiTables.ORDERS, newGroupPerInsert,
        HudiTables.order("a1", "u1", 1, 1), HudiTables.order("a2", "u1", 2, 1));
    String second = HudiTables.upsert(path, "orders", tableType, "order_id", HudiTables.ORDERS, newGroupPerInsert,
        HudiTables.order("b1", "u1", 1, 1), HudiTables.order("b2", "u1", 2, 1));
    String third = HudiTables.upsert(path, "orders", tableType, "order_id", HudiTables.ORDERS, newGroupPerInsert,
        HudiTables.order("c1", "u1", 1, 1), HudiTables.order("c2", "u1", 2, 1));
    String deleted = HudiTables.delete(path, "orders", tableType, "order_id", HudiTables.ORDERS,
        HudiTables.order("b2", "u1", 2, 2));
    Set<String> files = HudiTables.dataFiles(path);
    String secondGroup = files.stream().filter(file -> file.endsWith("_" + second + ".parquet")).findFirst().get()
        .split("_")[0];
    assertEquals(3, files.stream().filter(file -> file.endsWith(".parquet")).map(file -> file.split("_")[0]).distinct()
        .count(), "file groups: " + files);

    ViewTableReader reader = ViewTableReader.read(SharedSpark.session(), "orders", path, DeltaFormat.LATEST_STATE,
        Option.of(third), Option.of(deleted), delta(path, third, deleted));
    Dataset<Row> changedKeys = reader.state().changedKeys().get();

    assertEquals(Collections.singletonList("[b2]"), keys(changedKeys, "order_id"));
    assertTrue(cost(reader).contains("removed keys from 1 file group(s) at both states"), cost(reader));
    if (tableType.equals("COPY_ON_WRITE")) {
      // The group's base file before the delete and the one the delete wrote.
      assertEquals(2, filesRead(changedKeys));
      assertTrue(Arrays.stream(changedKeys.inputFiles()).allMatch(file -> file.contains(secondGroup)),
          Arrays.toString(changedKeys.inputFiles()));
    } else {
      List<String> named = filesNamedToHudi(changedKeys);
      assertFalse(named.isEmpty(), "no read of named files");
      assertTrue(named.stream().allMatch(file -> file.contains(secondGroup)), named.toString());
    }
  }

  /**
   * Hudi 0.14's read of named merge-on-read files skips a partition whose groups read were all replaced, at any
   * instant: a window whose deletes fall in a group replaced since has its removed keys found over the whole table.
   */
  @Test
  void mergeOnReadGroupReplacedSinceTheWindowIsComparedOverTheWholeTable() {
    String path = dir.resolve("lines").toUri().toString();
    String first = write(path, Layout.MERGE_ON_READ_COMPACTED, "upsert", line("o1", 1, "eu", 1), line("o2", 1, "us", 1),
        line("o3", 1, "us", 1));
    String deleted = write(path, Layout.MERGE_ON_READ_COMPACTED, "delete", line("o2", 1, "us", 2));
    write(path, Layout.MERGE_ON_READ_COMPACTED, "insert_overwrite", line("o4", 1, "us", 3));

    ViewTableReader reader = ViewTableReader.read(SharedSpark.session(), "lines", path, DeltaFormat.LATEST_STATE,
        Option.of(first), Option.of(deleted), delta(path, first, deleted));

    assertEquals(Collections.singletonList("[o2,1]"), keys(reader.state().changedKeys().get(), "order_id", "line"));
    assertTrue(cost(reader).contains("removed keys from its keys at both states"), cost(reader));
  }

  private static String write(String path, Layout layout, String operation, Row... rows) {
    Map<String, String> options = new HashMap<>(layout.options);
    options.put("hoodie.datasource.write.recordkey.field", "order_id,line");
    options.put("hoodie.datasource.write.partitionpath.field", "region");
    options.put("hoodie.datasource.write.keygenerator.class", ComplexKeyGenerator.class.getName());
    // A new file group per insert: deletes fall in some of a partition's groups.
    options.put("hoodie.parquet.small.file.limit", "0");
    SharedSpark.session().createDataFrame(Arrays.asList(rows), LINES).write().format("hudi")
        .option("hoodie.table.name", "lines")
        .option("hoodie.datasource.write.table.type", layout.tableType)
        .option("hoodie.datasource.write.operation", operation)
        .option("hoodie.datasource.write.precombine.field", "ts")
        .option("hoodie.upsert.shuffle.parallelism", "2")
        .option("hoodie.insert.shuffle.parallelism", "2")
        .option("hoodie.delete.shuffle.parallelism", "2")
        .options(options)
        .mode(SaveMode.Append)
        .save(path);
    return HudiTables.lastCompletedInstant(path).get();
  }

  private static Row line(String orderId, int line, String region, long ts) {
    return RowFactory.create(orderId, line, region, (double) line * ts, ts);
  }

  /** The window's rows as the source reads a latest-state table: Hudi's incremental query, without meta columns. */
  private static Dataset<Row> delta(String path, String fromExclusive, String toInclusive) {
    return SharedSpark.session().read().format("hudi")
        .option(DataSourceReadOptions.QUERY_TYPE().key(), DataSourceReadOptions.QUERY_TYPE_INCREMENTAL_OPT_VAL())
        .option(DataSourceReadOptions.BEGIN_INSTANTTIME().key(), fromExclusive)
        .option(DataSourceReadOptions.END_INSTANTTIME().key(), toInclusive)
        .load(path)
        .drop(HoodieRecord.HOODIE_META_COLUMNS.toArray(new String[0]));
  }

  /** The table's record keys as of an instant. */
  private static Dataset<Row> snapshot(String path, String instant) {
    return TableSnapshot.withMetaColumns(SharedSpark.session(), path, instant).select("order_id", "line");
  }

  /** The table's record keys as of an instant, as {@link #keys} gives them. */
  private static Set<String> keysAt(String path, String instant) {
    return new TreeSet<>(keys(snapshot(path, instant), "order_id", "line"));
  }

  private static List<String> keys(Dataset<Row> rows, String... keyColumns) {
    return rows.select(Arrays.stream(keyColumns).map(column -> col(column)).toArray(Column[]::new)).distinct()
        .collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }

  private static String cost(ViewTableReader reader) {
    return ViewCost.estimate(Collections.singletonList(reader.change()), false, false, false, WEIGHTS).toString();
  }

  /** The files that the query's Hudi relations were given to read by name ({@code hoodie.datasource.read.paths}). */
  private static List<String> filesNamedToHudi(Dataset<Row> query) {
    List<String> files = new ArrayList<>();
    seqAsJavaList(query.queryExecution().analyzed().collectLeaves()).forEach(leaf -> {
      if (leaf instanceof LogicalRelation && ((LogicalRelation) leaf).relation() instanceof HoodieBaseRelation) {
        scala.Option<String> named = ((HoodieBaseRelation) ((LogicalRelation) leaf).relation()).optParams()
            .get(DataSourceReadOptions.READ_PATHS().key());
        if (named.isDefined()) {
          files.addAll(Arrays.asList(named.get().split(",")));
        }
      }
    });
    return files;
  }
}
