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
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.config.HoodieIncrSourceConfig;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.exception.HoodieReadFromSourceException;
import org.apache.hudi.utilities.sources.HoodieIncrSource;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper;
import org.apache.hudi.utilities.sources.multi.TableBatch;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.TimelineListingCounter;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import scala.collection.JavaConverters;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reading one source table: positions, caught-up tables, per-table limits, tables without commits, partition fields,
 * where the scan is planned.
 */
class TestIncrementalTableReader {

  @TempDir
  Path dir;

  @Test
  void caughtUpCopyOnWriteTableYieldsEmptyDatasetWithTheColumnsOfARead() {
    String path = dir.resolve("orders").toUri().toString();
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 1.0, 1L));
    String last = HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o2", "u1", 2.0, 2L));
    assertCaughtUpTableKeepsReadSchema("orders", path, last, 2);
  }

  @Test
  void caughtUpMergeOnReadTableYieldsEmptyDatasetWithTheColumnsOfARead() {
    String path = dir.resolve("users").toUri().toString();
    HudiTables.upsert(path, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alice", 1L));
    String last = HudiTables.upsert(path, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alicia", 2L));
    assertCaughtUpTableKeepsReadSchema("users", path, last, 1);
  }

  private void assertCaughtUpTableKeepsReadSchema(String table, String path, String lastInstant, int rowsFromStart) {
    IncrementalTableReader reader = reader(table, path, "READ_UPTO_LATEST_COMMIT", 5);
    SourceTable sourceTable = MultiTableReadConf.from(props(table, path, "READ_UPTO_LATEST_COMMIT", 5)).tables().get(0);

    TableBatch fromStart = read(reader, sourceTable, Option.empty());
    assertEquals(Option.of(lastInstant), fromStart.advancedTo());
    assertEquals(rowsFromStart, fromStart.rows().count());

    TableBatch caughtUp = read(reader, sourceTable, Option.of(lastInstant));
    assertEquals(Option.empty(), caughtUp.advancedTo());
    assertEquals(0, caughtUp.rows().count());
    assertEquals(columns(fromStart.rows().schema()), columns(caughtUp.rows().schema()));
  }

  @Test
  void tableCaughtUpByAnIncrementalReadKeepsTheColumnsOfThatRead() {
    String path = dir.resolve("users").toUri().toString();
    String first = HudiTables.upsert(path, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alice", 1L));
    String last = HudiTables.upsert(path, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alicia", 2L));
    IncrementalTableReader reader = reader("users", path, "READ_UPTO_LATEST_COMMIT", 5);
    SourceTable sourceTable = MultiTableReadConf.from(props("users", path, "READ_UPTO_LATEST_COMMIT", 5)).tables().get(0);
    assertEquals(Option.of(last), read(reader, sourceTable, Option.of(first)).advancedTo());

    Option<SourceTimeline> timeline = SourceTimeline.load(path, SharedSpark.jsc().hadoopConfiguration());
    TableBatch caughtUp;
    int propertiesReads;
    TimelineListingCounter.install(SharedSpark.jsc().hadoopConfiguration());
    try {
      caughtUp = reader.read(sourceTable, timeline, Option.of(last));
      propertiesReads = TimelineListingCounter.propertiesReads(path);
    } finally {
      TimelineListingCounter.uninstall(SharedSpark.jsc().hadoopConfiguration());
    }
    TableBatch resolved = read(reader("users", path, "READ_UPTO_LATEST_COMMIT", 5), sourceTable, Option.of(last));

    assertEquals(0, propertiesReads, "the caught-up batch read nothing: the incremental read gave the columns");
    assertEquals(Option.empty(), caughtUp.advancedTo());
    assertEquals(columns(resolved.rows().schema()), columns(caughtUp.rows().schema()),
        "the columns of a read of the latest commit");
  }

  @Test
  void caughtUpTableResolvesItsColumnsOnlyWhenTheBatchNeedsThemFromTheLatestCommitAlone() {
    String path = dir.resolve("orders").toUri().toString();
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 1.0, 1L));
    String last = HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o2", "u1", 2.0, 2L));
    TypedProperties props = props("orders", path, "READ_UPTO_LATEST_COMMIT", 5);
    SourceTable table = MultiTableReadConf.from(props).tables().get(0);
    TableBatch caughtUp;
    int instantReadsByRead;
    int instantReadsByColumns;
    int propertiesReads;
    TimelineListingCounter.install(SharedSpark.jsc().hadoopConfiguration());
    try {
      // The batch's timeline, loaded through the counting file system; what the read costs on top is counted.
      Option<SourceTimeline> timeline = SourceTimeline.load(path, SharedSpark.jsc().hadoopConfiguration());
      TimelineListingCounter.reset();
      caughtUp = reader(props).read(table, timeline, Option.of(last));
      instantReadsByRead = TimelineListingCounter.instantReads(path);
      caughtUp.rows();
      instantReadsByColumns = TimelineListingCounter.instantReads(path) - instantReadsByRead;
      propertiesReads = TimelineListingCounter.propertiesReads(path);
    } finally {
      TimelineListingCounter.uninstall(SharedSpark.jsc().hadoopConfiguration());
    }

    assertEquals(0, instantReadsByRead, "a caught-up read resolves no columns until the batch asks for its rows");
    assertEquals(1, instantReadsByColumns, "the columns come from the latest commit's metadata");
    assertEquals(0, propertiesReads, "no meta client is built for the columns");
    TableBatch fromStart = read(reader(props), table, Option.empty());
    assertEquals(columns(fromStart.rows().schema()), columns(caughtUp.rows().schema()));
  }

  /** Names, types and nullability; field metadata differs between Hudi's snapshot and incremental relations. */
  private static List<String> columns(StructType schema) {
    return Arrays.stream(schema.fields()).map(field -> field.name() + " " + field.dataType().simpleString()
        + (field.nullable() ? "" : " NOT NULL")).collect(Collectors.toList());
  }

  @Test
  void numInstantsLimitsHowFarOneReadAdvances() {
    String path = dir.resolve("orders").toUri().toString();
    String first = HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 1.0, 1L));
    String second = HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o2", "u1", 2.0, 2L));
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o3", "u1", 3.0, 3L));
    TypedProperties props = props("orders", path, "READ_UPTO_LATEST_COMMIT", 1);

    TableBatch batch = read(reader(props), MultiTableReadConf.from(props).tables().get(0), Option.of(first));

    assertEquals(Option.of(second), batch.advancedTo());
    assertEquals(List.of("o2"), batch.rows().select("order_id").collectAsList().stream()
        .map(row -> row.getString(0)).collect(Collectors.toList()));
  }

  @Test
  void tableWithoutCommitsFailsUnlessItSkipsOnSchemaFailure() throws Exception {
    String path = dir.resolve("empty").toUri().toString();
    HoodieTableMetaClient.withPropertyBuilder().setTableType(HoodieTableType.COPY_ON_WRITE).setTableName("empty")
        .initTable(SharedSpark.jsc().hadoopConfiguration(), path);

    TypedProperties failing = props("empty", path, "READ_LATEST", 5);
    HoodieReadFromSourceException failure = assertThrows(HoodieReadFromSourceException.class,
        () -> read(reader(failing), MultiTableReadConf.from(failing).tables().get(0), Option.empty()));
    assertTrue(failure.getMessage().contains("Cannot resolve the schema of table 'empty'"), failure.getMessage());
    assertTrue(failure.getMessage().contains("skip.on.schema.failure"), failure.getMessage());

    TypedProperties skipping = props("empty", path, "READ_LATEST", 5);
    skipping.setProperty("hoodie.streamer.source.hudi.empty.skip.on.schema.failure", "true");
    TableBatch skipped = read(reader(skipping), MultiTableReadConf.from(skipping).tables().get(0), Option.empty());
    assertEquals(Option.empty(), skipped.advancedTo());
    assertEquals(0, skipped.rows().columns().length);
  }

  @Test
  void deletedTableFailsUnlessItSkipsOnSchemaFailure() throws Exception {
    String path = dir.resolve("gone").toUri().toString();
    HudiTables.upsert(path, "gone", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 1.0, 1L));
    String position = HudiTables.lastCompletedInstant(path).get();
    try (Stream<Path> files = Files.walk(dir.resolve("gone"))) {
      files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
    }

    TypedProperties failing = props("gone", path, "READ_LATEST", 5);
    HoodieReadFromSourceException failure = assertThrows(HoodieReadFromSourceException.class,
        () -> read(reader(failing), MultiTableReadConf.from(failing).tables().get(0), Option.of(position)));
    assertTrue(failure.getMessage().contains("Cannot read table 'gone'") && failure.getMessage().contains("is not a Hudi table"),
        failure.getMessage());

    TypedProperties skipping = props("gone", path, "READ_LATEST", 5);
    skipping.setProperty("hoodie.streamer.source.hudi.gone.skip.on.schema.failure", "true");
    TableBatch skipped = read(reader(skipping), MultiTableReadConf.from(skipping).tables().get(0), Option.of(position));
    assertTrue(skipped.skipped());
    assertEquals(Option.empty(), skipped.advancedTo());
    assertEquals(0, skipped.rows().count());
  }

  @Test
  void copyOnWriteWindowIsReadFromItsFilesWithTheColumnsAndRowsOfTheStockReadAndPrunedByTheQuery() {
    String path = dir.resolve("orders").toUri().toString();
    String first = HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o1", "u1", 1.0, 1L), order("o2", "u2", 2.0, 1L));
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 1.5, 2L));
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o3", "u3", 3.0, 3L));
    TypedProperties props = props("orders", path, "READ_UPTO_LATEST_COMMIT", 5);

    Dataset<Row> read = read(reader(props), MultiTableReadConf.from(props).tables().get(0), Option.of(first)).rows();

    assertEquals(List.of("LogicalRelation"), leaves(read), "a Spark file scan, not Hudi's incremental relation");
    Dataset<Row> stock = stockRead(props, path, first);
    assertEquals(Arrays.asList(stock.schema().fields()), Arrays.asList(read.schema().fields()));
    assertRowsEqual(stock, read);
    Dataset<Row> orderIds = read.select("order_id");
    assertEquals(List.of("o1", "o3"), orderIds.collectAsList().stream().map(row -> row.getString(0)).sorted()
        .collect(Collectors.toList()));
    assertTrue(orderIds.queryExecution().executedPlan().toString().contains("ReadSchema: struct<_hoodie_commit_time:"
        + "string,order_id:string>"), "the scan reads the query's column and the commit time it filters on: "
        + orderIds.queryExecution().executedPlan());
  }

  @Test
  void copyOnWriteReadThroughTheStockRelationIsPlannedWhenRead() {
    String path = dir.resolve("orders").toUri().toString();
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 1.0, 1L));
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o2", "u2", 2.0, 2L));
    TypedProperties props = props("orders", path, "READ_LATEST", 5);

    // Without a position the missing-checkpoint strategy plans the read: the stock source's, through its relation.
    Dataset<Row> read = read(reader(props), MultiTableReadConf.from(props).tables().get(0), Option.empty()).rows();

    assertEquals(List.of("LogicalRDD"), leaves(read), "the scan was planned by the read, not left to the batch's query");
    assertEquals(List.of("o2"), read.select("order_id").collectAsList().stream().map(row -> row.getString(0))
        .collect(Collectors.toList()));
  }

  @Test
  void mergeOnReadReadIsLeftToTheQueryWhichPrunesItsColumns() {
    String path = dir.resolve("users").toUri().toString();
    String first = HudiTables.upsert(path, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alice", 1L));
    HudiTables.upsert(path, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alicia", 2L), user("u2", "bob", 2L));
    TypedProperties props = props("users", path, "READ_UPTO_LATEST_COMMIT", 5);

    Dataset<Row> read = read(reader(props), MultiTableReadConf.from(props).tables().get(0), Option.of(first)).rows();

    assertEquals(List.of("LogicalRelation"), leaves(read));
    assertRowsEqual(stockRead(props, path, first), read);
  }

  private static List<String> leaves(Dataset<Row> rows) {
    return JavaConverters.seqAsJavaList(rows.queryExecution().analyzed().collectLeaves()).stream()
        .map(leaf -> leaf.getClass().getSimpleName()).collect(Collectors.toList());
  }

  /** The stock source's read of one table after a position, with the job's properties. */
  private static Dataset<Row> stockRead(TypedProperties jobProps, String path, String after) {
    TypedProperties props = new TypedProperties();
    props.putAll(jobProps);
    props.setProperty(HoodieIncrSourceConfig.HOODIE_SRC_BASE_PATH.key(), path);
    props.setProperty(HoodieIncrSourceConfig.NUM_INSTANTS_PER_FETCH.key(), "5");
    return new HoodieIncrSource(props, SharedSpark.jsc(), SharedSpark.session(), null)
        .fetchNextBatch(Option.of(after), Long.MAX_VALUE).getLeft().get();
  }

  private static void assertRowsEqual(Dataset<Row> expected, Dataset<Row> actual) {
    assertEquals(expected.count(), actual.count());
    assertEquals(0, expected.exceptAll(actual).count(), "rows of the stock read missing");
    assertEquals(0, actual.exceptAll(expected).count(), "rows the stock read does not have");
  }

  @Test
  void partitionFieldsAreParsedFromThePartitionPath() {
    String path = dir.resolve("events").toUri().toString();
    SharedSpark.session().createDataFrame(Arrays.asList(order("o1", "u1", 1.0, 1L), order("o2", "u2", 2.0, 1L)), ORDERS)
        .selectExpr("*", "CASE WHEN order_id = 'o1' THEN 'eu' ELSE 'us' END AS region")
        .write().format("hudi")
        .option("hoodie.table.name", "events")
        .option("hoodie.datasource.write.recordkey.field", "order_id")
        .option("hoodie.datasource.write.precombine.field", "ts")
        .option("hoodie.datasource.write.partitionpath.field", "region")
        .option("hoodie.datasource.write.hive_style_partitioning", "true")
        .mode(SaveMode.Append).save(path);
    TypedProperties props = props("events", path, "READ_UPTO_LATEST_COMMIT", 5);
    props.setProperty("hoodie.streamer.source.hudi.events.partition.fields", "region_from_path");

    TableBatch batch = read(reader(props), MultiTableReadConf.from(props).tables().get(0), Option.empty());

    assertEquals(List.of("o1=eu", "o2=us"), batch.rows().select("order_id", "region_from_path").collectAsList()
        .stream().map(row -> row.getString(0) + "=" + row.getString(1)).sorted().collect(Collectors.toList()));
  }

  private static IncrementalTableReader reader(String table, String path, String strategy, int numInstants) {
    return reader(props(table, path, strategy, numInstants));
  }

  private static IncrementalTableReader reader(TypedProperties props) {
    return new IncrementalTableReader(props, SharedSpark.jsc(), SharedSpark.session(),
        IncrSourceHelper.getHollowCommitHandleMode(props));
  }

  /** A read with the table's timeline loaded for it, as each batch loads it. */
  private static TableBatch read(IncrementalTableReader reader, SourceTable table, Option<String> position) {
    return reader.read(table, SourceTimeline.load(table.path(), SharedSpark.jsc().hadoopConfiguration()), position);
  }

  private static TypedProperties props(String table, String path, String strategy, int numInstants) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", table);
    props.setProperty("hoodie.streamer.source.hudi." + table + ".path", path);
    props.setProperty("hoodie.streamer.source.hudi." + table + ".missing.checkpoint.strategy", strategy);
    props.setProperty("hoodie.streamer.source.hudi." + table + ".num_instants", String.valueOf(numInstants));
    return props;
  }
}
