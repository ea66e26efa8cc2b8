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
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.keygen.constant.KeyGeneratorOptions;
import org.apache.hudi.util.SparkKeyGenUtils;
import org.apache.hudi.utilities.config.DeltaFormat;
import org.apache.hudi.utilities.config.HoodieViewConfig;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.config.ViewConf;
import org.apache.hudi.utilities.config.ViewDefinitionChange;
import org.apache.hudi.utilities.config.ViewStrategy;
import org.apache.hudi.utilities.exception.HoodieTransformPlanException;
import org.apache.hudi.utilities.hudi014.ViewMetrics;
import org.apache.hudi.utilities.hudi014.ViewTableReader;
import org.apache.hudi.utilities.hudi014.ViewTarget;
import org.apache.hudi.utilities.hudi014.ViewTargetWrites;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders.Kind;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders.Reference;
import org.apache.hudi.utilities.transform.view.TableState;
import org.apache.hudi.utilities.transform.view.ViewBatch;
import org.apache.hudi.utilities.transform.view.ViewCost;
import org.apache.hudi.utilities.transform.view.ViewDefinition;
import org.apache.hudi.utilities.transform.view.ViewQuery;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Runs a view's SQL file for the batches of one job: the file's one query reads whole tables through
 * &lt;TABLE:name&gt; placeholders, and each batch writes the rows that keep the target equal to the query's result as
 * of the batch's positions (see {@link ViewBatch}), incrementally or by a full recompute as
 * {@link HoodieViewConfig#STRATEGY} decides. The view is checked once, at its first batch, before anything is
 * committed: a query that cannot be maintained incrementally under {@code STRICT}, a target record key the result does
 * not keep unique, an ordering field other than {@link ViewDefinition#COMMIT_ORDER}, target writes whose payload does
 * not replace rows ({@link ViewTargetWrites}), and (once a process, one scan) a target already holding a record key
 * twice. Each batch's decision is logged and, under the Streamer with {@code hoodie.metrics.on}, published as the
 * target's {@link ViewMetrics}.
 */
final class MultiTableView {

  private static final Logger LOG = LoggerFactory.getLogger(MultiTableView.class);

  /** What each batch takes its time from, once: the time its query's time functions read. */
  private final Clock clock;
  private ViewDefinition definition;
  /** The settings, parsed once from the properties they were parsed from (again only if the job's properties change). */
  private TypedProperties settingsFrom;
  private ViewConf viewConf;
  private MultiTableReadConf readConf;
  private String definedSql;
  private Map<String, StructType> definedSchemas;
  private List<Dataset<Row>> persisted = new ArrayList<>();
  private Option<Decision> lastDecision = Option.empty();
  /** Whether this process checked that the target holds each record key once (its own batches keep it so). */
  private boolean targetKeysChecked;

  MultiTableView(Clock clock) {
    this.clock = clock;
  }

  /** Whether a SQL file is a view's: it references tables through &lt;TABLE...&gt; placeholders. */
  static boolean isView(List<String> statements, SourcePlaceholders placeholders) {
    return statements.stream().anyMatch(statement -> placeholders.referencesIn(statement).stream()
        .anyMatch(reference -> reference.kind() == Kind.TABLE));
  }

  /** The strategy a batch ran by, and why. */
  static final class Decision {
    private final ViewStrategy strategy;
    private final boolean incremental;
    private final String reason;
    private final List<String> steps;

    Decision(ViewStrategy strategy, boolean incremental, String reason, List<String> steps) {
      this.strategy = strategy;
      this.incremental = incremental;
      this.reason = reason;
      this.steps = steps;
    }

    boolean incremental() {
      return incremental;
    }

    List<String> steps() {
      return steps;
    }

    @Override
    public String toString() {
      return String.format("strategy %s: %s, because %s", strategy, incremental ? "incremental" : "full recompute", reason);
    }
  }

  /** The last batch's decision; empty before the first. */
  Option<Decision> lastDecision() {
    return lastDecision;
  }

  Dataset<Row> apply(SparkSession spark, MultiDatasetBatch batch, List<String> statements, String sqlFile,
                     SourcePlaceholders placeholders, TypedProperties properties) {
    if (statements.size() != 1 || placeholders.referencesIn(statements.get(0)).stream()
        .anyMatch(reference -> reference.kind() != Kind.TABLE)) {
      throw new HoodieTransformPlanException(String.format("Cannot run SQL file %s as a view: a view's file holds one "
          + "query that reads tables through <TABLE:name> placeholders only (it holds %d statement(s)%s). Nothing was "
          + "committed. <SRC>, <SNAP> and <PREV> belong to hand-written recipes, which cannot be mixed with a view.",
          sqlFile, statements.size(), statements.size() == 1 ? ", with other placeholders too" : ""));
    }
    CarrierManifest manifest = batch.manifest().orElseThrow(() -> new HoodieTransformPlanException(String.format(
        "Cannot run SQL file %s as a view: a view needs the positions of a HoodieIncrMultiSource batch, and these "
            + "datasets did not come from one", sqlFile)));
    parseSettings(properties, sqlFile);
    persisted.forEach(Dataset::unpersist);
    persisted = new ArrayList<>();
    String sql = statements.get(0);
    List<String> tables = manifest.tables();
    Option<String> rebuild = checkDefinition(ViewDefinitionFingerprint.of(spark, sql, sqlFile, placeholders, tables, properties),
        manifest, sqlFile);
    Map<String, ViewTableReader> readers = new LinkedHashMap<>();
    for (Reference reference : placeholders.referencesIn(sql)) {
      String table = tables.get(reference.index());
      SourceTable source = readConf.table(table).get();
      readers.computeIfAbsent(table, name -> ViewTableReader.read(spark, name, source.path(), source.deltaFormat(),
          manifest.previousPosition(name), manifest.nextPosition(name), delta(batch, reference.index(), source)));
    }
    Map<String, TableState> states = new LinkedHashMap<>();
    readers.forEach((table, reader) -> states.put(table, reader.state()));
    Option<ViewTarget> target = manifest.target().flatMap(path -> ViewTarget.load(spark, path));
    if (!targetKeysChecked) {
      target.ifPresent(table -> ViewTargetWrites.checkKeysUnique(sqlFile, table));
      targetKeysChecked = true;
    }
    // Defined again when a table's columns change: a SELECT * or a column added to a source reaches the target.
    Map<String, StructType> schemas = new LinkedHashMap<>();
    states.forEach((table, state) -> schemas.put(table, state.current().schema()));
    if (definition == null || !sql.equals(definedSql) || !schemas.equals(definedSchemas)) {
      definition = define(spark, sql, sqlFile, placeholders, tables, readers, properties, target);
      definedSql = sql;
      definedSchemas = schemas;
    }
    ViewStrategy strategy = viewConf.strategy();
    if (strategy == ViewStrategy.STRICT && definition.refusal().isPresent()) {
      throw new HoodieTransformPlanException(String.format("Cannot maintain the view of %s incrementally, and %s=%s "
          + "refuses a full recompute: %s. Nothing was committed. Rewrite the query within the supported shapes "
          + "(docs/views.md), or set %s=%s to recompute it in full when it cannot be maintained incrementally.",
          sqlFile, HoodieViewConfig.STRATEGY.key(), strategy, definition.refusal().get(),
          HoodieViewConfig.STRATEGY.key(), ViewStrategy.AUTO));
    }
    Instant batchTime = clock.instant();
    ViewBatch viewBatch = new ViewBatch(spark, definition, states, viewConf.listLimit(), batchTime);
    List<ViewCost.TableChange> changes = readers.values().stream()
        .map(reader -> reader.change().reachingIfListed(definition.joinedTo(reader.table()), viewConf.listLimit()))
        .collect(Collectors.toList());
    // Before the Streamer's first commit the target's type is unknown: taken to be the Streamer's default.
    boolean rewritesFiles = !target.isPresent() || target.get().rewritesFiles();
    ViewCost cost = ViewCost.estimate(changes, definition.isGrouped(), definition.keepsAggregateState(), rewritesFiles,
        viewConf.costWeights());
    boolean incremental;
    String reason;
    if (rebuild.isPresent()) {
      incremental = false;
      reason = rebuild.get() + " (" + cost + ")";
    } else if (strategy == ViewStrategy.FULL) {
      incremental = false;
      reason = HoodieViewConfig.STRATEGY.key() + "=" + strategy + " (" + cost + ")";
    } else if (strategy == ViewStrategy.STRICT) {
      incremental = true;
      reason = HoodieViewConfig.STRATEGY.key() + "=" + strategy + " (" + cost + ")";
    } else if (definition.refusal().isPresent()) {
      incremental = false;
      reason = "the query cannot be maintained incrementally: " + definition.refusal().get();
    } else {
      incremental = cost.incrementalIsCheaper();
      reason = cost.toString();
    }
    Dataset<Row> rows;
    try {
      Option<Dataset<Row>> stored = target.flatMap(ViewTarget::stored);
      rows = incremental ? viewBatch.incremental(stored) : viewBatch.full(stored);
    } catch (IllegalArgumentException e) {
      throw new HoodieTransformPlanException(String.format("Cannot write the view of %s: %s. Nothing was committed.",
          sqlFile, e.getMessage()), e);
    }
    persisted.addAll(viewBatch.persisted());
    Decision decision = new Decision(strategy, incremental, reason, viewBatch.steps());
    lastDecision = Option.of(decision);
    LOG.info("View of {} over {} at {}: {}; steps: {}", sqlFile, definition.query().tables(), batchTime, decision,
        viewBatch.steps());
    manifest.target().ifPresent(path -> ViewMetrics.publish(path, properties, decision.incremental(), cost));
    return rows;
  }

  /**
   * Checks the view's definition against the one that wrote the target, as the checkpoints record them.
   *
   * @param fingerprint the definition this batch runs
   * @return why the batch recomputes the target in full, when the definition changed and the job asks for a rebuild
   * @throws HoodieTransformPlanException when the definition changed and the job does not ask for a rebuild, or the
   *     SQL file changed while the batch was read
   */
  private Option<String> checkDefinition(String fingerprint, CarrierManifest manifest, String sqlFile) {
    // The source fingerprinted the file when it made the checkpoint this batch commits: it must record this definition.
    if (!manifest.viewDefinition().equals(Option.of(fingerprint))) {
      throw new HoodieTransformPlanException(String.format("Cannot run the view of %s: its definition is %s, and the "
          + "checkpoint of this batch records %s: the SQL file (or the target's record key) changed while the batch "
          + "was read. Nothing was committed; the next batch reads it again.", sqlFile, fingerprint,
          manifest.viewDefinition().orElse("none")));
    }
    Option<String> previous = manifest.previousViewDefinition();
    if (!previous.isPresent() || previous.get().equals(fingerprint)) {
      return Option.empty();
    }
    String changed = String.format("the view's definition changed: the target was written by definition %s, and %s "
        + "now defines %s", previous.get(), sqlFile, fingerprint);
    if (viewConf.definitionChange() == ViewDefinitionChange.REBUILD) {
      LOG.warn("View of {}: {}; {}={}: this batch recomputes the target in full by the new definition", sqlFile, changed,
          HoodieViewConfig.DEFINITION_CHANGE.key(), ViewDefinitionChange.REBUILD);
      return Option.of(changed + ", and " + HoodieViewConfig.DEFINITION_CHANGE.key() + "=" + ViewDefinitionChange.REBUILD);
    }
    throw new HoodieTransformPlanException(String.format("Cannot run the view of %s: %s (the query as Spark parses it, "
        + "or the target's record key, differs). Merging rows of the new query into the old one's would leave the "
        + "target equal to neither. Nothing was committed. Restore the previous SQL file; or set %s=%s to recompute "
        + "the target in full by the new definition once; or, if the edit cannot change the result, record it by "
        + "running once with --checkpoint '<the stored checkpoint, its @view entry replaced>' ending in ',@view=%s'.",
        sqlFile, changed, HoodieViewConfig.DEFINITION_CHANGE.key(), ViewDefinitionChange.REBUILD, fingerprint));
  }

  private void parseSettings(TypedProperties properties, String sqlFile) {
    if (properties.equals(settingsFrom)) {
      return;
    }
    try {
      viewConf = ViewConf.from(properties, sqlFile);
    } catch (IllegalArgumentException e) {
      throw new HoodieTransformPlanException(e.getMessage() + ". Nothing was committed.", e);
    }
    readConf = MultiTableReadConf.from(properties);
    settingsFrom = new TypedProperties(properties);
  }

  /**
   * A table's delta; a CDC delta persisted, read for its changed keys and for the images of both states (Hudi's CDC
   * query reads the window's change logs and folds each key's changes, which is not worth doing three times).
   */
  private Dataset<Row> delta(MultiDatasetBatch batch, int index, SourceTable source) {
    Dataset<Row> delta = batch.datasets().get(index);
    if (source.deltaFormat() != DeltaFormat.CDC) {
      return delta;
    }
    Dataset<Row> stored = delta.persist(StorageLevel.MEMORY_AND_DISK());
    persisted.add(stored);
    return stored;
  }

  private static ViewDefinition define(SparkSession spark, String sql, String sqlFile, SourcePlaceholders placeholders,
                                       List<String> tables, Map<String, ViewTableReader> readers,
                                       TypedProperties properties, Option<ViewTarget> target) {
    // The Streamer orders records by --source-ordering-field, which it writes into a new target's table config but
    // not into the properties a transformer sees: both are checked.
    Option<String> targetOrdering = target.flatMap(ViewTarget::orderingField);
    String propertyOrdering = properties.getString(HoodieWriteConfig.PRECOMBINE_FIELD_NAME.key(),
        ViewDefinition.COMMIT_ORDER);
    for (String ordering : Arrays.asList(propertyOrdering, targetOrdering.orElse(ViewDefinition.COMMIT_ORDER))) {
      if (!ordering.equals(ViewDefinition.COMMIT_ORDER)) {
        throw new HoodieTransformPlanException(String.format("Cannot run SQL file %s as a view: the target orders "
            + "records by '%s' (%s %s); a view's rows carry %s, the same on every row, so that each batch's rows "
            + "replace the target's on MERGE_ON_READ tables too. Nothing was committed. Run the Streamer with "
            + "--source-ordering-field %s (and %s=%s, if set).", sqlFile, ordering,
            ordering.equals(propertyOrdering) ? "property" : "--source-ordering-field, in the target's table config",
            HoodieWriteConfig.PRECOMBINE_FIELD_NAME.key(), ViewDefinition.COMMIT_ORDER, ViewDefinition.COMMIT_ORDER,
            HoodieWriteConfig.PRECOMBINE_FIELD_NAME.key(), ViewDefinition.COMMIT_ORDER));
      }
    }
    ViewTargetWrites.checkRowsReplace(sqlFile, properties, target);
    String targetKeySetting = properties.getString(KeyGeneratorOptions.RECORDKEY_FIELD_NAME.key(), "");
    if (targetKeySetting.trim().isEmpty()) {
      throw new HoodieTransformPlanException(String.format("Cannot run SQL file %s as a view: %s is not set. Nothing "
          + "was committed. Set it to the columns of the view's result that identify a row (the fact table's key "
          + "through N:1 joins, the group columns under GROUP BY).", sqlFile, KeyGeneratorOptions.RECORDKEY_FIELD_NAME.key()));
    }
    List<String> targetKey = Arrays.stream(targetKeySetting.split(",")).map(String::trim).collect(Collectors.toList());
    for (String partitionColumn : SparkKeyGenUtils.getPartitionColumns(properties).split(",")) {
      String column = partitionColumn.trim();
      if (!column.isEmpty() && targetKey.stream().noneMatch(key -> key.equalsIgnoreCase(column))) {
        throw new HoodieTransformPlanException(String.format("Cannot run SQL file %s as a view: the target is "
            + "partitioned by '%s' (%s), which is not a column of its record key %s (%s). A row whose '%s' changes "
            + "would be upserted into its new partition while its old copy stays, and the row deleting a key would "
            + "name no partition. Nothing was committed. Add '%s' to %s, partition the target by record key columns "
            + "only, or leave it unpartitioned.", sqlFile, column, KeyGeneratorOptions.PARTITIONPATH_FIELD_NAME.key(),
            targetKey, KeyGeneratorOptions.RECORDKEY_FIELD_NAME.key(), column, column,
            KeyGeneratorOptions.RECORDKEY_FIELD_NAME.key()));
      }
    }
    String batchId = UUID.randomUUID().toString().replace("-", "_");
    Map<String, String> viewOfTable = new LinkedHashMap<>();
    for (String table : tables) {
      if (readers.containsKey(table)) {
        viewOfTable.put(table, "hoodie_view_" + batchId + "_" + tables.indexOf(table));
      }
    }
    String bound = placeholders.bind(sql, reference -> viewOfTable.get(tables.get(reference.index())));
    Map<String, Dataset<Row>> current = new LinkedHashMap<>();
    Map<String, List<String>> recordKeys = new LinkedHashMap<>();
    readers.forEach((table, reader) -> {
      current.put(table, reader.state().current());
      recordKeys.put(table, reader.recordKey());
    });
    try {
      ViewDefinition view = ViewDefinition.of(new ViewQuery(spark, bound, viewOfTable), current, recordKeys, targetKey);
      LOG.info("View of {}: {}", sqlFile, view);
      return view;
    } catch (IllegalArgumentException e) {
      throw new HoodieTransformPlanException(String.format("Cannot run SQL file %s as a view: %s. Nothing was "
          + "committed.", sqlFile, e.getMessage()), e);
    }
  }
}
