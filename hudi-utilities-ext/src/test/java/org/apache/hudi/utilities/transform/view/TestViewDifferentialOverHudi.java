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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.keygen.ComplexKeyGenerator;
import org.apache.hudi.keygen.NonpartitionedKeyGenerator;
import org.apache.hudi.keygen.SimpleKeyGenerator;
import org.apache.hudi.utilities.config.DeltaFormat;
import org.apache.hudi.utilities.hudi014.ViewTableReader;
import org.apache.hudi.utilities.hudi014.ViewTarget;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;
import org.apache.hudi.utilities.sources.InputBatch;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.transform.CarrierManifest;
import org.apache.hudi.utilities.transform.MultiDatasetBatch;
import org.apache.hudi.utilities.transform.MultiDatasetCarrier;
import org.apache.hudi.utilities.transform.view.ViewWorkload.ViewCase;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Differential test of view maintenance over Hudi tables, with the change detection a Streamer batch runs: given the
 * seeded changes of {@link ViewWorkload} written with upserts and deletes to Hudi tables (orders partitioned by
 * status, its rows moving partition under a global index, read as the latest state; users read as CDC; offers, a
 * MERGE_ON_READ table with a numeric key; stock, with a composite key of a number and a string), when each batch is
 * fetched by {@code HoodieIncrMultiSource} and each table's states and changed keys come from {@link ViewTableReader}
 * (as {@code MultiTableView} gets them), and the batch's rows of each view are written to its target, then after every
 * batch each target equals the view's query over the tables as the workload holds them, as multisets of rows, and the
 * changed keys read hold every key the workload changed. The first batch fills each target by a full recompute (as
 * strategy AUTO would), every later one is incremental.
 *
 * <p>The views: an N:M join with an N:1 join, left outer joins (one on the composite key), and a grouped view keeping
 * aggregate state whose target is a Hudi table partitioned by a record key column, from whose stored state each batch
 * updates the changed groups. Quick by default; {@code -Dview.differential.hudi.rounds=N} runs N batches,
 * {@code -Dview.differential.seed=S} replays a seed.
 */
class TestViewDifferentialOverHudi {

  private static final long SEED = Long.getLong("view.differential.seed", 20261202L);
  /** The first batch (full) and two incremental ones, the second updating state the first incremental one wrote. */
  private static final int ROUNDS = Integer.getInteger("view.differential.hudi.rounds", 3);
  private static final List<String> TABLES = List.of("orders", "users", "offers", "stock");
  private static final String GROUPED_SQL = "SELECT u.country, o.status, count(*) AS n, sum(o.amount) AS total, "
      + "min(o.amount) AS low, max(o.amount) AS high, count(DISTINCT o.sku) AS skus FROM <TABLE:orders> o "
      + "JOIN <TABLE:users> u ON o.user_id = u.user_id GROUP BY u.country, o.status";

  /**
   * A commit writes the table alone: no metadata table, no cleaning or archiving, no timeline server (the Streamer
   * tests write with Hudi's defaults).
   */
  private static final Map<String, String> LEAN_WRITES = Map.of("hoodie.metadata.enable", "false",
      "hoodie.clean.automatic", "false", "hoodie.archive.automatic", "false", "hoodie.embed.timeline.server", "false",
      "hoodie.write.markers.type", "DIRECT");

  @TempDir
  Path dir;

  private final SparkSession spark = SharedSpark.session();
  private final ViewWorkload workload = new ViewWorkload(SEED);
  private final Map<String, String> paths = new LinkedHashMap<>();
  /** Each table's rows as written to it so far. */
  private final Map<String, Map<String, Object[]>> written = new LinkedHashMap<>();
  private final Map<String, Integer> deletedKeys = new TreeMap<>();

