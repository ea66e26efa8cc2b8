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
import org.apache.hudi.utilities.transform.view.LineagePlan.TableKey;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static scala.collection.JavaConverters.asScalaBuffer;
import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * The rows one batch writes to keep a view's target equal to the view's query over the tables as of the batch's
 * positions, given the target equals it as of the previous ones: each row of the result carries
 * {@link ViewDefinition#IS_DELETED} (true deletes the target's row of its key) and {@link ViewDefinition#COMMIT_ORDER}.
 *
 * <p>Incremental: the rows of the query that can differ between the two states are those made of a changed table row
 * (see {@link LineagePlan}). The query is run once per state, keeping the rows whose lineage holds a changed key of
 * some table; with left outer joins, the rows of the same identity at both states are added (a row whose match
 * appeared or disappeared). A join view writes these rows as of the new state and deletes the keys they had only in the
 * old one. A grouped view recomputes, from the new state, the groups of these rows at both states (reading only their
 * rows), and deletes those that no longer have a row (or fail HAVING).
 *
 * <p>Full: the query over the new state, and deletes of the keys its result had over the old state only.
 */
public final class ViewBatch {

  private static final Logger LOG = LoggerFactory.getLogger(ViewBatch.class);

  private static final String GROUP_PREFIX = LineagePlan.PREFIX + "group_";
  private static final String MATCH_PREFIX = LineagePlan.PREFIX + "match_";

  private final SparkSession spark;
  private final ViewDefinition view;
  private final Map<String, TableState> tables;
  private final int maxListedKeys;
  private final List<Dataset<Row>> persisted = new ArrayList<>();
  private final List<String> steps = new ArrayList<>();

  /**
   * @param tables        every table of the view (others are left out), by name
   * @param maxListedKeys most keys a restriction lists in an IN filter (pushed into the table's scan); more keys
   *                      restrict by a semi-join
   */
  public ViewBatch(SparkSession spark, ViewDefinition view, Map<String, TableState> tables, int maxListedKeys) {
    this.spark = spark;
    this.view = view;
    this.tables = tables;
    this.maxListedKeys = maxListedKeys;
  }

  /** The two states of the tables a batch reads. */
  private enum State {
    PREVIOUS, CURRENT
  }

  /** The view's rows of the batch, by recomputing the rows the changed table rows can reach. */
  public Dataset<Row> incremental() {
    view.refusal().ifPresent(reason -> {
      throw new IllegalStateException("The view cannot be maintained incrementally: " + reason);
    });
    Map<String, Rows> changedKeys = new LinkedHashMap<>();
    view.query().tables().forEach(table -> tables.get(table).changedKeys().ifPresent(keys -> {
      TableKey key = view.keyOf(table);
      Rows rows = rows(keys.select(key.of(keys::col).as(LineagePlan.keyColumn(key.index()))).distinct());
      if (!rows.isEmpty()) {
        changedKeys.put(table, rows);
      }
    }));
    if (changedKeys.isEmpty()) {
      steps.add("no table changed: no rows");
      return output(emptyRows(), false);
    }
    Map<State, Dataset<Row>> affected = new LinkedHashMap<>();
    LineagePlan lineage = null;
    String described = changedKeys.entrySet().stream()
        .map(changed -> changed.getValue().describe() + " of " + changed.getKey()).collect(Collectors.joining(", "));
    for (State state : State.values()) {
      Core core = core(tablesAt(state));
      lineage = core.lineage;
      affected.put(state, madeOfChangedRows(core.rows, changedKeys));
      steps.add(String.format("rows made of the changed keys (%s), at the %s state", described,
          state.name().toLowerCase()));
    }
    if (lineage.hasLeftOuterJoins()) {
      affected = sameIdentity(affected, lineage.identity());
    }
    return view.isGrouped() ? regrouped(affected) : rejoined(affected, lineage.identity());
  }

  /** The view's rows of the batch, by running the query over the new state (and the old one, for deletes). */
  public Dataset<Row> full() {
    Dataset<Row> current = cached(Dataset.ofRows(spark, view.query().analyze(tablesAt(State.CURRENT))));
    Dataset<Row> previous = Dataset.ofRows(spark, view.query().analyze(tablesAt(State.PREVIOUS)));
    steps.add("the query over the new state, and deletes of the keys only its result over the old state has");
    return output(current, false).unionByName(output(notIn(previous, current, view.targetKey(), Function.identity()),
        true));
  }

  /** What the batch ran, one line per step, in order. */
  public List<String> steps() {
    return Collections.unmodifiableList(steps);
  }

  /** Datasets persisted for the batch's rows: unpersist them once the batch is written. */
  public List<Dataset<Row>> persisted() {
    return Collections.unmodifiableList(persisted);
  }

  /**
   * The rows whose lineage holds a changed key of some table: one pass over the query's rows per state, whatever the
   * number of changed tables. When one table changed, Spark pushes the filter through the joins into its scan.
   */
  private Dataset<Row> madeOfChangedRows(Dataset<Row> rows, Map<String, Rows> changedKeys) {
    Column made = lit(false);
    List<String> matchColumns = new ArrayList<>();
    for (Map.Entry<String, Rows> changed : changedKeys.entrySet()) {
      TableKey key = view.keyOf(changed.getKey());
      String keyColumn = LineagePlan.keyColumn(key.index());
      Rows keys = changed.getValue();
      if (keys.values.isPresent() && key.columns().size() == 1) {
        made = made.or(col(keyColumn).isin(keys.values.get().stream().map(row -> row.get(0)).toArray()));
      } else {
        String match = MATCH_PREFIX + key.index();
        Dataset<Row> matches = keys.dataset.select(col(keyColumn).as(match));
        rows = rows.join(broadcast(matches), rows.col(keyColumn).equalTo(matches.col(match)), "left_outer");
        made = made.or(col(match).isNotNull());
        matchColumns.add(match);
      }
    }
    return rows.where(made).drop(matchColumns.toArray(new String[0]));
  }

  /** With left outer joins: the rows, at each state, of every identity found made of a changed row at either. */
  private Map<State, Dataset<Row>> sameIdentity(Map<State, Dataset<Row>> affected, List<String> identity) {
    Dataset<Row> identities = affected.get(State.PREVIOUS).unionByName(affected.get(State.CURRENT))
        .select(identity.stream().map(column -> col(column)).toArray(Column[]::new)).distinct();
    Rows ids = rows(identities);
    Map<State, Dataset<Row>> rows = new LinkedHashMap<>();
    for (State state : State.values()) {
      Map<String, Dataset<Row>> bound = tablesAt(state);
      for (String table : view.query().tables()) {
        String keyColumn = LineagePlan.keyColumn(view.keyOf(table).index());
        if (identity.contains(keyColumn)) {
          Rows keys = rows(ids.dataset.select(keyColumn).where(col(keyColumn).isNotNull()).distinct());
          bound.put(table, restrict(bound.get(table), table, keys));
        }
      }
      rows.put(state, semiJoin(core(bound).rows, ids.dataset, identity, identity));
      steps.add(String.format("rows of the %s identities of those rows (left outer joins), at the %s state",
          ids.describe(), state.name().toLowerCase()));
    }
    return rows;
  }

  /** A join view: the affected rows as of the new state, and deletes of the keys they had only in the old one. */
  private Dataset<Row> rejoined(Map<State, Dataset<Row>> affected, List<String> identity) {
    Column[] columns = view.columns().stream().map(column -> col(quoted(column))).toArray(Column[]::new);
    Dataset<Row> current = cached(affected.get(State.CURRENT).dropDuplicates(identity.toArray(new String[0]))
        .select(columns));
    Dataset<Row> previous = affected.get(State.PREVIOUS).dropDuplicates(identity.toArray(new String[0])).select(columns);
    steps.add("upsert those rows as of the new state; delete the keys they had only in the old state");
    return output(current, false).unionByName(output(notIn(previous, current, view.targetKey(), Function.identity()),
        true));
  }

  /** A grouped view: the groups of the affected rows, recomputed from the new state; deletes of those left empty. */
  private Dataset<Row> regrouped(Map<State, Dataset<Row>> affected) {
    LogicalPlan analyzed = view.query().analyze(tablesAt(State.CURRENT));
    LogicalPlan grouping = ViewDefinition.groupingOf(analyzed).get();
    List<Expression> groupingExpressions = ViewDefinition.groupingExpressions(grouping);
    int groupCount = groupingExpressions.size();
    Column[] groupColumns = new Column[groupCount];
    for (int i = 0; i < groupCount; i++) {
      groupColumns[i] = col(GROUP_PREFIX + i);
    }
    Rows groups = rows(affected.get(State.PREVIOUS).select(groupColumns)
        .unionByName(affected.get(State.CURRENT).select(groupColumns)).distinct());
    Dataset<Row> input = Dataset.ofRows(spark, grouping.children().head());
    Dataset<Row> restricted;
    if (groupCount == 1 && groups.values.isPresent()) {
      Column group = new Column(groupingExpressions.get(0));
      List<Object> values = groups.values.get().stream().map(row -> row.get(0)).collect(Collectors.toList());
      Column in = group.isin(values.stream().filter(value -> value != null).toArray());
      restricted = input.where(values.contains(null) ? in.or(group.isNull()) : in);
    } else {
      Dataset<Row> keys = renamed(groups.dataset, GROUP_PREFIX, MATCH_PREFIX);
      Column condition = lit(true);
      for (int i = 0; i < groupCount; i++) {
        condition = condition.and(new Column(groupingExpressions.get(i)).eqNullSafe(keys.col(MATCH_PREFIX + i)));
      }
      restricted = input.join(keys, condition, "left_semi");
    }
    LogicalPlan recomputed = replace(analyzed, grouping,
        grouping.withNewChildren(asScalaBuffer(Collections.singletonList(restricted.queryExecution().analyzed())).toSeq()));
    Dataset<Row> current = cached(Dataset.ofRows(spark, recomputed));
    steps.add(String.format("recompute the %s groups of those rows from the new state, reading only their rows; delete "
        + "those without a row", groups.describe()));
    // Each deleted group's row: its key columns from the group, the others null.
    Map<String, Integer> groupOfKey = view.groupOfKeyColumn();
    Dataset<Row> emptied = notIn(groups.dataset, current, view.targetKey(), key -> GROUP_PREFIX + groupOfKey.get(key));
    List<Column> deleted = new ArrayList<>();
    for (StructField field : current.schema().fields()) {
      Integer group = groupOfKey.entrySet().stream().filter(entry -> entry.getKey().equalsIgnoreCase(field.name()))
          .map(Map.Entry::getValue).findFirst().orElse(null);
      deleted.add((group == null ? lit(null) : col(GROUP_PREFIX + group)).cast(field.dataType()).as(field.name()));
    }
    return output(current, false).unionByName(output(emptied.select(deleted.toArray(new Column[0])), true));
  }

  /** The query's join part at one binding of the tables, with lineage; a grouped view's rows as their groups. */
  private Core core(Map<String, Dataset<Row>> bound) {
    LogicalPlan analyzed = view.query().analyze(bound);
    Option<LogicalPlan> grouping = ViewDefinition.groupingOf(analyzed);
    LogicalPlan joined = grouping.map(plan -> plan.children().head()).orElse(analyzed);
    LineagePlan lineage = LineagePlan.of(joined, view.keyOfView());
    LogicalPlan plan = lineage.plan();
    if (grouping.isPresent()) {
      List<NamedExpression> projected = new ArrayList<>();
      List<Expression> groupingExpressions = ViewDefinition.groupingExpressions(grouping.get());
      for (int i = 0; i < groupingExpressions.size(); i++) {
        projected.add((NamedExpression) new Column(groupingExpressions.get(i)).as(GROUP_PREFIX + i).expr());
      }
      seqAsJavaList(plan.output()).stream().filter(attribute -> LineagePlan.isLineage(attribute.name()))
          .forEach(projected::add);
      plan = new Project(asScalaBuffer(projected).toSeq(), plan);
    }
    return new Core(Dataset.ofRows(spark, plan), lineage);
  }

  private Map<String, Dataset<Row>> tablesAt(State state) {
    Map<String, Dataset<Row>> bound = new LinkedHashMap<>();
    view.query().tables().forEach(table -> bound.put(table,
        state == State.CURRENT ? tables.get(table).current() : tables.get(table).previous()));
    return bound;
  }

  /** The table's rows whose key is among the keys: an IN filter Spark pushes into the scan, or a semi-join. */
  private Dataset<Row> restrict(Dataset<Row> table, String name, Rows keys) {
    TableKey key = view.keyOf(name);
    String keyColumn = LineagePlan.keyColumn(key.index());
    if (keys.values.isPresent() && key.columns().size() == 1) {
      return table.where(col(quoted(key.columns().get(0))).isin(keys.values.get().stream().map(row -> row.get(0))
          .toArray()));
    }
    Dataset<Row> matches = keys.dataset.select(col(keyColumn).as(MATCH_PREFIX + "key"));
    return table.join(matches, key.of(column -> table.col(quoted(column))).equalTo(matches.col(MATCH_PREFIX + "key")),
        "left_semi");
  }

  /** Rows of {@code rows} whose key columns match no row of {@code others} (nulls match nulls). */
  private static Dataset<Row> notIn(Dataset<Row> rows, Dataset<Row> others, List<String> key,
                                    Function<String, String> columnOfKey) {
    Dataset<Row> keys = others.select(key.stream().map(column -> col(quoted(column)).as(MATCH_PREFIX + column))
        .toArray(Column[]::new));
    Column condition = lit(true);
    for (String column : key) {
      condition = condition.and(rows.col(quoted(columnOfKey.apply(column))).eqNullSafe(keys.col(MATCH_PREFIX + column)));
    }
    return rows.join(keys, condition, "left_anti");
  }

  private static Dataset<Row> semiJoin(Dataset<Row> rows, Dataset<Row> keys, List<String> rowColumns,
                                       List<String> keyColumns) {
    Dataset<Row> matches = keys.select(keyColumns.stream().map(column -> col(column).as(MATCH_PREFIX + column))
        .toArray(Column[]::new));
    Column condition = lit(true);
    for (int i = 0; i < rowColumns.size(); i++) {
      condition = condition.and(rows.col(rowColumns.get(i)).eqNullSafe(matches.col(MATCH_PREFIX + keyColumns.get(i))));
    }
    return rows.join(matches, condition, "left_semi");
  }

  private static Dataset<Row> renamed(Dataset<Row> rows, String prefix, String newPrefix) {
    return rows.select(seqAsJavaList(rows.queryExecution().analyzed().output()).stream()
        .map(attribute -> col(attribute.name()).as(newPrefix + attribute.name().substring(prefix.length())))
        .toArray(Column[]::new));
  }

  private static Dataset<Row> output(Dataset<Row> rows, boolean deleted) {
    return rows.withColumn(ViewDefinition.IS_DELETED, lit(deleted)).withColumn(ViewDefinition.COMMIT_ORDER, lit(0));
  }

  private Dataset<Row> emptyRows() {
    Dataset<Row> result = Dataset.ofRows(spark, view.query().analyze(tablesAt(State.CURRENT)));
    return spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).<Row>emptyRDD(),
        result.schema());
  }

  /** A plan with one node replaced. */
  private static LogicalPlan replace(LogicalPlan plan, LogicalPlan node, LogicalPlan replacement) {
    if (plan == node) {
      return replacement;
    }
    List<LogicalPlan> children = seqAsJavaList(plan.children()).stream()
        .map(child -> replace(child, node, replacement)).collect(Collectors.toList());
    return plan.withNewChildren(asScalaBuffer(children).toSeq());
  }

  private static String quoted(String column) {
    return "`" + column.replace("`", "``") + "`";
  }

  /** Rows of the batch's result read twice (written, and matched against the old state's): computed once. */
  private Dataset<Row> cached(Dataset<Row> rows) {
    Dataset<Row> stored = rows.persist(StorageLevel.MEMORY_AND_DISK());
    persisted.add(stored);
    return stored;
  }

  /**
   * Rows a batch uses several times: collected when at most maxListedKeys (then held as a local dataset), persisted
   * otherwise. Persisted before they are counted, so that rows found by a shuffle (a table's deleted keys compare two
   * key scans) are not found again when used.
   */
  private Rows rows(Dataset<Row> dataset) {
    Dataset<Row> stored = dataset.persist(StorageLevel.MEMORY_AND_DISK());
    List<Row> first = stored.limit(maxListedKeys + 1).collectAsList();
    if (first.size() <= maxListedKeys) {
      stored.unpersist();
      return new Rows(spark.createDataFrame(first, dataset.schema()), Option.of(first));
    }
    persisted.add(stored);
    LOG.info("Persisted more than {} rows for the view's batch: {}", maxListedKeys, dataset.columns());
    return new Rows(stored, Option.empty());
  }

  private final class Rows {
    private final Dataset<Row> dataset;
    private final Option<List<Row>> values;

    Rows(Dataset<Row> dataset, Option<List<Row>> values) {
      this.dataset = dataset;
      this.values = values;
    }

    boolean isEmpty() {
      return values.isPresent() && values.get().isEmpty();
    }

    String describe() {
      return values.map(list -> String.valueOf(list.size())).orElse("more than " + maxListedKeys);
    }
  }

  private static final class Core {
    private final Dataset<Row> rows;
    private final LineagePlan lineage;

    Core(Dataset<Row> rows, LineagePlan lineage) {
      this.rows = rows;
      this.lineage = lineage;
    }
  }
}
