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
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders;
import org.apache.hudi.utilities.transform.view.ViewWorkload.ViewCase;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Differential test of view maintenance: given a seeded stream of changes to four tables and a view query from the
 * supported shapes, when each batch's rows (derived incrementally, or by full recompute every third batch, deleting
 * against the target's rows or the old state's result) are
 * applied to a target, then after every batch the target equals the query run over the tables' new state, row for
 * row. Queries of refused shapes are refused with the operator named, never run.
 *
 * <p>The tables are Spark datasets here (the derivation is the same code the Streamer runs over Hudi snapshots;
 * {@code TestViewsThroughStreamer} runs views end to end). Quick by default; {@code -Dview.differential.rounds=N}
 * runs N batches per query, {@code -Dview.differential.seed=S} replays a seed.
 */
class TestViewDifferential {

  private static final Logger LOG = LoggerFactory.getLogger(TestViewDifferential.class);

  private static final long SEED = Long.getLong("view.differential.seed", 20261202L);
  private static final int ROUNDS = Integer.getInteger("view.differential.rounds", 10);
  private static final List<String> TABLES = new ArrayList<>(ViewWorkload.SCHEMAS.keySet());

  @Test
  void everyViewEqualsItsQueryOverTheTablesAfterEveryBatch() throws InterruptedException {
    List<ViewCase> views = ViewWorkload.supportedViews();
    LOG.info("View differential test: seed {} ({}), {} queries, {} batches each, {} batches in all", SEED,
        "replay with -Dview.differential.seed=" + SEED, views.size(), ROUNDS, views.size() * ROUNDS);
    System.out.printf("View differential test: seed %d, %d queries, %d batches each%n", SEED, views.size(), ROUNDS);
    // Queries run side by side: a batch of these small tables is a chain of short Spark jobs, mostly waiting.
    ExecutorService threads = Executors.newFixedThreadPool(4);
    List<Future<Integer>> runs = new ArrayList<>();
    for (int q = 0; q < views.size(); q++) {
      int index = q;
      runs.add(threads.submit(() -> runView(index, views.get(index))));
    }
    int batches = 0;
    try {
      for (Future<Integer> run : runs) {
        batches += run.get();
      }
    } catch (ExecutionException e) {
      if (e.getCause() instanceof AssertionError) {
        throw (AssertionError) e.getCause();
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      threads.shutdownNow();
    }
    System.out.printf("View differential test: %d batches, 0 mismatches%n", batches);
    assertTrue(views.size() >= 30, views.size() + " queries");
    assertEquals(views.size() * ROUNDS, batches);
  }

  @Test
  void refusedShapesAreRefusedNamingTheOperator() {
    SparkSession spark = SharedSpark.session();
    ViewWorkload workload = new ViewWorkload(SEED);
    Map<String, Dataset<Row>> tables = new LinkedHashMap<>();
    TABLES.forEach(table -> tables.put(table, ViewWorkload.dataset(spark, table, workload.rows(table))));
    for (Map.Entry<String, String> refused : ViewWorkload.refusedViews().entrySet()) {
      try (ViewQuery query = query(spark, refused.getKey(), "refused")) {
        ViewDefinition view = ViewDefinition.of(query, tables, recordKeys(), List.of("order_id"));
        assertTrue(view.refusal().isPresent(), refused.getKey());
        assertTrue(view.refusal().get().contains(refused.getValue()), view.refusal().get());
        System.out.printf("Refused as expected: %s%n  because %s%n", refused.getKey(), view.refusal().get());
      }
    }
  }

  /** Runs the view over ROUNDS batches; returns how many. */
  private static int runView(int index, ViewCase viewCase) {
    SparkSession spark = SharedSpark.session();
    ViewWorkload workload = new ViewWorkload(SEED + index);
    Map<String, Map<String, Object[]>> previous = new LinkedHashMap<>();
    for (String table : TABLES) {
      previous.put(table, new TreeMap<>());
    }
    Map<String, Map<String, Object[]>> current = workload.copy();
    // The target's rows as written: the view's columns, then any aggregate state.
    Map<List<Object>, List<Object>> target = new HashMap<>();
    StructType written = null;
    try (ViewQuery query = query(spark, viewCase.sql, "q" + index)) {
      ViewDefinition view = null;
      for (int round = 0; round < ROUNDS; round++) {
        Map<String, TableState> states = new LinkedHashMap<>();
        for (String table : TABLES) {
          Dataset<Row> before = ViewWorkload.dataset(spark, table, previous.get(table));
          Dataset<Row> after = ViewWorkload.dataset(spark, table, current.get(table));
          List<String> changed = changedKeys(previous.get(table), current.get(table));
          String keyColumn = ViewWorkload.KEYS.get(table);
          states.put(table, new TableState(before, after, changed.isEmpty() ? Option.empty()
              : Option.of(spark.createDataset(changed, Encoders.STRING())
                  .toDF(keyColumn))));
        }
        Map<String, Dataset<Row>> currentTables = new LinkedHashMap<>();
        states.forEach((table, state) -> currentTables.put(table, state.current()));
        if (view == null) {
          view = ViewDefinition.of(query, currentTables, recordKeys(), viewCase.key);
          assertFalse(view.refusal().isPresent(), viewCase + ": " + view.refusal());
        }
        boolean full = round > 0 && round % 3 == 0;
        ViewBatch batch = new ViewBatch(spark, view, states, new ListLimit(round % 2 == 0 ? 100 : 2));
        // A full recompute deletes against the target's rows in odd rounds, against the old state's result in even; an
        // incremental batch is given the target's rows (a grouped view's state) except every fourth round from the third.
        boolean withStored = round > 0 && (full ? round % 2 == 1 : round % 4 != 2);
        Option<Dataset<Row>> stored = withStored ? Option.of(storedRows(spark, target, written)) : Option.empty();
        Dataset<Row> rows = full ? batch.full(stored) : batch.incremental(stored);
        written = rows.drop(ViewDefinition.IS_DELETED, ViewDefinition.COMMIT_ORDER).schema();
        apply(target, rows.collectAsList(), viewCase.key, viewCase + ", round " + round);
        batch.persisted().forEach(Dataset::unpersist);

        Map<List<Object>, List<Object>> expected = new HashMap<>();
        apply(expected, Dataset.ofRows(spark, query.analyze(currentTables)).collectAsList(), viewCase.key,
            viewCase + ", expected");
        assertEquals(sorted(expected, view), sorted(target, view), String.format("seed %d, query %d (%s), batch %d (%s): the target "
            + "differs from the query over the tables; steps %s", SEED + index, index, viewCase, round,
            full ? "full" : "incremental", batch.steps()));

        previous = current;
        workload.change();
        current = workload.copy();
      }
    }
    return ROUNDS;
  }

  private static ViewQuery query(SparkSession spark, String sql, String name) {
    Map<String, String> viewOfTable = new LinkedHashMap<>();
    SourcePlaceholders placeholders = new SourcePlaceholders(TABLES, TABLES.size());
    placeholders.referencesIn(sql).forEach(reference ->
        viewOfTable.put(TABLES.get(reference.index()), "view_diff_" + name + "_" + TABLES.get(reference.index())));
    Map<String, String> ordered = new LinkedHashMap<>();
    TABLES.stream().filter(viewOfTable::containsKey).forEach(table -> ordered.put(table, viewOfTable.get(table)));
    return new ViewQuery(spark, placeholders.bind(sql, reference -> viewOfTable.get(TABLES.get(reference.index()))),
        ordered);
  }

  private static Map<String, List<String>> recordKeys() {
    Map<String, List<String>> keys = new LinkedHashMap<>();
    ViewWorkload.KEYS.forEach((table, key) -> keys.put(table, List.of(key)));
    return keys;
  }

  private static List<String> changedKeys(Map<String, Object[]> before, Map<String, Object[]> after) {
    List<String> changed = new ArrayList<>();
    before.forEach((key, row) -> {
      if (!after.containsKey(key) || !Arrays.equals(row, after.get(key))) {
        changed.add(key);
      }
    });
    after.keySet().stream().filter(key -> !before.containsKey(key)).forEach(changed::add);
    return changed;
  }

  /** Applies a batch's rows to a target: at most one row per key, deletes by the deleted flag. */
  private static void apply(Map<List<Object>, List<Object>> target, List<Row> rows, List<String> key, String what) {
    Map<List<Object>, Boolean> seen = new HashMap<>();
    for (Row row : rows) {
      List<Object> keyValues = new ArrayList<>();
      key.forEach(column -> keyValues.add(row.get(row.fieldIndex(column))));
      boolean deleted = hasDeletedFlag(row) && row.getBoolean(row.fieldIndex(ViewDefinition.IS_DELETED));
      assertNull(seen.put(keyValues, deleted), what + ": two rows for key " + keyValues + " in one batch");
      if (deleted) {
        target.remove(keyValues);
      } else {
        List<Object> values = new ArrayList<>();
        for (String column : row.schema().fieldNames()) {
          if (!column.equals(ViewDefinition.IS_DELETED) && !column.equals(ViewDefinition.COMMIT_ORDER)) {
            values.add(row.get(row.fieldIndex(column)));
          }
        }
        target.put(keyValues, values);
      }
    }
  }

  /** The target's rows as a dataset, as a Hudi target would be read. */
  private static Dataset<Row> storedRows(SparkSession spark, Map<List<Object>, List<Object>> target, StructType schema) {
    List<Row> rows = target.values().stream().map(values -> RowFactory.create(values.toArray()))
        .collect(Collectors.toList());
    return spark.createDataFrame(rows, schema);
  }

  private static boolean hasDeletedFlag(Row row) {
    return Arrays.asList(row.schema().fieldNames()).contains(ViewDefinition.IS_DELETED);
  }

  /** The rows' values of the view's columns (the first ones), by key. */
  private static Map<String, String> sorted(Map<List<Object>, List<Object>> rows, ViewDefinition view) {
    Map<String, String> sorted = new TreeMap<>();
    rows.forEach((key, values) -> sorted.put(String.valueOf(key),
        String.valueOf(values.subList(0, view.columns().size()))));
    return Collections.unmodifiableMap(sorted);
  }

}
