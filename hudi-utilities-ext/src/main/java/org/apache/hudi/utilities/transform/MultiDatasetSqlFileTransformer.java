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
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.util.FileIOUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.config.ConfigValues;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SqlTransformerConfig;
import org.apache.hudi.utilities.exception.HoodieTransformException;
import org.apache.hudi.utilities.exception.HoodieTransformExecutionException;
import org.apache.hudi.utilities.exception.HoodieTransformPlanException;
import org.apache.hudi.utilities.hudi014.RecordIndexScan;
import org.apache.hudi.utilities.hudi014.TableSnapshot;
import org.apache.hudi.utilities.transform.sql.DeltaKeyJoins;
import org.apache.hudi.utilities.transform.sql.DeltaKeyJoins.KeyJoin;
import org.apache.hudi.utilities.transform.sql.SnapshotKeyFilter;
import org.apache.hudi.utilities.transform.sql.SnapshotKeyFilter.KeyIndex;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders.Kind;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders.Reference;
import org.apache.hudi.utilities.transform.sql.SqlStatements;
import org.apache.hudi.utilities.transform.sql.TemporaryView;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.apache.hudi.common.util.ConfigUtils.containsConfigProperty;
import static org.apache.hudi.common.util.ConfigUtils.getStringWithAltKeys;

/**
 * Transforms the datasets of a batch with a SQL file: the multi-dataset counterpart of the stock
 * {@link SqlFileBasedTransformer}, and a drop-in replacement for it (same key {@code hoodie.streamer.transformer.sql.file},
 * same results for a single dataset).
 *
 * <p>The file references the datasets through the placeholders of {@link SourcePlaceholders}: the rows read as
 * {@code <SRC_0>}, {@code <SRC_1>}, ..., {@code <SRC:table>} ({@code <SRC>} for the first), and each table's full state
 * as of the position this batch commits ({@code <SNAP_i>}, {@code <SNAP:table>}) or the position before it
 * ({@code <PREV_i>}, {@code <PREV:table>}), read with Hudi time travel at exactly those instants. Only what the file
 * references is registered, each as a temp view with a name unique to the batch. It may hold several statements
 * separated by {@code ;}; the result of the last one is written. The registered views, and every temp view the file
 * creates ({@code CREATE [OR REPLACE] TEMPORARY VIEW}, {@code CACHE TABLE ... AS}), are dropped when the batch is done,
 * whether it succeeded or not.
 *
 * <p>The file is read and every placeholder is checked before any statement runs.
 */
public class MultiDatasetSqlFileTransformer implements MultiDatasetTransformer {

  private static final Logger LOG = LoggerFactory.getLogger(MultiDatasetSqlFileTransformer.class);

  private static final String VIEW_PREFIX = "HOODIE_SRC_TMP_TABLE_";

  /** The view of this job's SQL file, if it is a view's: checked at the first batch, then kept. */
  private final MultiTableView view;
  /**
   * The datasets the last batch's placeholders read, which may be cached (a delta read for its keys by
   * {@link SnapshotKeyFilter}, a {@code CACHE TABLE} of a placeholder): unpersisted at the next batch.
   */
  private List<Dataset<Row>> lastBatchInputs = Collections.emptyList();

  /** As the Streamer creates it (by name): a view's batches run at the system clock's time. */
  public MultiDatasetSqlFileTransformer() {
    this(Clock.systemUTC());
  }

  /**
   * @param clock what a view's batch takes its time from, once per batch: the instant its query's time functions
   *              ({@code current_timestamp()}, {@code current_date()}, ...) read in every plan of the batch
   */
  public MultiDatasetSqlFileTransformer(Clock clock) {
    this.view = new MultiTableView(clock);
  }

  @Override
  public Dataset<Row> apply(JavaSparkContext jsc, SparkSession sparkSession, List<Dataset<Row>> datasets,
                            TypedProperties properties) {
    return apply(jsc, sparkSession, new MultiDatasetBatch(datasets, Option.empty()), properties);
  }

