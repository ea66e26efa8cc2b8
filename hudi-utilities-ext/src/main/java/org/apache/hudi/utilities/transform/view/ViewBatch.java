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
import org.apache.hudi.utilities.transform.sql.EmptyRows;
import org.apache.hudi.utilities.transform.view.LineagePlan.TableKey;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_set;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.size;
import static scala.collection.JavaConverters.asScalaBuffer;
import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * The rows one batch writes to keep a view's target equal to the view's query over the tables as of the batch's
 * positions, given the target equals it as of the previous ones: each row of the result carries
 * {@link ViewDefinition#IS_DELETED} (true deletes the target's row of its key) and {@link ViewDefinition#COMMIT_ORDER}.
 *
 * <p>Incremental: the rows of the query that can differ between the two states are those made of a changed table row
 * (see {@link LineagePlan}). The query is run once per changed table and state, that table restricted to its changed
 * keys (pushed into its scan) and the others whole, keeping the rows whose lineage holds one of those keys; with left
 * outer joins, the rows of the same identity at both states are added (a row whose match appeared or disappeared). A
 * join view writes these rows as of the new state and deletes the keys they had only in the old one. A grouped view
 * recomputes, from the new state, the groups of these rows at both states (reading only their rows), and deletes those
 * that no longer have a row (or fail HAVING).
 *
 * <p>Full: the query over the new state, and deletes of the target's keys (or of the old state's result) it lacks.
 */
public final class ViewBatch {

  private static final Logger LOG = LoggerFactory.getLogger(ViewBatch.class);

  private static final String GROUP_PREFIX = LineagePlan.PREFIX + "group_";
  private static final String MATCH_PREFIX = LineagePlan.PREFIX + "match_";

  private final SparkSession spark;
  private final ViewDefinition view;
  private final Map<String, TableState> tables;
  private final ListLimit listLimit;
  private final BatchTime time;
  private final List<Dataset<Row>> persisted = new ArrayList<>();
  private final List<String> steps = new ArrayList<>();
  private final Map<State, Map<String, Dataset<Row>>> changedRows = new EnumMap<>(State.class);
  /** Per table joined to a changed table, its rows the changed rows meet as of the new state. */
  private final Map<String, Dataset<Row>> reachedRows = new HashMap<>();

  /**
   * @param tables    every table of the view (others are left out), by name
   * @param listLimit how many keys a restriction lists in an IN filter (pushed into the table's scan); more keys
   *                  restrict by a semi-join
   * @param time      the time the batch runs at: what the query's time functions read in every plan of the batch
   *                  (see {@link BatchTime})
   */
  public ViewBatch(SparkSession spark, ViewDefinition view, Map<String, TableState> tables, ListLimit listLimit,
                   Instant time) {
    this.spark = spark;
    this.view = view;
    this.tables = tables;
    this.listLimit = listLimit;
    this.time = new BatchTime(time);
  }

  /** The two states of the tables a batch reads. */
  private enum State {
    PREVIOUS, CURRENT
  }