  @Test
  void viewsEqualTheirQueriesAfterEveryBatchOfChangesReadFromHudiTables() {
    System.out.printf("View differential test over Hudi: seed %d (replay with -Dview.differential.seed=%d), %d batches%n",
        SEED, SEED, ROUNDS);
    TABLES.forEach(table -> {
      paths.put(table, dir.resolve(table).toUri().toString());
      written.put(table, new TreeMap<>());
    });
    List<View> views = List.of(
        new View("hudi_join", new ViewCase("SELECT o.order_id, f.offer_id, o.amount, f.discount, u.user_name "
            + "FROM <TABLE:orders> o JOIN <TABLE:offers> f ON o.sku = f.sku JOIN <TABLE:users> u ON o.user_id = u.user_id",
            "order_id", "offer_id"), Option.empty()),
        new View("hudi_left", new ViewCase("SELECT o.order_id, o.amount, u.user_name, u.country, s.qty "
            + "FROM <TABLE:orders> o LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id LEFT JOIN <TABLE:stock> s "
            + "ON o.warehouse = s.warehouse AND o.sku = s.sku", "order_id"), Option.empty()),
        new View("hudi_grouped", new ViewCase(GROUPED_SQL, "country", "status"),
            Option.of(dir.resolve("target").toUri().toString())));
    HoodieIncrMultiSource source = new HoodieIncrMultiSource(sourceProperties(), SharedSpark.jsc(), spark, null);
    Option<String> checkpoint = Option.empty();
    try {
      for (int round = 0; round < ROUNDS; round++) {
        checkpoint = round(source, checkpoint, round, views);
        workload.change();
      }
    } finally {
      views.forEach(View::close);
    }
    System.out.printf("View differential test over Hudi: %d batches of %d views, 0 mismatches; keys deleted %s%n",
        ROUNDS, views.size(), deletedKeys);
    assertTrue(deletedKeys.getOrDefault("orders", 0) > 0, "the batches deleted orders: " + deletedKeys);
  }

  /**
   * Writes the workload's changes to the tables, fetches a batch, runs it for every view and checks the targets and the
   * changed keys read. Returns the checkpoint for the next batch.
   */
  private Option<String> round(HoodieIncrMultiSource source, Option<String> checkpoint, int round, List<View> views) {
    Map<String, Map<String, Object[]>> current = workload.copy();
    Map<String, Set<String>> changed = new LinkedHashMap<>();
    for (String table : TABLES) {
      changed.put(table, write(table, current.get(table)));
    }
    if (changed.values().stream().allMatch(Set::isEmpty)) {
      return checkpoint;
    }
    InputBatch<Dataset<Row>> fetched = source.fetchNext(checkpoint, Long.MAX_VALUE);
    String next = fetched.getCheckpointForNextBatch();
    String described = String.format("seed %d, batch %d, checkpoint %s", SEED, round, next);
    assertTrue(fetched.getBatch().isPresent(), described + ": the tables changed, the source read nothing");
    List<Dataset<Row>> persisted = new ArrayList<>();
    Map<String, ViewTableReader> readers = readers(MultiDatasetCarrier.unpack(fetched.getBatch().get()), persisted);
    for (View view : views) {
      view.batch(spark, readers, current, described);
    }
    for (String table : TABLES) {
      Set<String> read = changedKeys(table, readers.get(table));
      assertTrue(read.containsAll(changed.get(table)), String.format("%s: ViewTableReader read the changed keys %s "
          + "of %s, not all the batch changed: %s", described, read, table, changed.get(table)));
    }
    persisted.forEach(Dataset::unpersist);
    return Option.of(next);
  }

  /** Each table's state and changed keys for the batch, read from Hudi as {@code MultiTableView} reads them. */
  private Map<String, ViewTableReader> readers(MultiDatasetBatch batch, List<Dataset<Row>> persisted) {
    CarrierManifest manifest = batch.manifest().get();
    Map<String, ViewTableReader> readers = new LinkedHashMap<>();
    for (String table : TABLES) {
      DeltaFormat format = table.equals("users") ? DeltaFormat.CDC : DeltaFormat.LATEST_STATE;
      Dataset<Row> delta = batch.datasets().get(manifest.tables().indexOf(table));
      if (format == DeltaFormat.CDC) {
        delta = delta.persist(StorageLevel.MEMORY_AND_DISK());
        persisted.add(delta);
      }
      readers.put(table, ViewTableReader.read(spark, table, paths.get(table), format, manifest.previousPosition(table),
          manifest.nextPosition(table), delta));
    }
    return readers;
  }

