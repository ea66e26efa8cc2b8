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
import org.apache.hudi.utilities.transform.view.ViewWorkload.ViewCase;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Differential test of view maintenance: given a seeded stream of changes to six tables ({@link ViewWorkload}: a fact
 * of 1 000 rows changed by a few to a few dozen rows a batch, NULL values, an N:M join, numeric and composite keys)
 * and a view query from the supported shapes, when each batch's rows (derived incrementally, or by full recompute in
 * two of every five batches after the first, deleting against the target's rows or the old state's result) are applied
 * to a target, then after every batch the target equals the query run over the tables' new state, as multisets of
 * rows. Queries of refused shapes are refused with the operator named, never run; a grouped view whose record key would
 * be NULL fails, naming the row.
 *
 * <p>The tables are Spark datasets and the changed keys are the workload's (the derivation is the same code the
 * Streamer runs over Hudi snapshots; {@code TestViewDifferentialOverHudi} reads the changes from Hudi tables, and
 * {@code TestViewsThroughStreamer} runs views end to end). Quick by default; {@code -Dview.differential.rounds=N} runs
 * N batches per query, {@code -Dview.differential.seed=S} replays a seed (query i runs with seed S + i),
 * {@code -Dview.differential.query=i} runs query i only.
 */
class TestViewDifferential {

  private static final Logger LOG = LoggerFactory.getLogger(TestViewDifferential.class);

  private static final long SEED = Long.getLong("view.differential.seed", 20261202L);
  /** The first batch and one of each kind after it ({@link #runView}). */
  private static final int ROUNDS = Integer.getInteger("view.differential.rounds", 6);
  private static final Integer ONLY_QUERY = Integer.getInteger("view.differential.query");
  private static final List<String> TABLES = new ArrayList<>(ViewWorkload.SCHEMAS.keySet());

  @Test
  void everyViewEqualsItsQueryOverTheTablesAfterEveryBatch() throws InterruptedException {
    List<ViewCase> views = ViewWorkload.supportedViews();
    List<Integer> run = new ArrayList<>();
    for (int q = 0; q < views.size(); q++) {
      if (ONLY_QUERY == null || ONLY_QUERY == q) {
        run.add(q);
      }
    }
    LOG.info("View differential test: seed {} ({}), {} of {} queries, {} batches each", SEED,
        "replay with -Dview.differential.seed=" + SEED, run.size(), views.size(), ROUNDS);
    System.out.printf("View differential test: seed %d, %d of %d queries, %d batches each%n", SEED, run.size(),
        views.size(), ROUNDS);
    List<Callable<Batches>> runs = new ArrayList<>();
    for (int index : run) {
      runs.add(() -> runView(index, views.get(index)));
    }
    Batches batches = new Batches();
    SideBySide.results(runs, 4).forEach(batches::add);
    System.out.printf("View differential test: %d batches, 0 mismatches; of %d incremental batches after the first, "
        + "%d wrote fewer rows than their target holds%n", batches.all, batches.incremental, batches.partial);
    assertTrue(views.size() >= 30, views.size() + " queries");
    assertEquals(run.size() * ROUNDS, batches.all);
    // The workload changes a small share: most incremental batches leave most of their target's rows alone.
    assertTrue(batches.partial * 2 > batches.incremental, batches.partial + " of " + batches.incremental
        + " incremental batches wrote fewer rows than their target holds");
  }

  @Test
  void refusedShapesAreRefusedNamingTheOperator() {
    SparkSession spark = SharedSpark.session();
    Map<String, Dataset<Row>> tables = tables(spark, new ViewWorkload(SEED).copy());
    for (Map.Entry<String, String> refused : ViewWorkload.refusedViews().entrySet()) {
      try (ViewQuery query = ViewWorkload.query(spark, refused.getKey(), "refused")) {
        ViewDefinition view = ViewDefinition.of(query, tables, ViewWorkload.KEYS, List.of("order_id"));
        assertTrue(view.refusal().isPresent(), refused.getKey());
        assertTrue(view.refusal().get().contains(refused.getValue()), view.refusal().get());
        System.out.printf("Refused as expected: %s%n  because %s%n", refused.getKey(), view.refusal().get());
      }
    }
  }