  /**
   * The view's rows of the batch, by recomputing the rows the changed table rows can reach.
   *
   * @param stored the target's rows; empty if it has none (before its first commit). A grouped view that keeps
   *               {@link AggregateState} updates its groups from the state these rows hold.
   */
  public Dataset<Row> incremental(Option<Dataset<Row>> stored) {
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
        .map(changed -> changed.getValue().describe() + " of " + changed.getKey()
            + (tables.get(changed.getKey()).changedRowsAfter().isPresent() ? ", their rows from the delta's images" : ""))
        .collect(Collectors.joining(", "));
    Map<String, List<Reach>> reaches = reaches(changedKeys);
    for (State state : State.values()) {
      List<Dataset<Row>> branches = new ArrayList<>();
      for (Map.Entry<String, Rows> changed : changedKeys.entrySet()) {
        Map<String, Dataset<Row>> bound = restrictedTo(tablesAt(state), changed.getKey(), changed.getValue(), state);
        for (Reach reach : reaches.getOrDefault(changed.getKey(), Collections.emptyList())) {
          reached(reach, state, changedKeys, reaches).ifPresent(rows -> bound.put(reach.table, rows));
        }
        Core core = core(bound);
        lineage = core.lineage;
        branches.add(madeOfChangedRows(core.rows, changed.getKey(), changed.getValue()));
      }
      Dataset<Row> rows = branches.stream().reduce(Dataset::unionByName).get();
      if (branches.size() > 1) {
        // A row made of changed rows of two tables is found by both tables' passes; its lineage tells it apart.
        rows = rows.dropDuplicates(seqAsJavaList(rows.queryExecution().analyzed().output()).stream()
            .map(attribute -> attribute.name()).filter(LineagePlan::isLineage).toArray(String[]::new));
      }
      affected.put(state, rows);
      steps.add(String.format("rows made of the changed keys (%s), a pass per changed table over its changed rows, at "
          + "the %s state", described, state.name().toLowerCase()));
    }
    if (lineage.hasLeftOuterJoins()) {
      affected = sameIdentity(affected, lineage.identity());
    }
    if (!view.isGrouped()) {
      return rejoined(affected);
    }
    AggregateState state = view.aggregateState();
    if (!state.isKept()) {
      steps.add("the view keeps no aggregate state: " + state.notKeptBecause().get());
    } else if (stored.isPresent() && holdsState(stored.get())) {
      Option<Dataset<Row>> updated = updatedFromState(affected, stored.get());
      if (updated.isPresent()) {
        return updated.get();
      }
    } else {
      steps.add("the target holds no aggregate state yet (it is written with this batch's groups)");
    }
    return regrouped(affected);
  }

  /**
   * The view's rows of the batch, by running the query over the new state and deleting the keys its result does not
   * have: of the rows the target stores (also rows the old state's query no longer yields, as a query reading the
   * time would), or where none are given, of the query's result over the old state.
   *
   * @param stored the target's rows; empty if it has none (before its first commit)
   */
  public Dataset<Row> full(Option<Dataset<Row>> stored) {
    Dataset<Row> current = withKeys(cached(result(analyzed(tablesAt(State.CURRENT)))));
    Dataset<Row> before;
    if (stored.isPresent()) {
      before = stored.get();
      steps.add("the query over the new state, and deletes of the target's keys its result does not have");
    } else {
      before = Dataset.ofRows(spark, analyzed(tablesAt(State.PREVIOUS)));
      steps.add("the query over the new state, and deletes of the keys only its result over the old state has");
    }
    return output(current, false).unionByName(deletes(notIn(targetKeys(before), current, view.targetKey(),
        Function.identity()), current.schema(), Function.identity()));
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
   * The tables with one of them restricted to its changed keys: the other tables' rows reach the query only through
   * their joins with those rows. The changed keys' rows are read from the delta where it holds them (a CDC delta's
   * images), else from the state by key. A restriction to listed keys is broadcast (it holds at most as many rows as
   * keys).
   */
  private Map<String, Dataset<Row>> restrictedTo(Map<String, Dataset<Row>> bound, String table, Rows keys,
                                                 State state) {
    Dataset<Row> restricted = changedRows(table, keys, state);
    bound.put(table, keys.values.isPresent() ? broadcast(restricted) : restricted);
    return bound;
  }

  /**
   * A changed table's rows of its changed keys at a state, read once for the batch (its own pass and the passes of the
   * tables it joins use them): from the delta where it holds them, else from the state by key.
   */
  private Dataset<Row> changedRows(String table, Rows keys, State state) {
    return changedRows.computeIfAbsent(state, any -> new HashMap<>()).computeIfAbsent(table, any -> {
      TableState tableState = tables.get(table);
      Option<Dataset<Row>> images = state == State.CURRENT ? tableState.changedRowsAfter()
          : tableState.changedRowsBefore();
      return cached(images.isPresent() ? images.get()
          : restrict(state == State.CURRENT ? tableState.current() : tableState.previous(), table, keys));
    });
  }

