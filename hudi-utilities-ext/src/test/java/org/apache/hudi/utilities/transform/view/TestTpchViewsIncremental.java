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

package org.apache.hudi.utilities.transform.view;

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.testutils.SharedSpark;

import io.trino.tpch.TpchTable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Date;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Given TPC-H's tables at scale factor 0.01 ({@link TestTpchViewCoverage}'s, as Spark datasets) and a view of each TPC-H
 * query that joins by commas and is maintained incrementally (Q3, Q5, Q10, Q12), when its target is filled by a full
 * recompute and then changed by two incremental batches, the first inserting, updating and deleting rows of orders,
 * lineitem and customer (a few hundred of 60 000 lineitems, tens of 15 000 orders and 1 500 customers), the second of the
 * dimensions only (nation, supplier, customer), then after each batch the
 * target equals the query over the tables' new state, as multisets of rows; and each batch that changes a table the
 * query reads changes its result.
 */
class TestTpchViewsIncremental {

  private static final double SCALE_FACTOR = 0.01;
  /** The TPC-H queries whose views are maintained incrementally since comma joins are joins (docs/views.md). */
  private static final List<Integer> INCREMENTAL_QUERIES = List.of(3, 5, 10, 12);
  /** No TPC-H query reads the time. */
  private static final Instant BATCH_TIME = Instant.parse("2026-01-01T00:00:00Z");
  private static final List<String> TABLES = TpchTable.getTables().stream().map(TpchTable::getTableName)
      .collect(Collectors.toList());
  private static final Map<String, StructType> SCHEMAS = new LinkedHashMap<>();
  /** The tables' states, each by table and record key: as generated, then after each batch's changes. */
  private static final List<Map<String, Map<List<Object>, Object[]>>> STATES = new ArrayList<>();
  private static final List<Map<String, Dataset<Row>>> DATASETS = new ArrayList<>();

  @BeforeAll
  static void statesOfTheTables() {
    Map<String, Map<List<Object>, Object[]>> generated = new LinkedHashMap<>();
    for (TpchTable<?> table : TpchTable.getTables()) {
      String name = table.getTableName();
      SCHEMAS.put(name, TestTpchViewCoverage.schema(table));
      Map<List<Object>, Object[]> rows = new LinkedHashMap<>();
      for (Row row : TestTpchViewCoverage.rows(table, SCALE_FACTOR)) {
        Object[] values = new Object[row.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = row.get(i);
        }
        rows.put(key(name, values), values);
      }
      generated.put(name, rows);
    }
    STATES.add(generated);
    STATES.add(changed(generated, TestTpchViewsIncremental::factsAndCustomers));
    STATES.add(changed(STATES.get(1), TestTpchViewsIncremental::dimensions));
    SparkSession spark = SharedSpark.session();
    for (Map<String, Map<List<Object>, Object[]>> state : STATES) {
      Map<String, Dataset<Row>> datasets = new LinkedHashMap<>();
      state.forEach((table, rows) -> datasets.put(table, dataset(spark, table, rows)));
      DATASETS.add(datasets);
    }
  }

  /** The queries run side by side, as in {@code TestViewDifferential}: a batch is a chain of short Spark jobs. */
  @Test
  void incrementalBatchesKeepEachTargetEqualToItsQueryOverTheNewState() throws InterruptedException {
    List<Callable<Void>> runs = new ArrayList<>();
    for (int number : INCREMENTAL_QUERIES) {
      runs.add(() -> {
        runView(number);
        return null;
      });
    }
    SideBySide.results(runs, runs.size());
  }