  private static Set<String> changedKeys(String table, ViewTableReader reader) {
    Set<String> keys = new TreeSet<>();
    reader.state().changedKeys().ifPresent(rows -> rows.collectAsList().forEach(row -> {
      Object[] values = new Object[ViewWorkload.SCHEMAS.get(table).size()];
      for (String column : ViewWorkload.KEYS.get(table)) {
        values[ViewWorkload.SCHEMAS.get(table).fieldIndex(column)] = row.get(row.fieldIndex(column));
      }
      keys.add(ViewWorkload.key(table, values));
    }));
    return keys;
  }

  /** A view and its target: a Hudi table at a path, or rows held in memory. */
  private static final class View implements AutoCloseable {
    private final ViewCase viewCase;
    private final ViewQuery query;
    private final Option<String> hudiTarget;
    private final TargetRows memoryTarget;
    private ViewDefinition definition;

    View(String name, ViewCase viewCase, Option<String> hudiTarget) {
      this.viewCase = viewCase;
      this.query = ViewWorkload.query(SharedSpark.session(), viewCase.sql, name);
      this.hudiTarget = hudiTarget;
      this.memoryTarget = new TargetRows(viewCase.key);
    }

    @Override
    public void close() {
      query.close();
    }

    /** Runs one incremental batch, writes its rows and checks the target against the query over the workload. */
    void batch(SparkSession spark, Map<String, ViewTableReader> readers, Map<String, Map<String, Object[]>> tables,
               String batch) {
      String described = batch + ", query " + viewCase;
      Map<String, TableState> states = new LinkedHashMap<>();
      readers.forEach((table, reader) -> states.put(table, reader.state()));
      boolean first = definition == null;
      if (first) {
        Map<String, Dataset<Row>> currents = new LinkedHashMap<>();
        Map<String, List<String>> recordKeys = new LinkedHashMap<>();
        readers.forEach((table, reader) -> {
          currents.put(table, reader.state().current());
          recordKeys.put(table, reader.recordKey());
        });
        definition = ViewDefinition.of(query, currents, recordKeys, viewCase.key);
        assertFalse(definition.refusal().isPresent(), described + ": " + definition.refusal());
      }
      ViewBatch viewBatch = new ViewBatch(spark, definition, states, new ListLimit(100), Instant.now());
      Option<Dataset<Row>> stored = first ? Option.empty() : hudiTarget.isPresent()
          ? ViewTarget.load(spark, hudiTarget.get()).flatMap(ViewTarget::stored) : Option.of(memoryTarget.stored(spark));
      // The first batch fills the target by a full recompute, as strategy AUTO would; every later one is incremental.
      Dataset<Row> rows = first ? viewBatch.full(stored) : viewBatch.incremental(stored);
      List<String> actual;
      if (hudiTarget.isPresent()) {
        writeTarget(rows, hudiTarget.get());
        actual = TargetRows.multiset(spark.read().format("hudi").load(hudiTarget.get()).collectAsList(),
            definition.columns());
      } else {
        memoryTarget.apply(rows, described);
        actual = memoryTarget.multiset(definition.columns());
      }
      viewBatch.persisted().forEach(Dataset::unpersist);
      Map<String, Dataset<Row>> workloadTables = new HashMap<>();
      TABLES.forEach(table -> workloadTables.put(table, ViewWorkload.dataset(spark, table, tables.get(table))));
      List<String> expected = TargetRows.multiset(Dataset.ofRows(spark, query.analyze(workloadTables)).collectAsList(),
          definition.columns());
      if (!expected.equals(actual)) {
        fail(String.format("%s: the target differs from the query over the tables; %s; steps %s", described,
            TargetRows.difference(expected, actual), viewBatch.steps()));
      }
    }