  /**
   * Given more changed keys than {@code max.listed.keys}, when an incremental batch finds the rows made of them, then
   * they are matched by a join Spark chooses by size, not a broadcast forced on any number of keys (which collects them
   * all to the driver): with Spark's broadcast threshold off, the batch's plan broadcasts nothing.
   */
  @Test
  void changedKeysBeyondTheListLimitAreJoinedNotBroadcast() {
    SparkSession spark = SharedSpark.session();
    Map<String, Map<String, Object[]>> current = new ViewWorkload(SEED).copy();
    Map<String, Map<String, Object[]>> previous = new LinkedHashMap<>();
    current.forEach((table, rows) -> previous.put(table, new TreeMap<>(rows)));
    previous.get("orders").keySet().removeAll(new ArrayList<>(previous.get("orders").keySet()).subList(0, 5));
    Map<String, Dataset<Row>> before = tables(spark, previous);
    Map<String, Dataset<Row>> after = tables(spark, current);
    Map<String, TableState> states = states(spark, before, after, previous, current);
    String sql = "SELECT o.order_id, o.amount, u.country FROM <TABLE:orders> o LEFT JOIN <TABLE:users> u "
        + "ON o.user_id = u.user_id";
    String threshold = spark.conf().get("spark.sql.autoBroadcastJoinThreshold");
    try (ViewQuery query = ViewWorkload.query(spark, sql, "unlisted")) {
      spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
      ViewDefinition view = ViewDefinition.of(query, after, ViewWorkload.KEYS, List.of("order_id"));
      ViewBatch batch = new ViewBatch(spark, view, states, new ListLimit(2), Instant.now());
      Dataset<Row> rows = batch.incremental(Option.empty());

      String plan = rows.queryExecution().executedPlan().toString();
      assertFalse(plan.contains("Broadcast"), plan);
      assertEquals(5, rows.count(), "the 5 new orders");
      batch.persisted().forEach(Dataset::unpersist);
    } finally {
      spark.conf().set("spark.sql.autoBroadcastJoinThreshold", threshold);
    }
  }

