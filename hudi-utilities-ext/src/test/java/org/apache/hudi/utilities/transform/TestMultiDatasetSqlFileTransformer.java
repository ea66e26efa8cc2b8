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

package org.apache.hudi.utilities.transform;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.exception.HoodieTransformException;
import org.apache.hudi.utilities.exception.HoodieTransformExecutionException;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.ScannedFiles;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalog.Table;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of the multi-dataset SQL file transformer: parity with the stock {@link SqlFileBasedTransformer} for
 * one dataset, placeholders for several, no temp view left behind, and errors found before any statement runs.
 */
class TestMultiDatasetSqlFileTransformer {

  private static final String SQL_FILE_KEY = "hoodie.streamer.transformer.sql.file";
  private static final String TABLES_KEY = "hoodie.streamer.source.multi.hudi.tables";
  private static final String SOURCE_VIEW_PREFIX = "hoodie_src_tmp_table_";

  private static final StructType ORDERS = new StructType()
      .add("order_id", DataTypes.LongType)
      .add("user_id", DataTypes.StringType)
      .add("amount", DataTypes.DoubleType);

  /** Shares the column name {@code amount} with orders, with another type. */
  private static final StructType USERS = new StructType()
      .add("user_id", DataTypes.StringType)
      .add("user_name", DataTypes.StringType)
      .add("amount", DataTypes.StringType);

  private static final String JOIN_SQL = "SELECT o.order_id, u.user_name, t.amount AS tier\n"
      + "FROM <SRC_0> o JOIN <SRC:users> u ON o.user_id = u.user_id JOIN <SRC_1> t ON t.user_id = u.user_id";

  private static final List<String> JOINED_ROWS = List.of("[1,alice,gold]", "[2,bob,silver]", "[3,alice,gold]");

  @TempDir
  Path dir;

  private SparkSession spark;
  private JavaSparkContext jsc;
  private Dataset<Row> orders;
  private Dataset<Row> users;