  @Override
  public Dataset<Row> apply(JavaSparkContext jsc, SparkSession sparkSession, MultiDatasetBatch batch,
                            TypedProperties properties) {
    List<Dataset<Row>> datasets = batch.datasets();
    if (datasets.isEmpty()) {
      throw new HoodieTransformException("Cannot transform an empty list of datasets");
    }
    String sqlFile = sqlFile(properties);
    List<String> statements = statements(jsc, sqlFile);
    batch.manifest().ifPresent(manifest -> checkPositionalBindingsUnchanged(String.join(";", statements), sqlFile, manifest));
    SourcePlaceholders placeholders = placeholders(properties, datasets.size());
    if (statements.isEmpty()) {
      throw new HoodieTransformException("Cannot transform with SQL file " + sqlFile + ": it holds no statement");
    }
    // The Streamer has written the last batch when it asks for the next one.
    lastBatchInputs.forEach(Dataset::unpersist);
    lastBatchInputs = Collections.emptyList();
    if (MultiTableView.isView(statements, placeholders)) {
      return view.apply(sparkSession, batch, statements, sqlFile, placeholders, properties);
    }
    // Everything the SQL references is resolved before any statement runs: a bad placeholder commits nothing.
    Map<Reference, Input> inputs = new LinkedHashMap<>();
    for (String statement : statements) {
      for (Reference reference : placeholders.referencesIn(statement)) {
        inputs.computeIfAbsent(reference, ref -> input(sparkSession, batch, ref, properties));
      }
    }
    String batchId = UUID.randomUUID().toString().replace("-", "_");
    Map<Reference, String> views = new LinkedHashMap<>();
    inputs.keySet().forEach(reference -> views.put(reference, viewName(batchId, reference)));
    // Each snapshot placeholder gets a view of its own: one joined with a delta may be read with the delta's keys only.
    Map<String, Reference> snapshotViews = new LinkedHashMap<>();
    List<String> boundStatements = new ArrayList<>();
    statements.forEach(statement -> boundStatements.add(placeholders.bind(statement, reference -> {
      if (reference.kind() == Kind.SRC) {
        return views.get(reference);
      }
      String view = views.get(reference) + "_" + snapshotViews.size();
      snapshotViews.put(view, reference);
      return view;
    })));
    Map<String, Dataset<Row>> viewInputs = new LinkedHashMap<>();
    views.forEach((reference, view) -> {
      if (reference.kind() == Kind.SRC) {
        viewInputs.put(view, inputs.get(reference).rows);
      }
    });
    if (!snapshotViews.isEmpty()) {
      MultiTableReadConf conf = MultiTableReadConf.from(properties);
      SnapshotKeyFilter keyFilter = new SnapshotKeyFilter(sparkSession, conf.snapshotPushdownMaxKeys(),
          conf.snapshotPushdownKeyRange());
      viewInputs.putAll(snapshotInputs(sparkSession, boundStatements, snapshotViews, inputs, viewInputs, keyFilter));
    }
    lastBatchInputs = new ArrayList<>(viewInputs.values());

    Set<TemporaryView> createdViews = new LinkedHashSet<>();
    try {
      viewInputs.forEach((view, input) -> input.createOrReplaceTempView(view));
      Dataset<Row> result = null;
      for (String statement : boundStatements) {
        LOG.info("Running SQL transformation statement: {}", statement);
        result = sparkSession.sql(statement);
        // Recorded once created: a failed CREATE must not drop a view of the same name that the file did not make.
        TemporaryView.createdBy(statement).ifPresent(createdViews::add);
      }
      return result;
    } finally {
      // Dropped without uncaching what they read (Catalog.dropTempView would): the batch's query, run when the
      // Streamer writes it, still reads a persisted delta from the cache.
      viewInputs.keySet().forEach(view -> sparkSession.sessionState().catalog().dropTempView(view));
      for (TemporaryView view : createdViews) {
        if (view.isGlobal()) {
          sparkSession.catalog().dropGlobalTempView(view.name());
        } else {
          sparkSession.catalog().dropTempView(view.name());
        }
      }
    }
  }