  /** Fills the query's target by a full recompute, then runs an incremental batch per later state, checking each. */
  private static void runView(int number) {
    SparkSession spark = SharedSpark.session();
    TestTpchViewCoverage.Query tpch = TestTpchViewCoverage.query(number);
    List<String> key = Arrays.asList(tpch.targetKey.split(","));
    try (ViewQuery query = ViewWorkload.query(spark, tpch.view(), "tpch_q" + number, TABLES)) {
      ViewDefinition view = ViewDefinition.of(query, DATASETS.get(0), TestTpchViewCoverage.RECORD_KEYS, key);
      assertFalse(view.refusal().isPresent(), "Q" + number + ": " + view.refusal());
      TargetRows target = new TargetRows(key);
      List<String> before = result(query, view, 0);
      ViewBatch fill = new ViewBatch(spark, view, states(0, 0), new ListLimit(100), BATCH_TIME);
      target.apply(fill.full(Option.empty()), "Q" + number + ", the full recompute");
      fill.persisted().forEach(Dataset::unpersist);
      assertEquals(before, target.multiset(view.columns()), "Q" + number + ", the full recompute");

      for (int state = 1; state < STATES.size(); state++) {
        ViewBatch batch = new ViewBatch(spark, view, states(state - 1, state), new ListLimit(100), BATCH_TIME);
        String described = String.format("Q%d, incremental batch %d", number, state);
        target.apply(batch.incremental(Option.of(target.stored(spark))), described);
        batch.persisted().forEach(Dataset::unpersist);
        List<String> after = result(query, view, state);
        assertEquals(after, target.multiset(view.columns()), () -> described + ": "
            + TargetRows.difference(after, target.multiset(view.columns())) + "; steps " + batch.steps());
        if (readsAChangedTable(query, state)) {
          assertNotEquals(before, after, described + " changes tables the query reads, and its result");
        }
        before = after;
      }
    }
  }

  /** Batch 1: orders and their lineitems inserted, updated (dates, customers, prices, flags) and deleted; customers. */
  private static void factsAndCustomers(Map<String, Map<List<Object>, Object[]>> tables) {
    Map<List<Object>, Object[]> customers = tables.get("customer");
    List<Object> customerKeys = new ArrayList<>(customers.keySet());
    update(tables, "customer", 41, row -> set(row, "customer", "c_mktsegment",
        "BUILDING".equals(get(row, "customer", "c_mktsegment")) ? "MACHINERY" : "BUILDING"));
    update(tables, "customer", 53, row -> set(row, "customer", "c_nationkey",
        ((Long) get(row, "customer", "c_nationkey") + 1) % 25));
    delete(tables, "customer", 151);
    update(tables, "orders", 211, row -> set(row, "orders", "o_orderdate",
        Date.valueOf(((Date) get(row, "orders", "o_orderdate")).toLocalDate().plusDays(60))));
    update(tables, "orders", 307, row -> set(row, "orders", "o_custkey",
        ((List<?>) customerKeys.get(Math.floorMod(row[0].hashCode(), customerKeys.size()))).get(0)));
    update(tables, "lineitem", 301, row -> {
      set(row, "lineitem", "l_discount", new BigDecimal("0.10"));
      set(row, "lineitem", "l_shipmode", "MAIL");
    });
    update(tables, "lineitem", 401, row -> set(row, "lineitem", "l_returnflag", "R"));
    update(tables, "lineitem", 499, row -> set(row, "lineitem", "l_extendedprice",
        ((BigDecimal) get(row, "lineitem", "l_extendedprice")).add(new BigDecimal("100.00"))));
    delete(tables, "orders", 401);
    delete(tables, "lineitem", 601);
    // New orders: copies of existing ones (each with its lineitems) under new keys.
    List<Object[]> orders = new ArrayList<>(tables.get("orders").values());
    long nextOrder = orders.stream().mapToLong(row -> (Long) row[0]).max().getAsLong() + 1;
    Map<Object, List<Object[]>> lineitemsOf = tables.get("lineitem").values().stream()
        .collect(Collectors.groupingBy(row -> row[0]));
    for (int i = 0; i < orders.size(); i += 997) {
      Object[] order = orders.get(i).clone();
      order[0] = nextOrder;
      insert(tables, "orders", order);
      for (Object[] lineitem : lineitemsOf.getOrDefault(orders.get(i)[0], Collections.emptyList())) {
        Object[] copy = lineitem.clone();
        copy[0] = nextOrder;
        insert(tables, "lineitem", copy);
      }
      nextOrder++;
    }
  }

  /** Batch 2, the dimensions: nations renamed, moved to another region, deleted; suppliers and customers moved to
   * another nation and segment. */
  private static void dimensions(Map<String, Map<List<Object>, Object[]>> tables) {
    Map<List<Object>, Object[]> nations = tables.get("nation");
    set(nations.get(List.of(8L)), "nation", "n_name", "BHARAT");
    set(nations.get(List.of(7L)), "nation", "n_regionkey", 2L);
    set(nations.get(List.of(12L)), "nation", "n_regionkey", 3L);
    nations.remove(List.of(9L));
    update(tables, "supplier", 3, row -> set(row, "supplier", "s_nationkey",
        ((Long) get(row, "supplier", "s_nationkey") + 7) % 25));
    update(tables, "customer", 37, row -> {
      set(row, "customer", "c_nationkey", ((Long) get(row, "customer", "c_nationkey") + 3) % 25);
      set(row, "customer", "c_mktsegment", "BUILDING".equals(get(row, "customer", "c_mktsegment")) ? "HOUSEHOLD"
          : "BUILDING");
    });
  }