  /**
   * For each changed table whose changed rows are few enough to list, the tables its pass needs only in part: those
   * the query joins to it by an equality of one of their columns to one of its (see {@link JoinEdges}), with the values
   * its changed rows hold in that column at either state, where those are few enough to list too.
   */
  private Map<String, List<Reach>> reaches(Map<String, Rows> changedKeys) {
    Map<String, List<Reach>> reaches = new LinkedHashMap<>();
    for (Map.Entry<String, Rows> changed : changedKeys.entrySet()) {
      if (!changed.getValue().values.isPresent()) {
        continue;
      }
      Dataset<Row> before = changedRows(changed.getKey(), changed.getValue(), State.PREVIOUS);
      Dataset<Row> after = changedRows(changed.getKey(), changed.getValue(), State.CURRENT);
      Map<String, JoinEdges.Edge> edges = new LinkedHashMap<>();
      for (String table : view.query().tables()) {
        Option<JoinEdges.Edge> edge = view.joinEdges().between(table, changed.getKey());
        if (!table.equals(changed.getKey()) && edge.isPresent() && hasColumn(before, edge.get().joinedColumn())
            && hasColumn(tables.get(table).current(), edge.get().column())) {
          edges.put(table, edge.get());
        }
      }
      if (edges.isEmpty()) {
        continue;
      }
      Map<String, List<Object>> valuesOf = distinctValues(before, after, edges.values().stream()
          .map(JoinEdges.Edge::joinedColumn).distinct().collect(Collectors.toList()));
      edges.forEach((table, edge) -> {
        List<Object> values = valuesOf.get(edge.joinedColumn());
        if (listLimit.lists(values.size())) {
          reaches.computeIfAbsent(changed.getKey(), any -> new ArrayList<>())
              .add(new Reach(table, edge.column(), values));
          steps.add(String.format("the changed rows of %s meet %s only where %s.%s is one of their %d values of %s: "
              + "those rows of %s read once, as of the new state; as of the old state, derived from them",
              changed.getKey(), table, table, edge.column(), values.size(), edge.joinedColumn(), table));
        }
      });
    }
    return reaches;
  }