  /**
   * For a view's SQL file: the strategy the last batch ran by, why, and the steps of its plan; empty otherwise or before
   * the first batch.
   */
  public Option<String> viewBatch() {
    return view.lastDecision().map(decision -> decision + "; steps: " + String.join("; ", decision.steps()));
  }

  /**
   * The SQL file of the job.
   *
   * @throws HoodieTransformException if {@code hoodie.streamer.transformer.sql.file} is not set
   */
  public static String sqlFile(TypedProperties properties) {
    String sqlFile = getStringWithAltKeys(properties, SqlTransformerConfig.TRANSFORMER_SQL_FILE, true);
    if (sqlFile == null) {
      throw new HoodieTransformException("Cannot run " + MultiDatasetSqlFileTransformer.class.getSimpleName() + ": "
          + SqlTransformerConfig.TRANSFORMER_SQL_FILE.key() + " is not set (set it to the path of the SQL file)");
    }
    return sqlFile;
  }

  /**
   * The statements of a SQL file, with their placeholders, in the order they run.
   *
   * @throws HoodieTransformExecutionException if the file cannot be read
   */
  public static List<String> statements(JavaSparkContext jsc, String sqlFile) {
    return SqlStatements.split(readSql(jsc, sqlFile));
  }

  /**
   * What the placeholders of the job's SQL mean for a batch of {@code datasetCount} datasets.
   *
   * @throws HoodieTransformException if the job names a different number of tables
   */
  public static SourcePlaceholders placeholders(TypedProperties properties, int datasetCount) {
    return new SourcePlaceholders(tableNames(properties, datasetCount), datasetCount);
  }

  /**
   * The dataset of each snapshot view: the snapshot restricted to the keys of the delta it is joined with where
   * {@link DeltaKeyJoins} finds such a join (to their range if the delta has many), the whole snapshot otherwise. Every
   * placeholder occurrence has a view of its own, so a table whose snapshot the SQL references several times, each
   * joined with another delta field, has each read restricted by its own join.
   */
  private static Map<String, Dataset<Row>> snapshotInputs(SparkSession spark, List<String> boundStatements,
                                                          Map<String, Reference> snapshotViews,
                                                          Map<Reference, Input> inputs,
                                                          Map<String, Dataset<Row>> deltaViews,
                                                          SnapshotKeyFilter keyFilter) {
    Map<String, Dataset<Row>> snapshots = new LinkedHashMap<>();
    Map<String, KeyJoin> keyJoins = new HashMap<>();
    for (String statement : boundStatements) {
      DeltaKeyJoins.in(spark, statement, snapshotViews.keySet(), deltaViews.keySet())
          .forEach(join -> keyJoins.put(join.snapshotView(), join));
    }
    snapshotViews.forEach((view, reference) -> {
      Input snapshot = inputs.get(reference);
      KeyJoin join = keyJoins.get(view);
      snapshots.put(view, join == null ? snapshot.rows : keyFilter.restrict(snapshot.rows, join,
          deltaViews.get(join.deltaView()), snapshot.keyIndex).orElse(snapshot.rows));
    });
    return snapshots;
  }

  private static String viewName(String batchId, Reference reference) {
    return VIEW_PREFIX + batchId + "_" + (reference.kind() == Kind.SRC ? "" : reference.kind() + "_") + reference.index();
  }

