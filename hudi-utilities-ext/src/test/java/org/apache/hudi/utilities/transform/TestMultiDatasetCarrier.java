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

import org.apache.hudi.AvroConversionUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import scala.collection.JavaConverters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of the multi-dataset carrier: what goes in comes out unchanged, the split plans are the plans of the
 * original datasets, and an unsplit carrier cannot be written.
 */
class TestMultiDatasetCarrier {

  @TempDir
  static java.nio.file.Path dir;

  private static SparkSession spark;
  private static String ordersPath;
  private static String usersPath;
  private static Dataset<Row> orders;
  private static Dataset<Row> users;

  @BeforeAll
  static void writeParquetSources() {
    spark = SharedSpark.session();
    ordersPath = dir.resolve("orders_parquet").toAbsolutePath().toString();
    usersPath = dir.resolve("users_parquet").toAbsolutePath().toString();
    spark.range(1000)
        .selectExpr("id AS order_id", "concat('u', CAST(id % 10 AS STRING)) AS user_id", "CAST(id AS DOUBLE) AS amount")
        .coalesce(1)
        .write().parquet(ordersPath);
    // Same column name `amount` as orders, with a conflicting type.
    spark.range(10)
        .selectExpr("concat('u', CAST(id AS STRING)) AS user_id", "concat('name', CAST(id AS STRING)) AS user_name",
            "concat('tier', CAST(id AS STRING)) AS amount")
        .coalesce(1)
        .write().parquet(usersPath);
    orders = spark.read().parquet(ordersPath);
    users = spark.read().parquet(usersPath);
  }

  @Test
  void unpackReturnsEachDatasetWithItsOwnColumnNamesAndTypes() {
    List<Dataset<Row>> splits = split(orders, users);

    assertEquals(2, splits.size());
    assertEquals(namesAndTypes(orders.schema()), namesAndTypes(splits.get(0).schema()));
    assertEquals(namesAndTypes(users.schema()), namesAndTypes(splits.get(1).schema()));
    assertEquals(DataTypes.DoubleType, splits.get(0).schema().apply("amount").dataType());
    assertEquals(DataTypes.StringType, splits.get(1).schema().apply("amount").dataType());
  }

  @Test
  void unpackReturnsEachDatasetWithExactlyItsOwnRows() {
    List<Dataset<Row>> splits = split(orders, users);

    assertEquals(sortedRows(orders), sortedRows(splits.get(0)));
    assertEquals(sortedRows(users), sortedRows(splits.get(1)));
    assertEquals(1000, splits.get(0).count());
    assertEquals(10, splits.get(1).count());
  }

  @Test
  void optimizedPlanOfASplitHasNoUnionAndReadsOnlyItsOwnFile() {
    Dataset<Row> ordersSplit = split(orders, users).get(0);
    LogicalPlan optimized = ordersSplit.queryExecution().optimizedPlan();

    assertTrue(nodes(optimized).stream().noneMatch(node -> node instanceof Union), optimized.toString());
    assertEquals(1, leaves(optimized).size(), optimized.toString());
    assertEquals(List.of(ordersPath), relationRootPaths(optimized));
    String physical = ordersSplit.queryExecution().executedPlan().toString();
    assertTrue(physical.contains(ordersPath), physical);
    assertFalse(physical.contains(usersPath), physical);
  }

  @Test
  void filterOnASplitIsPushedIntoTheScanOfItsFile() {
    Dataset<Row> ordersSplit = split(orders, users).get(0);
    Dataset<Row> bigOrders = ordersSplit.filter("amount > 500");

    List<FileSourceScanExec> scans = fileScans(bigOrders.queryExecution().executedPlan());
    assertEquals(1, scans.size(), bigOrders.queryExecution().executedPlan().toString());
    String pushedFilters = scans.get(0).metadata().get("PushedFilters").get();
    assertTrue(pushedFilters.contains("GreaterThan(amount,500.0)"), pushedFilters);
    assertTrue(scans.get(0).metadata().get("Location").get().contains(ordersPath));
    assertEquals(499, bigOrders.count());
  }