  /**
   * Given orders of users without a country, when a view groups by the country alone (its record key), then its first
   * batch, incremental or full, fails naming the NULL key and the fix, rather than writing a row Hudi cannot key.
   */
  @Test
  void groupedViewWhoseRecordKeyWouldBeNullFailsNamingTheRow() {
    SparkSession spark = SharedSpark.session();
    Map<String, Map<String, Object[]>> current = new ViewWorkload(SEED).copy();
    Map<String, TableState> states = new LinkedHashMap<>();
    tables(spark, current).forEach((table, rows) -> states.put(table, new TableState(rows.limit(0), rows,
        changedKeys(spark, table, Map.of(), current.get(table)))));
    String sql = "SELECT u.country, count(*) AS n FROM <TABLE:orders> o JOIN <TABLE:users> u "
        + "ON o.user_id = u.user_id GROUP BY u.country";
    try (ViewQuery query = ViewWorkload.query(spark, sql, "nullkey")) {
      Map<String, Dataset<Row>> tables = new LinkedHashMap<>();
      states.forEach((table, state) -> tables.put(table, state.current()));
      assertEquals(1, Dataset.ofRows(spark, query.analyze(tables)).where("country IS NULL").count(),
          "the workload has orders of users without a country");
      ViewDefinition view = ViewDefinition.of(query, tables, ViewWorkload.KEYS, List.of("country"));
      assertFalse(view.refusal().isPresent(), String.valueOf(view.refusal()));
      for (boolean full : new boolean[] {false, true}) {
        ViewBatch batch = new ViewBatch(spark, view, states, new ListLimit(100), Instant.now());
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> (full ? batch.full(Option.empty()) : batch.incremental(Option.empty())).collectAsList());
        assertTrue(failure.getMessage().contains("record key [country] is null"), failure.getMessage());
        assertTrue(failure.getMessage().contains("coalesce(u.country, 'none')"), failure.getMessage());
        batch.persisted().forEach(Dataset::unpersist);
      }
    }
  }

  /**
   * Runs the view over ROUNDS batches: the first incremental from nothing; then, in turn, incremental given the
   * target's rows (a grouped view's state) with IN lists of at most 2 values, incremental without them with lists of up
   * to 100, a full recompute deleting against the target's rows (lists of 2), incremental given the target's rows
   * (lists of 100), a full recompute deleting against the old state's result (lists of 100).
   */
  private static Batches runView(int index, ViewCase viewCase) {
    SparkSession spark = SharedSpark.session();
    ViewWorkload workload = new ViewWorkload(SEED + index);
    Map<String, Map<String, Object[]>> previous = new LinkedHashMap<>();
    for (String table : TABLES) {
      previous.put(table, new TreeMap<>());
    }
    Map<String, Map<String, Object[]>> current = workload.copy();
    TargetRows target = new TargetRows(viewCase.key);
    Batches batches = new Batches();
    try (ViewQuery query = ViewWorkload.query(spark, viewCase.sql, "q" + index)) {
      ViewDefinition view = null;
      for (int round = 0; round < ROUNDS; round++) {
        Map<String, Dataset<Row>> before = tables(spark, previous);
        Map<String, Dataset<Row>> after = tables(spark, current);
        Map<String, TableState> states = states(spark, before, after, previous, current);
        if (view == null) {
          view = ViewDefinition.of(query, after, ViewWorkload.KEYS, viewCase.key);
          assertFalse(view.refusal().isPresent(), viewCase + ": " + view.refusal());
        }
        int kind = round == 0 ? -1 : (round - 1) % 5;
        boolean full = kind == 2 || kind == 4;
        ViewBatch batch = new ViewBatch(spark, view, states, new ListLimit(kind == 0 || kind == 2 ? 2 : 100),
            Instant.now());
        boolean withStored = kind == 0 || kind == 2 || kind == 3;
        Option<Dataset<Row>> stored = withStored ? Option.of(target.stored(spark)) : Option.empty();
        Dataset<Row> rows = full ? batch.full(stored) : batch.incremental(stored);
        String described = String.format("seed %d, query %d (%s), batch %d (%s)", SEED + index, index, viewCase,
            round, full ? "full" : "incremental");
        int written = target.apply(rows, described);
        batch.persisted().forEach(Dataset::unpersist);

        List<String> expected = TargetRows.multiset(Dataset.ofRows(spark, query.analyze(after)).collectAsList(),
            view.columns());
        List<String> actual = target.multiset(view.columns());
        if (!expected.equals(actual)) {
          fail(String.format("%s: the target differs from the query over the tables (replay with "
              + "-Dview.differential.seed=%d -Dview.differential.query=%d); %s; steps %s", described, SEED, index,
              TargetRows.difference(expected, actual), batch.steps()));
        }
        batches.count(round > 0 && !full, written < target.size());

        previous = current;
        workload.change();
        current = workload.copy();
      }
    }
    return batches;
  }

  /** Each table's two states and the keys that differ between them. */
  private static Map<String, TableState> states(SparkSession spark, Map<String, Dataset<Row>> before,
                                                Map<String, Dataset<Row>> after,
                                                Map<String, Map<String, Object[]>> previous,
                                                Map<String, Map<String, Object[]>> current) {
    Map<String, TableState> states = new LinkedHashMap<>();
    for (String table : TABLES) {
      states.put(table, new TableState(before.get(table), after.get(table),
          changedKeys(spark, table, previous.get(table), current.get(table))));
    }
    return states;
  }

  private static Map<String, Dataset<Row>> tables(SparkSession spark, Map<String, Map<String, Object[]>> rows) {
    Map<String, Dataset<Row>> tables = new LinkedHashMap<>();
    TABLES.forEach(table -> tables.put(table, ViewWorkload.dataset(spark, table, rows.get(table))));
    return tables;
  }

  /**
   * The record keys of the rows inserted, updated or deleted between two states of a table, as its key columns; empty if
   * none.
   */
  private static Option<Dataset<Row>> changedKeys(SparkSession spark, String table, Map<String, Object[]> before,
                                          Map<String, Object[]> after) {
    List<Row> changed = new ArrayList<>();
    ViewWorkload.upserted(before, after).values().forEach(row -> changed.add(ViewWorkload.keyRow(table, row)));
    ViewWorkload.deleted(before, after).values().forEach(row -> changed.add(ViewWorkload.keyRow(table, row)));
    return changed.isEmpty() ? Option.empty() : Option.of(spark.createDataFrame(changed, ViewWorkload.keySchema(table)));
  }

  /** Batches run, and how many of the incremental ones after the first wrote fewer rows than their target holds. */
  private static final class Batches {
    private int all;
    private int incremental;
    private int partial;

    void count(boolean isIncremental, boolean isPartial) {
      all++;
      incremental += isIncremental ? 1 : 0;
      partial += isIncremental && isPartial ? 1 : 0;
    }

    void add(Batches other) {
      all += other.all;
      incremental += other.incremental;
      partial += other.partial;
    }
  }
}