  @BeforeEach
  void createDatasets() {
    spark = SharedSpark.session();
    jsc = SharedSpark.jsc();
    orders = spark.createDataFrame(List.of(
        RowFactory.create(1L, "u1", 10.0),
        RowFactory.create(2L, "u2", 20.0),
        RowFactory.create(3L, "u1", 30.0),
        RowFactory.create(4L, "u9", 40.0)), ORDERS);
    users = spark.createDataFrame(List.of(
        RowFactory.create("u1", "alice", "gold"),
        RowFactory.create("u2", "bob", "silver")), USERS);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Parity with the stock SqlFileBasedTransformer for a single dataset.
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void multiStatementFileOnOneDatasetGivesTheSameRowsAndSchemaAsTheStockTransformer() throws IOException {
    TypedProperties props = sqlFileProps("CACHE TABLE tmp_big AS SELECT * FROM <SRC> WHERE amount > 10;\n"
        + "SELECT user_id, count(*) c FROM tmp_big GROUP BY user_id");

    Dataset<Row> ours = new MultiDatasetSqlFileTransformer().apply(jsc, spark, orders, props);
    List<String> ourRows = sortedRows(ours);
    try {
      Dataset<Row> stock = new SqlFileBasedTransformer().apply(jsc, spark, orders, props);

      assertEquals(sortedRows(stock), ourRows);
      assertEquals(stock.schema(), ours.schema());
      assertEquals(List.of("[u1,1]", "[u2,1]", "[u9,1]"), ourRows);
    } finally {
      // The stock transformer leaves the view of CACHE TABLE behind.
      spark.sql("DROP VIEW IF EXISTS tmp_big");
    }
  }

  @Test
  void singleSelectOnOneDatasetGivesTheSameRowsAndSchemaAsTheStockTransformer() throws IOException {
    TypedProperties props = sqlFileProps("SELECT user_id, amount * 2 AS doubled FROM <SRC> WHERE amount >= 20");

    Dataset<Row> ours = new MultiDatasetSqlFileTransformer().apply(jsc, spark, orders, props);
    Dataset<Row> stock = new SqlFileBasedTransformer().apply(jsc, spark, orders, props);

    assertEquals(sortedRows(stock), sortedRows(ours));
    assertEquals(stock.schema(), ours.schema());
    assertEquals(List.of("[u1,60.0]", "[u2,40.0]", "[u9,80.0]"), sortedRows(ours));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Several datasets.
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void joinsTheDatasetsOfACarrierReferencedByIndexAndByTableName() throws IOException {
    TypedProperties props = sqlFileProps(JOIN_SQL);
    props.setProperty(TABLES_KEY, "orders,users");

    Dataset<Row> joined = new MultiDatasetSqlFileTransformer().apply(jsc, spark, carrier(), props);

    assertEquals(List.of("order_id", "user_name", "tier"), Arrays.asList(joined.columns()));
    assertEquals(JOINED_ROWS, sortedRows(joined));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Snapshots joined with a delta are read by the delta's keys.
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void snapshotJoinedOnItsRecordKeyIsReadThroughTheRecordLevelIndexAndTheDeltaIsKeptForTheBatch() throws IOException {
    // Given users with a record-level index, in four file groups of one commit each, and orders of three of them.
    String usersPath = dir.resolve("users").toUri().toString();
    Map<String, String> recordIndex = Map.of("hoodie.metadata.enable", "true", "hoodie.metadata.record.index.enable",
        "true", "hoodie.index.type", "RECORD_INDEX", "hoodie.parquet.small.file.limit", "0");
    HudiTables.upsert(usersPath, "users", "COPY_ON_WRITE", "user_id", HudiTables.USERS, recordIndex,
        HudiTables.user("u1", "alice", 1L));
    HudiTables.upsert(usersPath, "users", "COPY_ON_WRITE", "user_id", HudiTables.USERS, recordIndex,
        HudiTables.user("u2", "bob", 1L));
    HudiTables.upsert(usersPath, "users", "COPY_ON_WRITE", "user_id", HudiTables.USERS, recordIndex,
        HudiTables.user("u3", "carol", 1L));
    String latest = HudiTables.upsert(usersPath, "users", "COPY_ON_WRITE", "user_id", HudiTables.USERS, recordIndex,
        HudiTables.user("u9", "ivan", 1L));
    TypedProperties props = sqlFileProps("SELECT o.order_id, u.user_name FROM <SRC:orders> o "
        + "JOIN <SNAP:users> u ON o.user_id = u.user_id");
    props.setProperty(TABLES_KEY, "orders,users");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", dir.resolve("orders").toUri().toString());
    props.setProperty("hoodie.streamer.source.hudi.users.path", usersPath);
    Dataset<Row> usersRead = spark.createDataFrame(List.of(), HudiTables.USERS);
    MultiDatasetBatch batch = new MultiDatasetBatch(List.of(orders, usersRead), Option.of(new CarrierManifest(
        List.of("orders", "users"), List.of(), Map.of(), Map.of("users", latest))));
    MultiDatasetSqlFileTransformer transformer = new MultiDatasetSqlFileTransformer();

    // When the batch is transformed, then the join reads the three files that hold u1, u2 and u9, not carol's.
    Dataset<Row> joined = transformer.apply(jsc, spark, batch, props);
    assertEquals(List.of("[1,alice]", "[2,bob]", "[3,alice]", "[4,ivan]"), sortedRows(joined));
    assertEquals(3, ScannedFiles.filesRead(joined));

    // The delta, read for its keys, stays persisted for the batch's write, and is dropped when the next batch comes.
    assertNotEquals(StorageLevel.NONE(), orders.storageLevel());
    transformer.apply(jsc, spark, batch.datasets(), sqlFileProps("SELECT * FROM <SRC_0>"));
    assertEquals(StorageLevel.NONE(), orders.storageLevel());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Temp views are dropped when the batch is done.
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void leavesNoTempViewBehindAfterASuccessfulBatch() throws IOException {
    TypedProperties props = sqlFileProps(viewCreatingStatements()
        + "SELECT c.order_id, g.x FROM cleanup_c c CROSS JOIN global_temp.cleanup_g g");
    props.setProperty(TABLES_KEY, "orders,users");
    Set<String> viewsBefore = tempViews();

    Dataset<Row> result = new MultiDatasetSqlFileTransformer().apply(jsc, spark, carrier(), props);

    assertEquals(List.of("[1,1]", "[2,1]", "[3,1]"), sortedRows(result));
    assertNoViewLeftBehind(viewsBefore);
  }

  @Test
  void leavesNoTempViewBehindWhenTheLastStatementFails() throws IOException {
    TypedProperties props = sqlFileProps(viewCreatingStatements() + "SELECT no_such_column FROM cleanup_c");
    props.setProperty(TABLES_KEY, "orders,users");
    Set<String> viewsBefore = tempViews();

    Exception error = assertThrows(Exception.class,
        () -> new MultiDatasetSqlFileTransformer().apply(jsc, spark, carrier(), props));

    assertTrue(error.getMessage().contains("no_such_column"), error.getMessage());
    assertNoViewLeftBehind(viewsBefore);
  }

  @Test
  void runsAFileThatCreatesATempViewWithoutOrReplaceInTwoBatchesInARow() throws IOException {
    TypedProperties props = sqlFileProps("CREATE TEMPORARY VIEW staged_twice AS SELECT * FROM <SRC> WHERE amount > 15;\n"
        + "SELECT count(*) AS n FROM staged_twice");
    Set<String> viewsBefore = tempViews();
    MultiDatasetSqlFileTransformer transformer = new MultiDatasetSqlFileTransformer();

    Dataset<Row> first = transformer.apply(jsc, spark, orders, props);
    assertEquals(List.of("[3]"), sortedRows(first));
    Dataset<Row> second = transformer.apply(jsc, spark, orders.filter("amount > 25"), props);
    assertEquals(List.of("[2]"), sortedRows(second));

    assertNoViewLeftBehind(viewsBefore);
  }

  @Test
  void failedCreateTempViewDoesNotDropTheSessionsViewOfTheSameName() throws IOException {
    spark.sql("CREATE TEMPORARY VIEW preexisting_lookup AS SELECT 'kept' AS marker");
    try {
      TypedProperties props = sqlFileProps("CREATE TEMPORARY VIEW preexisting_lookup AS SELECT * FROM <SRC>;\n"
          + "SELECT * FROM preexisting_lookup");

      // The statement fails because the view exists: the file created no view, so it must not drop one.
      assertThrows(Exception.class, () -> new MultiDatasetSqlFileTransformer().apply(jsc, spark, orders, props));

      assertTrue(spark.catalog().tableExists("preexisting_lookup"),
          "the transformer dropped a temp view that existed before the batch and that the file did not create");
    } finally {
      spark.catalog().dropTempView("preexisting_lookup");
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Errors found before any statement runs.
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void indexPlaceholderBeyondTheDatasetsFailsBeforeAnyStatementRuns() throws IOException {
    TypedProperties props = sqlFileProps(statementsThatMustNotRun() + "SELECT * FROM <SRC_5>");
    Set<String> viewsBefore = tempViews();

    Exception error = assertThrows(IllegalArgumentException.class,
        () -> new MultiDatasetSqlFileTransformer().apply(jsc, spark, carrier(), props));

    assertTrue(error.getMessage().contains("<SRC_5>"), error.getMessage());
    assertNoStatementRan();
    assertNoViewLeftBehind(viewsBefore);
  }

  @Test
  void namePlaceholderOfAnUnknownTableFailsBeforeAnyStatementRuns() throws IOException {
    TypedProperties props = sqlFileProps(statementsThatMustNotRun() + "SELECT * FROM <SRC:nope>");
    props.setProperty(TABLES_KEY, "orders,users");
    Set<String> viewsBefore = tempViews();

    Exception error = assertThrows(IllegalArgumentException.class,
        () -> new MultiDatasetSqlFileTransformer().apply(jsc, spark, carrier(), props));

    assertTrue(error.getMessage().contains("<SRC:nope>"), error.getMessage());
    assertTrue(error.getMessage().contains("<SRC:users>"), error.getMessage());
    assertNoStatementRan();
    assertNoViewLeftBehind(viewsBefore);
  }

  @Test
  void missingSqlFileKeyIsRejectedNamingTheKey() {
    Exception error = assertThrows(HoodieTransformException.class,
        () -> new MultiDatasetSqlFileTransformer().apply(jsc, spark, orders, new TypedProperties()));

    assertTrue(error.getMessage().contains(SQL_FILE_KEY), error.getMessage());
  }

  @Test
  void nonexistentSqlFileIsRejectedNamingThePath() {
    String missing = dir.resolve("does_not_exist.sql").toAbsolutePath().toString();
    TypedProperties props = new TypedProperties();
    props.setProperty(SQL_FILE_KEY, missing);
    Set<String> viewsBefore = tempViews();

    Exception error = assertThrows(HoodieTransformExecutionException.class,
        () -> new MultiDatasetSqlFileTransformer().apply(jsc, spark, orders, props));

    assertTrue(error.getMessage().contains(missing), error.getMessage());
    assertNoViewLeftBehind(viewsBefore);
  }

  @Test
  void datasetCountDifferentFromTheConfiguredTableCountFailsBeforeAnyStatementRuns() throws IOException {
    TypedProperties props = sqlFileProps(statementsThatMustNotRun() + "SELECT * FROM <SRC_0>");
    props.setProperty(TABLES_KEY, "orders,users,items");
    Set<String> viewsBefore = tempViews();

    Exception error = assertThrows(HoodieTransformException.class,
        () -> new MultiDatasetSqlFileTransformer().apply(jsc, spark, carrier(), props));

    assertTrue(error.getMessage().contains("2 datasets"), error.getMessage());
    assertTrue(error.getMessage().contains(TABLES_KEY), error.getMessage());
    assertNoStatementRan();
    assertNoViewLeftBehind(viewsBefore);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Inside the stock transformer chains.
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void worksInsideTheErrorTableAwareChainAndKeepsTheCorruptRecordColumn() throws IOException {
    TypedProperties props = sqlFileProps(JOIN_SQL);
    props.setProperty(TABLES_KEY, "orders,users");
    Transformer chain = new ErrorTableAwareChainedTransformer(List.of(new MultiDatasetSqlFileTransformer()));

    Dataset<Row> result = chain.apply(jsc, spark, carrier(), props);

    assertEquals(List.of("order_id", "user_name", "tier", "_corrupt_record"), Arrays.asList(result.columns()));
    assertEquals(List.of("[1,alice,gold,null]", "[2,bob,silver,null]", "[3,alice,gold,null]"), sortedRows(result));
  }

  @Test
  void stockSqlQueryTransformerMayFollowItInTheErrorTableAwareChain() throws IOException {
    TypedProperties props = sqlFileProps(JOIN_SQL);
    props.setProperty(TABLES_KEY, "orders,users");
    props.setProperty("hoodie.streamer.transformer.sql", "SELECT *, 1 AS one FROM <SRC>");
    Transformer chain = new ErrorTableAwareChainedTransformer(
        List.of(new MultiDatasetSqlFileTransformer(), new SqlQueryBasedTransformer()));

    Dataset<Row> result = chain.apply(jsc, spark, carrier(), props);

    assertEquals(List.of("order_id", "user_name", "tier", "_corrupt_record", "one"), Arrays.asList(result.columns()));
    assertEquals(List.of("[1,alice,gold,null,1]", "[2,bob,silver,null,1]", "[3,alice,gold,null,1]"),
        sortedRows(result));
  }

  @Test
  void stockSqlQueryTransformerMayFollowItInAPlainChain() throws IOException {
    TypedProperties props = sqlFileProps(JOIN_SQL);
    props.setProperty(TABLES_KEY, "orders,users");
    props.setProperty("hoodie.streamer.transformer.sql", "SELECT *, 1 AS one FROM <SRC>");
    Transformer chain = new ChainedTransformer(
        List.of(new MultiDatasetSqlFileTransformer(), new SqlQueryBasedTransformer()));

    Dataset<Row> result = chain.apply(jsc, spark, carrier(), props);

    assertEquals(List.of("order_id", "user_name", "tier", "one"), Arrays.asList(result.columns()));
    assertEquals(List.of("[1,alice,gold,1]", "[2,bob,silver,1]", "[3,alice,gold,1]"), sortedRows(result));
  }

  // ---------------------------------------------------------------------------------------------------------------

  private Dataset<Row> carrier() {
    return MultiDatasetCarrier.pack(List.of(orders, users),
        new CarrierManifest(List.of("orders", "users"), List.of(), Map.of(), Map.of()));
  }

  private TypedProperties sqlFileProps(String sql) throws IOException {
    Path file = Files.createTempFile(dir, "transform", ".sql");
    Files.write(file, sql.getBytes(StandardCharsets.UTF_8));
    TypedProperties props = new TypedProperties();
    props.setProperty(SQL_FILE_KEY, file.toAbsolutePath().toString());
    return props;
  }

  /** One statement of each form that creates a view, over both datasets. */
  private static String viewCreatingStatements() {
    return "CREATE TEMPORARY VIEW cleanup_a AS SELECT * FROM <SRC_0> WHERE user_id IN (SELECT user_id FROM <SRC_1>);\n"
        + "CREATE OR REPLACE TEMP VIEW cleanup_b AS SELECT * FROM cleanup_a;\n"
        + "CACHE TABLE cleanup_c AS SELECT * FROM cleanup_b;\n"
        + "CREATE GLOBAL TEMPORARY VIEW cleanup_g AS SELECT 1 AS x;\n";
  }

  /** Statements with effects the transformer would not undo, to prove that none ran. */
  private static String statementsThatMustNotRun() {
    return "CREATE TEMPORARY VIEW should_not_exist AS SELECT 1;\n"
        + "SET hudi.ext.test.statement.ran=true;\n";
  }

  private void assertNoStatementRan() {
    assertFalse(spark.catalog().tableExists("should_not_exist"));
    assertFalse(spark.conf().contains("hudi.ext.test.statement.ran"));
  }

  /** Names of the session's temp views and of the global temp views, lower case. */
  private Set<String> tempViews() {
    Set<String> views = new HashSet<>();
    for (Table table : spark.catalog().listTables().collectAsList()) {
      if (table.isTemporary()) {
        views.add(table.name().toLowerCase(Locale.ROOT));
      }
    }
    String globalDb = spark.conf().get("spark.sql.globalTempDatabase");
    try {
      for (Table table : spark.catalog().listTables(globalDb).collectAsList()) {
        if (table.isTemporary() && globalDb.equalsIgnoreCase(table.database())) {
          views.add(globalDb + "." + table.name().toLowerCase(Locale.ROOT));
        }
      }
    } catch (AnalysisException e) {
      throw new IllegalStateException("Cannot list the global temp views", e);
    }
    return views;
  }

  private void assertNoViewLeftBehind(Set<String> viewsBefore) {
    Set<String> viewsAfter = tempViews();
    Set<String> added = new HashSet<>(viewsAfter);
    added.removeAll(viewsBefore);
    assertEquals(Set.of(), added, "temp views left behind (dataset views start with " + SOURCE_VIEW_PREFIX + ")");
    for (String view : List.of("cleanup_a", "cleanup_b", "cleanup_c", "staged_twice", "should_not_exist")) {
      assertFalse(spark.catalog().tableExists(view), view);
    }
    assertFalse(spark.catalog().tableExists(spark.conf().get("spark.sql.globalTempDatabase"), "cleanup_g"));
  }

  private static List<String> sortedRows(Dataset<Row> dataset) {
    return dataset.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }
}