  /**
   * The distinct values other than null that rows of a changed table hold in each of some columns at either state, in
   * one job for all the columns: a dimension joined to two tables is read once. The rows are those of listed keys, so
   * the values are at most twice as many as the keys.
   */
  private static Map<String, List<Object>> distinctValues(Dataset<Row> before, Dataset<Row> after,
                                                          List<String> columns) {
    Column[] selected = columns.stream().map(column -> col(quoted(column))).toArray(Column[]::new);
    Column[] valueSets = columns.stream().map(column -> collect_set(col(quoted(column)))).toArray(Column[]::new);
    Row sets = before.select(selected).unionByName(after.select(selected)).select(valueSets).first();
    Map<String, List<Object>> valuesOf = new HashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      valuesOf.put(columns.get(i), sets.getList(i));
    }
    return valuesOf;
  }

  /**
   * The rows of a table that a changed table's pass meets at a state: those whose joined column holds one of the
   * changed rows' values. As of the new state they are read once for every pass (persisted); as of the old one they
   * are the same rows less those of the table's own changed keys, plus its changed keys' old rows that hold one of the
   * values. Empty where the table's columns differ between the states: the pass then reads it whole.
   */
  private Option<Dataset<Row>> reached(Reach reach, State state, Map<String, Rows> changedKeys,
                                       Map<String, List<Reach>> reaches) {
    TableState tableState = tables.get(reach.table);
    Column reachedBy = col(quoted(reach.column)).isin(reach.values.toArray());
    Dataset<Row> current = reachedRows.computeIfAbsent(reach.table, table -> {
      Column any = lit(false);
      for (List<Reach> ofTable : reaches.values()) {
        for (Reach other : ofTable) {
          if (other.table.equals(table)) {
            any = any.or(col(quoted(other.column)).isin(other.values.toArray()));
          }
        }
      }
      return cached(tableState.current().where(any));
    }).where(reachedBy);
    if (state == State.CURRENT) {
      return Option.of(current);
    }
    if (!tableState.previous().schema().equals(tableState.current().schema())) {
      return Option.empty();
    }
    Rows keys = changedKeys.get(reach.table);
    if (keys == null) {
      // No key of the table changed: its rows are the same at both states.
      return Option.of(current);
    }
    return Option.of(byKeys(current, reach.table, keys, false)
        .unionByName(changedRows(reach.table, keys, State.PREVIOUS).where(reachedBy)));
  }

  private static boolean hasColumn(Dataset<Row> rows, String column) {
    return Arrays.stream(rows.columns()).anyMatch(name -> name.equals(column));
  }

  /**
   * The rows whose lineage holds a changed key of the table: the rows of a restricted table's pass that are made of
   * one of its rows (not those a left outer join extends with nulls where the restriction removed the match).
   */
  private Dataset<Row> madeOfChangedRows(Dataset<Row> rows, String table, Rows keys) {
    TableKey key = view.keyOf(table);
    String keyColumn = LineagePlan.keyColumn(key.index());
    if (keys.values.isPresent() && key.columns().size() == 1) {
      return rows.where(col(keyColumn).isin(keys.values.get().stream().map(row -> row.get(0)).toArray()));
    }
    String match = MATCH_PREFIX + key.index();
    Dataset<Row> matches = keys.dataset.select(col(keyColumn).as(match));
    // Listed keys are few; beyond the list limit Spark picks the join by size: a forced broadcast of any number of
    // keys would collect them all to the driver.
    return rows.join(keys.values.isPresent() ? broadcast(matches) : matches,
        rows.col(keyColumn).equalTo(matches.col(match)), "left_semi");
  }

  /** With left outer joins: the rows, at each state, of every identity found made of a changed row at either. */
  private Map<State, Dataset<Row>> sameIdentity(Map<State, Dataset<Row>> affected, List<String> identity) {
    // Identities only: the states' rows differ in columns where a column was added to a table.
    Column[] identityColumns = identity.stream().map(column -> col(column)).toArray(Column[]::new);
    Dataset<Row> identities = affected.get(State.PREVIOUS).select(identityColumns)
        .unionByName(affected.get(State.CURRENT).select(identityColumns)).distinct();
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
  private Dataset<Row> rejoined(Map<State, Dataset<Row>> affected) {
    Column[] columns = view.columns().stream().map(column -> col(quoted(column))).toArray(Column[]::new);
    Dataset<Row> current = withKeys(cached(affected.get(State.CURRENT).select(columns)));
    Dataset<Row> previous = targetKeys(affected.get(State.PREVIOUS)).distinct();
    steps.add("upsert those rows as of the new state; delete the keys they had only in the old state");
    return output(current, false).unionByName(deletes(notIn(previous, current, view.targetKey(), Function.identity()),
        current.schema(), Function.identity()));
  }

  /** Whether the target's rows hold the view's aggregate state (not if written before the view kept it). */
  private boolean holdsState(Dataset<Row> stored) {
    return Arrays.asList(stored.schema().fieldNames()).containsAll(view.aggregateState().columns());
  }

  /**
   * A grouped view keeping {@link AggregateState}: each group of the affected rows updated from the state the target
   * stores, by what its affected rows contribute as of the new state less what they did as of the old; deletes of the
   * groups left without a row or failing HAVING. A group whose state the change cannot update (an extreme that may have
   * left, a group HAVING kept out of the target) is recomputed from its rows. Empty if the target's row of such a group
   * holds no state (written before the view kept it): the groups are then recomputed.
   *
   * @throws IllegalArgumentException if the target's state and the change disagree (a group, or a value a
   *                                  COUNT(DISTINCT) counts, would have fewer than no rows): the target was not written
   *                                  by this view's batches alone
   */
  private Option<Dataset<Row>> updatedFromState(Map<State, Dataset<Row>> affected, Dataset<Row> stored) {
    AggregateState state = view.aggregateState();
    List<String> groupColumns = Arrays.stream(affected.get(State.CURRENT).columns())
        .filter(column -> column.startsWith(GROUP_PREFIX)).collect(Collectors.toList());
    Dataset<Row> change = state.change(affected.get(State.PREVIOUS), affected.get(State.CURRENT), groupColumns);
    Dataset<Row> updated = cached(state.updated(change, stored, groupColumns, view.groupOfKeyColumn()));
    Column rows = col(AggregateState.ROWS);
    Column recompute = col(AggregateState.RECOMPUTE);
    Column unstated = col(AggregateState.STORED).and(col(AggregateState.STORED_ROWS).isNull());
    Column disagrees = rows.lt(0).or(size(col(AggregateState.BELOW_ZERO)).gt(0));
    for (String count : state.countColumns()) {
      disagrees = disagrees.or(rows.equalTo(0).and(col(quoted(count)).notEqual(0)));
    }
    List<Row> wrong = updated.where(unstated.or(not(recompute).and(disagrees))).limit(1).collectAsList();
    if (!wrong.isEmpty() && wrong.get(0).<Boolean>getAs(AggregateState.STORED)
        && wrong.get(0).isNullAt(wrong.get(0).fieldIndex(AggregateState.STORED_ROWS))) {
      steps.add("the target's row of a changed group holds no aggregate state (written before the view kept it)");
      return Option.empty();
    }
    if (!wrong.isEmpty()) {
      throw new IllegalArgumentException(String.format("the aggregate state the target stores for a group disagrees "
          + "with the tables' change (the group, its state updated: %s): the target was written by another job too, "
          + "or a source's commits were read twice or skipped. Run one batch with the view's strategy FULL, which "
          + "rewrites every group and its state from the tables", wrong.get(0)));
    }
    Column[] written = state.writtenColumns().stream().map(column -> col(quoted(column))).toArray(Column[]::new);
    Column inView = col(AggregateState.IN_VIEW);
    Dataset<Row> current = withKeys(updated.where(not(recompute).and(inView)).select(written));
    steps.add("update the groups of those rows from the aggregate state the target stores: add what their rows as of "
        + "the new state contribute, take away what they contributed as of the old; delete the groups left without a "
        + "row" + (state.hasHaving() ? " or failing HAVING" : ""));
    Dataset<Row> result = output(current, false).unionByName(deletes(updated.where(not(recompute).and(not(inView))),
        current.schema(), Function.identity()));
    if (!state.mayRecompute()) {
      return Option.of(result);
    }
    Rows recomputed = rows(updated.where(recompute).select(groupColumns.stream().map(column -> col(column))
        .toArray(Column[]::new)));
    if (recomputed.isEmpty()) {
      steps.add("no group to recompute from its rows");
      return Option.of(result);
    }
    return Option.of(result.unionByName(regrouped(recomputed, "whose state the change cannot update ("
        + state.recomputedWhen() + ")")));
  }

  /**
   * The query's result over a binding of the tables: for a grouped view keeping {@link AggregateState}, with the
   * state's columns.
   */
  private Dataset<Row> result(LogicalPlan analyzed) {
    if (!view.aggregateState().isKept()) {
      return Dataset.ofRows(spark, analyzed);
    }
    ViewGrouping grouping = view.groupingOf(analyzed).get();
    return grouping.aggregateState().aggregated(Dataset.ofRows(spark, grouping.operator().input()),
        grouping.operator().groupingExpressions());
  }

  /** A grouped view: the groups of the affected rows, recomputed from the new state; deletes of those left empty. */
  private Dataset<Row> regrouped(Map<State, Dataset<Row>> affected) {
    Column[] groupColumns = Arrays.stream(affected.get(State.CURRENT).columns())
        .filter(column -> column.startsWith(GROUP_PREFIX)).map(column -> col(column)).toArray(Column[]::new);
    return regrouped(rows(affected.get(State.PREVIOUS).select(groupColumns)
        .unionByName(affected.get(State.CURRENT).select(groupColumns)).distinct()), "of those rows");
  }

  /**
   * Some groups recomputed from the new state, reading only their rows; deletes of those left without a row (or
   * failing HAVING).
   *
   * @param groups the groups' values of the grouping expressions, in columns {@code GROUP_PREFIX + i}
   */
  private Dataset<Row> regrouped(Rows groups, String which) {
    LogicalPlan analyzed = analyzed(tablesAt(State.CURRENT));
    ViewGrouping grouping = view.groupingOf(analyzed).get();
    List<Expression> groupingExpressions = grouping.operator().groupingExpressions();
    int groupCount = groupingExpressions.size();
    Dataset<Row> input = Dataset.ofRows(spark, grouping.operator().input());
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
    Dataset<Row> current;
    if (view.aggregateState().isKept()) {
      current = withKeys(cached(grouping.aggregateState().aggregated(restricted, groupingExpressions)));
    } else {
      LogicalPlan recomputed = replace(analyzed, grouping.operator().plan(), grouping.operator().plan().withNewChildren(
          asScalaBuffer(Collections.singletonList(restricted.queryExecution().analyzed())).toSeq()));
      current = withKeys(cached(Dataset.ofRows(spark, recomputed)));
    }
    steps.add(String.format("recompute the %s groups %s from the new state, reading only their rows; delete those "
        + "without a row%s", groups.describe(), which, view.aggregateState().hasHaving() ? " or failing HAVING" : ""));
    Map<String, Integer> groupOfKey = view.groupOfKeyColumn();
    Function<String, String> groupColumn = key -> GROUP_PREFIX + groupOfKey.get(key);
    return output(current, false).unionByName(deletes(notIn(groups.dataset, current, view.targetKey(), groupColumn),
        current.schema(), groupColumn));
  }

  /** The target's record key columns of rows of the query. */
  private Dataset<Row> targetKeys(Dataset<Row> rows) {
    return rows.select(view.targetKey().stream().map(column -> col(quoted(column))).toArray(Column[]::new));
  }

  /**
   * Rows deleting the target's rows of some keys, in the schema of the rows written beside them (a column added to a
   * table since the old state included): the key columns from {@code keys}, every other column null.
   *
   * @param columnOfKey the column of {@code keys} holding each record key column
   */
  private Dataset<Row> deletes(Dataset<Row> keys, StructType schema, Function<String, String> columnOfKey) {
    List<Column> columns = new ArrayList<>();
    for (StructField field : schema.fields()) {
      Option<String> key = Option.fromJavaOptional(view.targetKey().stream()
          .filter(column -> column.equalsIgnoreCase(field.name())).findFirst());
      columns.add((key.isPresent() ? col(quoted(columnOfKey.apply(key.get()))) : lit(null)).cast(field.dataType())
          .as(field.name()));
    }
    return output(keys.select(columns.toArray(new Column[0])), true);
  }

  /**
   * The rows to write, checked to have a record key: Hudi cannot write a row whose record key columns are all null (a
   * NULL group, a column a left outer join leaves null), and would fail inside the commit.
   */
  private Dataset<Row> withKeys(Dataset<Row> rows) {
    Column noKey = lit(true);
    for (String column : view.targetKey()) {
      noKey = noKey.and(col(quoted(column)).isNull());
    }
    List<Row> unkeyed = rows.where(noKey).limit(1).collectAsList();
    if (!unkeyed.isEmpty()) {
      throw new IllegalArgumentException(String.format("the view's result holds a row whose record key %s is null "
          + "(%s), which Hudi cannot write: a GROUP BY of a column that is null in a row (also one a LEFT JOIN leaves "
          + "null), or a null source value. Map the nulls to a value below the GROUP BY (SELECT country, count(*) FROM "
          + "(SELECT coalesce(u.country, 'none') AS country ...) GROUP BY country) or filter those rows out",
          view.targetKey(), unkeyed.get(0)));
    }
    return rows;
  }

  /** The query's join part at one binding of the tables, with lineage; a grouped view's rows as their groups. */
  private Core core(Map<String, Dataset<Row>> bound) {
    LogicalPlan analyzed = analyzed(bound);
    Option<ViewGrouping> grouping = view.groupingOf(analyzed);
    LogicalPlan joined = grouping.map(found -> found.operator().input()).orElse(analyzed);
    LineagePlan lineage = LineagePlan.of(joined, view.keyOfView());
    LogicalPlan plan = lineage.plan();
    if (grouping.isPresent()) {
      List<NamedExpression> projected = new ArrayList<>();
      List<Expression> groupingExpressions = grouping.get().operator().groupingExpressions();
      for (int i = 0; i < groupingExpressions.size(); i++) {
        projected.add((NamedExpression) new Column(groupingExpressions.get(i)).as(GROUP_PREFIX + i).expr());
      }
      seqAsJavaList(plan.output()).stream().filter(attribute -> LineagePlan.isLineage(attribute.name()))
          .forEach(projected::add);
      if (view.aggregateState().isKept()) {
        projected.addAll(grouping.get().aggregateState().inputs());
      }
      plan = new Project(asScalaBuffer(projected).toSeq(), plan);
    }
    return new Core(Dataset.ofRows(spark, plan), lineage);
  }

  /** The query's analyzed plan over a binding of the tables, its time functions reading the batch's time. */
  private LogicalPlan analyzed(Map<String, Dataset<Row>> bound) {
    return time.in(view.query().analyze(bound));
  }

  private Map<String, Dataset<Row>> tablesAt(State state) {
    Map<String, Dataset<Row>> bound = new LinkedHashMap<>();
    view.query().tables().forEach(table -> bound.put(table,
        state == State.CURRENT ? tables.get(table).current() : tables.get(table).previous()));
    return bound;
  }

  /** The table's rows whose key is among the keys: an IN filter Spark pushes into the scan, or a semi-join. */
  private Dataset<Row> restrict(Dataset<Row> table, String name, Rows keys) {
    return byKeys(table, name, keys, true);
  }

  /** The table's rows whose key is among the keys ({@code among}), or those whose key is not. */
  private Dataset<Row> byKeys(Dataset<Row> table, String name, Rows keys, boolean among) {
    TableKey key = view.keyOf(name);
    String keyColumn = LineagePlan.keyColumn(key.index());
    if (keys.values.isPresent() && key.columns().size() == 1) {
      Column listed = col(quoted(key.columns().get(0))).isin(keys.values.get().stream().map(row -> row.get(0))
          .toArray());
      return table.where(among ? listed : not(coalesce(listed, lit(false))));
    }
    Dataset<Row> matches = keys.dataset.select(col(keyColumn).as(MATCH_PREFIX + "key"));
    return table.join(matches, key.of(column -> table.col(quoted(column))).equalTo(matches.col(MATCH_PREFIX + "key")),
        among ? "left_semi" : "left_anti");
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
    Dataset<Row> result = result(analyzed(tablesAt(State.CURRENT)));
    return EmptyRows.of(spark, result.schema());
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
   * Rows a batch uses several times: collected when few enough to list (then held as a local dataset), persisted
   * otherwise. Persisted before they are counted, so that rows found by a shuffle (a table's deleted keys compare two
   * key scans) are not found again when used.
   */
  private Rows rows(Dataset<Row> dataset) {
    Dataset<Row> stored = dataset.persist(StorageLevel.MEMORY_AND_DISK());
    Option<List<Row>> listed = listLimit.listed(stored);
    if (listed.isPresent()) {
      stored.unpersist();
      return new Rows(spark.createDataFrame(listed.get(), dataset.schema()), listed);
    }
    persisted.add(stored);
    LOG.info("Persisted more than {} rows for the view's batch: {}", listLimit.maxValues(), dataset.columns());
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
      return values.map(list -> String.valueOf(list.size())).orElse("more than " + listLimit.maxValues());
    }
  }

  /** A table a changed table's pass needs only where its column holds one of the changed rows' values. */
  private static final class Reach {
    private final String table;
    private final String column;
    private final List<Object> values;

    Reach(String table, String column, List<Object> values) {
      this.table = table;
      this.column = column;
      this.values = values;
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