  @Test
  void optimizedPlanOfAJoinOfTwoSplitsHasExactlyTheTwoRelationsAndNoUnion() {
    List<Dataset<Row>> splits = split(orders, users);
    splits.get(0).createOrReplaceTempView("carrier_plan_orders");
    splits.get(1).createOrReplaceTempView("carrier_plan_users");
    try {
      Dataset<Row> joined = spark.sql("SELECT o.order_id, u.user_name, u.amount AS tier FROM carrier_plan_orders o "
          + "JOIN carrier_plan_users u ON o.user_id = u.user_id WHERE o.amount > 990");
      LogicalPlan optimized = joined.queryExecution().optimizedPlan();

      assertTrue(nodes(optimized).stream().noneMatch(node -> node instanceof Union), optimized.toString());
      assertEquals(2, leaves(optimized).size(), optimized.toString());
      List<String> paths = relationRootPaths(optimized);
      assertEquals(2, paths.size(), optimized.toString());
      assertTrue(paths.containsAll(List.of(ordersPath, usersPath)), paths.toString());
      assertEquals(9, joined.count());
    } finally {
      spark.catalog().dropTempView("carrier_plan_orders");
      spark.catalog().dropTempView("carrier_plan_users");
    }
  }

  @Test
  void isCarrierIsTrueForAPackedCarrierOnly() {
    assertTrue(MultiDatasetCarrier.isCarrier(pack(orders, users)));
    assertTrue(MultiDatasetCarrier.isCarrier(pack(users)));
    assertFalse(MultiDatasetCarrier.isCarrier(orders));
    assertFalse(MultiDatasetCarrier.isCarrier(spark.emptyDataFrame()));
  }