  private static Input input(SparkSession spark, MultiDatasetBatch batch, Reference reference,
                             TypedProperties properties) {
    Dataset<Row> rowsRead = batch.datasets().get(reference.index());
    if (reference.kind() == Kind.SRC) {
      return new Input(rowsRead, KeyIndex.NONE);
    }
    CarrierManifest manifest = batch.manifest().orElseThrow(() -> new HoodieTransformPlanException(String.format(
        "Cannot bind <%s_%d>: table snapshots need the positions of a HoodieIncrMultiSource batch, and these datasets "
            + "did not come from one", reference.kind(), reference.index())));
    String table = manifest.tables().get(reference.index());
    Option<String> position = reference.kind() == Kind.SNAP ? manifest.nextPosition(table) : manifest.previousPosition(table);
    String path = ConfigValues.raw(properties, HoodieIncrMultiSourceConfig.forTable(HoodieIncrMultiSourceConfig.TABLE_PATH,
        table)).orElseThrow(() ->
        new HoodieTransformPlanException(String.format("Cannot read a snapshot of table '%s': %s is not set", table,
            HoodieIncrMultiSourceConfig.forTable(HoodieIncrMultiSourceConfig.TABLE_PATH, table).key())));
    Dataset<Row> snapshot = TableSnapshot.asOf(spark, table, path, position, rowsRead);
    return new Input(snapshot, !TableSnapshot.isState(position) ? KeyIndex.NONE
        : (column, keys) -> RecordIndexScan.rowsWithKeys(spark, table, path, position.get(), snapshot, column, keys));
  }

  /** What a placeholder reads: its rows, and for a snapshot, the index that finds its rows by key, if any. */
  private static final class Input {
    private final Dataset<Row> rows;
    private final KeyIndex keyIndex;

    private Input(Dataset<Row> rows, KeyIndex keyIndex) {
      this.rows = rows;
      this.keyIndex = keyIndex;
    }
  }

  /** Positional placeholders bind by list position: a reordered table list would silently swap their tables. */
  private static void checkPositionalBindingsUnchanged(String sql, String sqlFile, CarrierManifest manifest) {
    List<String> moved = manifest.reorderedTables();
    if (!moved.isEmpty() && SourcePlaceholders.isPositional(sql)) {
      throw new HoodieTransformPlanException(String.format("Cannot run SQL file %s: it references tables by position "
          + "(<SRC>, <SRC_i>), and tables %s moved in %s since the last commit (then %s, now %s), which would bind "
          + "those placeholders to other tables. Nothing was committed. Use <SRC:table> placeholders, or restore the "
          + "table order; if the SQL already matches the new order, record it by running once with --checkpoint "
          + "'<the stored positions, without an @order entry>,@order=%s'.", sqlFile, moved,
          HoodieIncrMultiSourceConfig.TABLES.key(), manifest.previousOrder(), manifest.tables(),
          String.join("|", manifest.tables())));
    }
  }

  /** The table names of the datasets, when the job names them; name placeholders need them. */
  private static List<String> tableNames(TypedProperties properties, int datasetCount) {
    if (!containsConfigProperty(properties, HoodieIncrMultiSourceConfig.TABLES)) {
      return Collections.emptyList();
    }
    List<String> tables = HoodieIncrMultiSourceConfig.tables(properties);
    if (tables.size() != datasetCount) {
      throw new HoodieTransformException(String.format("Cannot bind %d datasets to the %d tables %s of %s: the "
          + "transformer must receive one dataset per configured table (is it the first transformer of the chain?)",
          datasetCount, tables.size(), tables, HoodieIncrMultiSourceConfig.TABLES.key()));
    }
    return tables;
  }

  private static String readSql(JavaSparkContext jsc, String sqlFile) {
    Path path = new Path(sqlFile);
    try (FSDataInputStream in = FSUtils.getFs(sqlFile, jsc.hadoopConfiguration(), true).open(path)) {
      return new String(FileIOUtils.readAsByteArray(in), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new HoodieTransformExecutionException("Cannot read SQL file " + sqlFile + " set in "
          + SqlTransformerConfig.TRANSFORMER_SQL_FILE.key() + ": " + e.getMessage()
          + ". Check that it exists and is readable by the Spark driver.", e);
    }
  }
}