    /** Upserts the batch's rows into a COPY_ON_WRITE target partitioned by status, ordered by the commit order. */
    private static void writeTarget(Dataset<Row> rows, String path) {
      rows.write().format("hudi")
          .option("hoodie.table.name", "grouped_view")
          .option("hoodie.datasource.write.table.type", "COPY_ON_WRITE")
          .option("hoodie.datasource.write.operation", "upsert")
          .option("hoodie.datasource.write.recordkey.field", "country,status")
          .option("hoodie.datasource.write.precombine.field", ViewDefinition.COMMIT_ORDER)
          .option("hoodie.datasource.write.partitionpath.field", "status")
          .option("hoodie.datasource.write.keygenerator.class", ComplexKeyGenerator.class.getName())
          .options(LEAN_WRITES)
          .option("hoodie.upsert.shuffle.parallelism", "2")
          .option("hoodie.insert.shuffle.parallelism", "2")
          .mode(SaveMode.Append)
          .save(path);
    }
  }

  private TypedProperties sourceProperties() {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", String.join(",", TABLES));
    paths.forEach((table, path) -> {
      props.setProperty("hoodie.streamer.source.hudi." + table + ".path", path);
      props.setProperty("hoodie.streamer.source.hudi." + table + ".missing.checkpoint.strategy",
          "READ_UPTO_LATEST_COMMIT");
    });
    props.setProperty("hoodie.streamer.source.hudi.users.incr.format", DeltaFormat.CDC.name());
    return props;
  }

  /**
   * Writes a table's changes between two states: an upsert of the rows inserted or updated, then a delete of the keys
   * gone. Returns the keys changed.
   */
  private Set<String> write(String table, Map<String, Object[]> after) {
    Map<String, Object[]> before = written.get(table);
    String path = paths.get(table);
    Map<String, Object[]> upserts = ViewWorkload.upserted(before, after);
    Map<String, Object[]> deletes = ViewWorkload.deleted(before, after);
    if (!upserts.isEmpty()) {
      save(ViewWorkload.dataset(spark, table, upserts), table, path, "upsert");
    }
    if (!deletes.isEmpty()) {
      save(ViewWorkload.dataset(spark, table, deletes), table, path, "delete");
      deletedKeys.merge(table, deletes.size(), Integer::sum);
    }
    written.put(table, after);
    Set<String> changed = new TreeSet<>(upserts.keySet());
    changed.addAll(deletes.keySet());
    return changed;
  }

  private static void save(Dataset<Row> rows, String table, String path, String operation) {
    Map<String, String> options = new HashMap<>();
    options.put("hoodie.table.name", table);
    options.put("hoodie.datasource.write.table.type", table.equals("offers") ? "MERGE_ON_READ" : "COPY_ON_WRITE");
    options.put("hoodie.datasource.write.operation", operation);
    options.put("hoodie.datasource.write.recordkey.field", String.join(",", ViewWorkload.KEYS.get(table)));
    options.put("hoodie.datasource.write.precombine.field", ViewWorkload.KEYS.get(table).get(0));
    if (table.equals("orders")) {
      // Partitioned by a column that changes: a global index moves the row to its new partition.
      options.put("hoodie.datasource.write.partitionpath.field", "status");
      options.put("hoodie.datasource.write.keygenerator.class", SimpleKeyGenerator.class.getName());
      options.put("hoodie.index.type", "GLOBAL_SIMPLE");
      options.put("hoodie.simple.index.update.partition.path", "true");
    } else {
      options.put("hoodie.datasource.write.partitionpath.field", "");
      options.put("hoodie.datasource.write.keygenerator.class", NonpartitionedKeyGenerator.class.getName());
    }
    if (table.equals("users")) {
      options.put("hoodie.table.cdc.enabled", "true");
      options.put("hoodie.table.cdc.supplemental.logging.mode", "DATA_BEFORE_AFTER");
    }
    options.putAll(LEAN_WRITES);
    options.put("hoodie.upsert.shuffle.parallelism", "2");
    options.put("hoodie.insert.shuffle.parallelism", "2");
    options.put("hoodie.delete.shuffle.parallelism", "2");
    rows.write().format("hudi").options(options).mode(SaveMode.Append).save(path);
  }
}