  private static Map<String, Map<List<Object>, Object[]>> changed(Map<String, Map<List<Object>, Object[]>> state,
                                                                Consumer<Map<String, Map<List<Object>, Object[]>>> change) {
    Map<String, Map<List<Object>, Object[]>> copy = new LinkedHashMap<>();
    state.forEach((table, rows) -> {
      Map<List<Object>, Object[]> rowsCopy = new LinkedHashMap<>();
      rows.forEach((key, row) -> rowsCopy.put(key, row.clone()));
      copy.put(table, rowsCopy);
    });
    change.accept(copy);
    return copy;
  }

  /** Changes every {@code every}-th row of a table. */
  private static void update(Map<String, Map<List<Object>, Object[]>> tables, String table, int every,
                             Consumer<Object[]> change) {
    List<Object[]> rows = new ArrayList<>(tables.get(table).values());
    for (int i = 0; i < rows.size(); i += every) {
      change.accept(rows.get(i));
    }
  }

  /** Deletes every {@code every}-th row of a table, from its second. */
  private static void delete(Map<String, Map<List<Object>, Object[]>> tables, String table, int every) {
    List<List<Object>> keys = new ArrayList<>(tables.get(table).keySet());
    for (int i = 1; i < keys.size(); i += every) {
      tables.get(table).remove(keys.get(i));
    }
  }

  private static void insert(Map<String, Map<List<Object>, Object[]>> tables, String table, Object[] row) {
    tables.get(table).put(key(table, row), row);
  }

  private static Object get(Object[] row, String table, String column) {
    return row[SCHEMAS.get(table).fieldIndex(column)];
  }

  private static void set(Object[] row, String table, String column, Object value) {
    row[SCHEMAS.get(table).fieldIndex(column)] = value;
  }

  private static List<Object> key(String table, Object[] row) {
    return TestTpchViewCoverage.RECORD_KEYS.get(table).stream().map(column -> get(row, table, column))
        .collect(Collectors.toList());
  }

  /** The query's result over a state of the tables, as a multiset of the view's columns. */
  private static List<String> result(ViewQuery query, ViewDefinition view, int state) {
    return TargetRows.multiset(Dataset.ofRows(SharedSpark.session(), query.analyze(DATASETS.get(state)))
        .collectAsList(), view.columns());
  }

  private static boolean readsAChangedTable(ViewQuery query, int state) {
    return query.tables().stream().anyMatch(table -> !changedKeys(table, state - 1, state).isEmpty());
  }

  /** Each table's two states and the record keys of the rows inserted, updated or deleted between them. */
  private static Map<String, TableState> states(int previous, int current) {
    SparkSession spark = SharedSpark.session();
    Map<String, TableState> states = new LinkedHashMap<>();
    for (String table : TABLES) {
      List<Row> changed = changedKeys(table, previous, current);
      StructType keySchema = new StructType();
      for (String column : TestTpchViewCoverage.RECORD_KEYS.get(table)) {
        keySchema = keySchema.add(SCHEMAS.get(table).apply(column));
      }
      states.put(table, new TableState(DATASETS.get(previous).get(table), DATASETS.get(current).get(table),
          changed.isEmpty() ? Option.empty() : Option.of(spark.createDataFrame(changed, keySchema))));
    }
    return states;
  }

  private static List<Row> changedKeys(String table, int previous, int current) {
    Map<List<Object>, Object[]> before = STATES.get(previous).get(table);
    Map<List<Object>, Object[]> after = STATES.get(current).get(table);
    List<Row> changed = new ArrayList<>();
    after.forEach((key, row) -> {
      if (!before.containsKey(key) || !Arrays.equals(before.get(key), row)) {
        changed.add(RowFactory.create(key.toArray()));
      }
    });
    before.keySet().stream().filter(key -> !after.containsKey(key))
        .forEach(key -> changed.add(RowFactory.create(key.toArray())));
    return changed;
  }

  private static Dataset<Row> dataset(SparkSession spark, String table, Map<List<Object>, Object[]> rows) {
    List<Row> list = rows.values().stream().map(row -> RowFactory.create(row.clone())).collect(Collectors.toList());
    return spark.createDataFrame(list, SCHEMAS.get(table));
  }
}