  @Test
  void unpackOfAPlainDatasetIsRejected() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> MultiDatasetCarrier.unpack(orders));
    assertTrue(error.getMessage().contains("order_id"), error.getMessage());
  }

  @Test
  void packOfNoDatasetIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> MultiDatasetCarrier.pack(new ArrayList<>(), manifestOf(0)));
  }

  @Test
  void unsplitCarrierCannotBecomeAnAvroSchemaAndTheErrorSaysHowToFixTheJob() {
    StructType carrierSchema = pack(orders, users).schema();

    Throwable error = assertThrows(Throwable.class,
        () -> AvroConversionUtils.convertStructTypeToAvroSchema(carrierSchema, "record", "ns"));

    String messages = causeChainMessages(error);
    assertTrue(messages.contains("UNSPLIT_MULTI_DATASET"), messages);
    assertTrue(messages.contains("MultiDatasetTransformer"), messages);
  }

  @Test
  void splitsOfACarrierCanBecomeAvroSchemas() {
    for (Dataset<Row> split : split(orders, users)) {
      assertEquals(split.schema().fields().length,
          AvroConversionUtils.convertStructTypeToAvroSchema(split.schema(), "record", "ns").getFields().size());
    }
  }

  /**
   * HoodieIncrMultiSource gives a table that skips on schema failure {@code spark.emptyDataFrame()}, so the carrier
   * must accept a dataset without columns.
   */
  @Test
  void datasetWithoutColumnsCanBePackedNextToANormalOneAndUnpacksWithoutColumns() {
    List<Dataset<Row>> splits = split(spark.emptyDataFrame(), users);

    assertEquals(2, splits.size());
    assertEquals(0, splits.get(0).schema().fields().length);
    assertEquals(0, splits.get(0).count());
    assertEquals(namesAndTypes(users.schema()), namesAndTypes(splits.get(1).schema()));
    assertEquals(sortedRows(users), sortedRows(splits.get(1)));
  }

  @Test
  void columnNameWithADotSurvivesTheRoundTrip() {
    StructType schema = new StructType()
        .add("a.b", DataTypes.StringType)
        .add("c", DataTypes.IntegerType);
    Dataset<Row> dotted = spark.createDataFrame(
        List.of(RowFactory.create("x", 1), RowFactory.create("y", 2)), schema);

    List<Dataset<Row>> splits = split(users, dotted);

    assertEquals(List.of("a.b", "c"), Arrays.asList(splits.get(1).schema().fieldNames()));
    assertEquals(namesAndTypes(schema), namesAndTypes(splits.get(1).schema()));
    assertEquals(List.of("[x,1]", "[y,2]"), sortedRows(splits.get(1)));
  }

  private static List<String> namesAndTypes(StructType schema) {
    return Arrays.stream(schema.fields())
        .map((StructField field) -> field.name() + ":" + field.dataType().sql())
        .collect(Collectors.toList());
  }

  private static List<String> sortedRows(Dataset<Row> dataset) {
    return dataset.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }

  private static List<LogicalPlan> nodes(LogicalPlan plan) {
    List<LogicalPlan> all = new ArrayList<>();
    all.add(plan);
    for (LogicalPlan child : JavaConverters.seqAsJavaList(plan.children())) {
      all.addAll(nodes(child));
    }
    return all;
  }

  private static List<LogicalPlan> leaves(LogicalPlan plan) {
    return nodes(plan).stream().filter(node -> node.children().isEmpty()).collect(Collectors.toList());
  }

  /** The local root path of every file relation the plan reads, one entry per relation. */
  private static List<String> relationRootPaths(LogicalPlan plan) {
    List<String> paths = new ArrayList<>();
    for (LogicalPlan node : nodes(plan)) {
      if (node instanceof LogicalRelation && ((LogicalRelation) node).relation() instanceof HadoopFsRelation) {
        HadoopFsRelation relation = (HadoopFsRelation) ((LogicalRelation) node).relation();
        for (Path root : JavaConverters.seqAsJavaList(relation.location().rootPaths())) {
          paths.add(root.toUri().getPath());
        }
      }
    }
    return paths;
  }

  private static List<FileSourceScanExec> fileScans(SparkPlan plan) {
    List<FileSourceScanExec> scans = new ArrayList<>();
    if (plan instanceof FileSourceScanExec) {
      scans.add((FileSourceScanExec) plan);
    }
    if (plan instanceof AdaptiveSparkPlanExec) {
      scans.addAll(fileScans(((AdaptiveSparkPlanExec) plan).executedPlan()));
    }
    for (SparkPlan child : JavaConverters.seqAsJavaList(plan.children())) {
      scans.addAll(fileScans(child));
    }
    return scans;
  }

  private static String causeChainMessages(Throwable error) {
    StringBuilder messages = new StringBuilder();
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      messages.append(cause.getClass().getName()).append(": ").append(cause.getMessage()).append('\n');
    }
    return messages.toString();
  }

  @Test
  void manifestTravelsInTheSchemaAndSurvivesTheRoundTrip() {
    CarrierManifest manifest = new CarrierManifest(List.of("orders", "users"), List.of("users", "orders"),
        Map.of("orders", "20261129100000000"), Map.of("orders", "20261129110000000", "users", "20261129120000000"));
    MultiDatasetBatch batch = MultiDatasetCarrier.unpack(MultiDatasetCarrier.pack(List.of(orders, users), manifest));
    CarrierManifest carried = batch.manifest().get();
    assertEquals(List.of("orders", "users"), carried.tables());
    assertEquals(List.of("users", "orders"), carried.previousOrder());
    assertEquals(Option.of("20261129100000000"), carried.previousPosition("orders"));
    assertEquals(Option.empty(), carried.previousPosition("users"));
    assertEquals(Option.of("20261129120000000"), carried.nextPosition("users"));
    assertEquals(List.of("orders", "users"), carried.reorderedTables());
  }

  @Test
  void tablesAppendedOrRemovedAtTheEndDoNotCountAsReordered() {
    assertEquals(List.of(), new CarrierManifest(List.of("a", "b", "c"), List.of("a", "b"), Map.of(), Map.of())
        .reorderedTables());
    assertEquals(List.of(), new CarrierManifest(List.of("a"), List.of("a", "b"), Map.of(), Map.of()).reorderedTables());
    assertEquals(List.of("c"), new CarrierManifest(List.of("a", "c"), List.of("a", "b", "c"), Map.of(), Map.of())
        .reorderedTables());
  }

  private static Dataset<Row> pack(Dataset<Row>... datasets) {
    return MultiDatasetCarrier.pack(Arrays.asList(datasets), manifestOf(datasets.length));
  }

  private static List<Dataset<Row>> split(Dataset<Row>... datasets) {
    return MultiDatasetCarrier.unpack(pack(datasets)).datasets();
  }

  private static CarrierManifest manifestOf(int tables) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < tables; i++) {
      names.add("t" + i);
    }
    return new CarrierManifest(names, List.of(), Map.of(), Map.of());
  }
}
