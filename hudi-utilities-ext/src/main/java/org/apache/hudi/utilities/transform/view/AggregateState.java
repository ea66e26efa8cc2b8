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

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.catalyst.expressions.aggregate.Complete$;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.Max;
import org.apache.spark.sql.catalyst.expressions.aggregate.Min;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.types.AtomicType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.FractionalType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.apache.spark.sql.functions.abs;
import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.array_sort;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.isnan;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map_from_entries;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.negate;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.size;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;
import static scala.collection.JavaConverters.asScalaBuffer;
import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * The state a grouped view keeps per group, in hidden columns of the target's rows, so that a batch updates a group
 * from the change's rows alone. A group is updated by adding what the change's rows as of the new state contribute and
 * taking away what they contributed as of the old one; it is deleted when it has no row left or fails HAVING.
 *
 * <p>What each column of the view keeps:
 * <ul>
 *   <li>every group: its rows ({@link #ROWS});</li>
 *   <li>{@code COUNT(*)}, {@code COUNT(x)}: the count itself;</li>
 *   <li>{@code SUM(x)}: the sum and the count of the values it adds up (a sum of no values is null);</li>
 *   <li>{@code AVG(x)} of a number that is not a decimal: the sum and the count of its values;</li>
 *   <li>{@code MIN(x)}, {@code MAX(x)}: the extreme itself. The change's new values can only lower a minimum; a group
 *       whose old rows held its minimum (the extreme may have left) is recomputed from its rows, and only such a group;</li>
 *   <li>{@code COUNT(DISTINCT x)} of a value that is neither floating-point nor composite: how many rows hold each
 *       distinct value (its multiplicity), as an array of (key, value) entries sorted by key, so that equal states are
 *       written alike whichever strategy wrote them; the count is the number of entries;</li>
 *   <li>HAVING: the aggregates it reads that the view does not output are kept as hidden columns too, and the condition
 *       is evaluated on the updated state, so a group can cross it both ways. A group the target does not hold may have
 *       failed HAVING with rows the change does not show: such a group is recomputed from its rows.</li>
 * </ul>
 * Kept for a GROUP BY or DISTINCT at the root of the query (under HAVING and a choice of its columns) whose every
 * column is a group column or one of the aggregates above, none FILTERed, SUM and AVG not DISTINCT. Any other grouped
 * view (an expression over aggregates, a column computed over the GROUP BY) keeps none: its batch recomputes the groups
 * the change touches from their rows.
 *
 * <p>A sum of floating-point values kept this way is the sum of the batches' additions and subtractions: it can differ
 * from a recompute in the last digits, as Spark's own sum does between two orders of the same rows. A group whose
 * changed rows or stored sum hold a NaN or an infinity is recomputed from its rows, since no subtraction takes one out.
 */
final class AggregateState {

  /** The prefix of the hidden columns the target stores the state in. */
  static final String PREFIX = "_view_state_";
  /** The column holding a group's rows. */
  static final String ROWS = PREFIX + "rows";

  private static final String INPUT_PREFIX = LineagePlan.PREFIX + "input_";
  private static final String SIGN = LineagePlan.PREFIX + "sign";
  private static final String DELTA_PREFIX = LineagePlan.PREFIX + "delta_";
  private static final String STORED_PREFIX = LineagePlan.PREFIX + "stored_";
  private static final String MATCH_PREFIX = LineagePlan.PREFIX + "state_match_";
  /** The column of {@link #updated}'s rows telling whether the target held the group. */
  static final String STORED = LineagePlan.PREFIX + "stored";
  /** The column of {@link #updated}'s rows holding the group's rows as the target stored them (null: no state). */
  static final String STORED_ROWS = STORED_PREFIX + ROWS;
  /** The column of {@link #updated}'s rows telling that the group's state cannot be updated from the change. */
  static final String RECOMPUTE = LineagePlan.PREFIX + "recompute";
  /**
   * The column of {@link #updated}'s rows naming the values a COUNT(DISTINCT)'s state would count fewer than no rows of
   * (as {@code column = value}): empty unless the state and the change disagree.
   */
  static final String BELOW_ZERO = LineagePlan.PREFIX + "below_zero";
  /** The column of {@link #updated}'s rows telling that the updated group is in the view: it has rows and passes HAVING. */
  static final String IN_VIEW = LineagePlan.PREFIX + "in_view";

  /** What a column of the grouping holds. */
  private enum Kind {
    GROUP, COUNT, SUM, AVG, MIN, MAX, COUNT_DISTINCT
  }

  private static final class Output {
    /** The column holding it: the view's column, or for an aggregate only HAVING reads, a hidden one. */
    private final String column;
    private final boolean visible;
    private final Kind kind;
    private final int group;
    private final Expression argument;
    private final Expression aggregate;
    private final DataType type;

    Output(String column, boolean visible, Kind kind, int group, Expression argument, Expression aggregate,
           DataType type) {
      this.column = column;
      this.visible = visible;
      this.kind = kind;
      this.group = group;
      this.argument = argument;
      this.aggregate = aggregate;
      this.type = type;
    }

    Output hidden(String column) {
      return new Output(column, false, kind, group, argument, aggregate, type);
    }
  }

  private final List<Output> outputs;
  /** The grouping's output attribute each output holds, by which HAVING reads it. */
  private final List<ExprId> outputIds;
  private final Option<Expression> having;
  private final Option<String> notKeptBecause;

  private AggregateState(List<Output> outputs, List<ExprId> outputIds, Option<Expression> having,
                         Option<String> notKeptBecause) {
    this.outputs = outputs;
    this.outputIds = outputIds;
    this.having = having;
    this.notKeptBecause = notKeptBecause;
  }

  /** The state of a DISTINCT: its groups' rows, one group column per column (in the DISTINCT's order). */
  static AggregateState ofDistinct(List<Expression> groupingExpressions, Option<Expression> having) {
    List<Output> outputs = new ArrayList<>();
    List<ExprId> ids = new ArrayList<>();
    for (int i = 0; i < groupingExpressions.size(); i++) {
      NamedExpression column = (NamedExpression) groupingExpressions.get(i);
      outputs.add(new Output(column.name(), true, Kind.GROUP, i, null, null, groupingExpressions.get(i).dataType()));
      ids.add(column.exprId());
    }
    return new AggregateState(Collections.unmodifiableList(outputs), Collections.unmodifiableList(ids), having,
        Option.empty());
  }

  /**
   * The state of a GROUP BY; none if a column is neither a group column nor an aggregate kept here, or HAVING reads
   * what the GROUP BY does not produce.
   *
   * @param aggregateExpressions the GROUP BY's output columns
   * @param chosen               those the view outputs, in its order, if a projection chooses them
   */
  static AggregateState ofAggregate(List<NamedExpression> aggregateExpressions, List<Expression> groupingExpressions,
                                    Option<List<ExprId>> chosen, Option<Expression> having) {
    Map<ExprId, Output> outputOf = new HashMap<>();
    List<ExprId> produced = new ArrayList<>();
    for (NamedExpression column : aggregateExpressions) {
      Expression value = column instanceof Alias ? ((Alias) column).child() : (Expression) column;
      Option<Output> output = output(column.name(), value, groupingExpressions);
      if (!output.isPresent()) {
        return notKept("its column '" + column.name() + "' is neither a group column nor COUNT, COUNT(DISTINCT), SUM, "
            + "AVG, MIN or MAX of a value");
      }
      outputOf.put(column.exprId(), output.get());
      produced.add(column.exprId());
    }
    if (having.isPresent()) {
      for (Attribute read : seqAsJavaList(having.get().references().toSeq())) {
        if (!outputOf.containsKey(read.exprId())) {
          return notKept("its HAVING reads '" + read.name() + "', which the GROUP BY does not produce");
        }
      }
    }
    // The view's columns in its order, then the aggregates only HAVING reads, hidden.
    List<ExprId> visible = chosen.orElse(produced);
    List<Output> outputs = new ArrayList<>();
    List<ExprId> ids = new ArrayList<>(visible);
    visible.forEach(id -> outputs.add(outputOf.get(id)));
    for (ExprId id : produced) {
      if (!visible.contains(id)) {
        outputs.add(outputOf.get(id).hidden(PREFIX + "having_" + outputs.size()));
        ids.add(id);
      }
    }
    return new AggregateState(Collections.unmodifiableList(outputs), Collections.unmodifiableList(ids), having,
        Option.empty());
  }

  /** The state of a view that keeps none, and why. */
  static AggregateState notKept(String reason) {
    return new AggregateState(Collections.emptyList(), Collections.emptyList(), Option.empty(), Option.of(reason));
  }

  private static Option<Output> output(String name, Expression value, List<Expression> groupingExpressions) {
    for (int i = 0; i < groupingExpressions.size(); i++) {
      if (value.semanticEquals(groupingExpressions.get(i))) {
        return Option.of(new Output(name, true, Kind.GROUP, i, null, null, value.dataType()));
      }
    }
    if (!(value instanceof AggregateExpression)) {
      return Option.empty();
    }
    AggregateExpression aggregate = (AggregateExpression) value;
    if (aggregate.filter().isDefined() || aggregate.mode() != Complete$.MODULE$) {
      return Option.empty();
    }
    AggregateFunction function = aggregate.aggregateFunction();
    if (function instanceof Min || function instanceof Max) {
      // DISTINCT changes no extreme.
      Kind kind = function instanceof Min ? Kind.MIN : Kind.MAX;
      return Option.of(new Output(name, true, kind, -1, function.children().head(), aggregate, value.dataType()));
    }
    if (function instanceof Count && aggregate.isDistinct()) {
      List<Expression> counted = seqAsJavaList(function.children());
      DataType countedType = counted.get(0).dataType();
      if (counted.size() != 1 || !(countedType instanceof AtomicType) || countedType instanceof FractionalType
          && !(countedType instanceof DecimalType)) {
        return Option.empty();
      }
      return Option.of(new Output(name, true, Kind.COUNT_DISTINCT, -1, counted.get(0), aggregate, value.dataType()));
    }
    if (aggregate.isDistinct()) {
      return Option.empty();
    }
    if (function instanceof Count) {
      Column counted = lit(true);
      for (Expression child : seqAsJavaList(function.children())) {
        counted = counted.and(new Column(child).isNotNull());
      }
      return Option.of(new Output(name, true, Kind.COUNT, -1, when(counted, lit(1)).expr(), aggregate,
          value.dataType()));
    }
    if (function instanceof Sum && ((Sum) function).child().dataType() instanceof NumericType) {
      Expression argument = new Column(((Sum) function).child()).cast(function.dataType()).expr();
      return Option.of(new Output(name, true, Kind.SUM, -1, argument, aggregate, value.dataType()));
    }
    if (function instanceof Average && ((Average) function).child().dataType() instanceof NumericType
        && !(((Average) function).child().dataType() instanceof DecimalType)) {
      Expression argument = new Column(((Average) function).child()).cast(((Average) function).sumDataType()).expr();
      return Option.of(new Output(name, true, Kind.AVG, -1, argument, aggregate, value.dataType()));
    }
    return Option.empty();
  }

  /** Why the view keeps no state; empty if it keeps it. */
  Option<String> notKeptBecause() {
    return notKeptBecause;
  }

  boolean isKept() {
    return !notKeptBecause.isPresent();
  }

  boolean hasHaving() {
    return having.isPresent();
  }

  /** Whether a batch may find groups whose state the change cannot update: under HAVING, MIN or MAX. */
  boolean mayRecompute() {
    return having.isPresent() || outputs.stream().anyMatch(output -> output.kind == Kind.MIN || output.kind == Kind.MAX
        || sumsFloatingPoint(output));
  }

  /** When a group is recomputed from its rows, in words. */
  String recomputedWhen() {
    List<String> when = new ArrayList<>();
    if (outputs.stream().anyMatch(output -> output.kind == Kind.MIN || output.kind == Kind.MAX)) {
      when.add("an old row held its MIN or MAX");
    }
    if (outputs.stream().anyMatch(AggregateState::sumsFloatingPoint)) {
      when.add("a changed row or the stored sum holds a NaN or an infinity, which no subtraction takes out of a sum");
    }
    if (having.isPresent()) {
      when.add("the target does not hold it, as HAVING may have kept it out");
    }
    return String.join("; ", when);
  }

  /** The hidden columns, in the order the view's rows hold them after its own columns. */
  List<String> columns() {
    List<String> columns = new ArrayList<>();
    columns.add(ROWS);
    for (Output output : outputs) {
      if (!output.visible) {
        columns.add(output.column);
      }
      if (output.kind == Kind.AVG) {
        columns.add(sumColumn(output));
      }
      if (output.kind == Kind.SUM || output.kind == Kind.AVG) {
        columns.add(countColumn(output));
      }
      if (output.kind == Kind.COUNT_DISTINCT) {
        columns.add(valuesColumn(output));
      }
    }
    return columns;
  }

  /**
   * The columns each row of the query's grouped input adds for the state: per COUNT 1 where its values are not null,
   * per SUM or AVG the value it adds up (in the type of its sum), per MIN, MAX or COUNT(DISTINCT) its value.
   */
  List<NamedExpression> inputs() {
    List<NamedExpression> inputs = new ArrayList<>();
    for (int j = 0; j < outputs.size(); j++) {
      if (outputs.get(j).kind != Kind.GROUP) {
        inputs.add((NamedExpression) new Column(outputs.get(j).argument).as(INPUT_PREFIX + j).expr());
      }
    }
    return inputs;
  }

  /**
   * The view's rows of the groups of some input rows that pass HAVING, with their state: a GROUP BY of the rows by the
   * view's grouping expressions.
   */
  Dataset<Row> aggregated(Dataset<Row> input, List<Expression> groupingExpressions) {
    Column[] groups = new Column[groupingExpressions.size()];
    List<String> groupColumns = new ArrayList<>();
    for (int i = 0; i < groups.length; i++) {
      groupColumns.add(INPUT_PREFIX + "group_" + i);
      groups[i] = new Column(groupingExpressions.get(i)).as(groupColumns.get(i));
    }
    List<Column> aggregates = new ArrayList<>();
    aggregates.add(count(lit(1)).as(ROWS));
    for (int j = 0; j < outputs.size(); j++) {
      Output output = outputs.get(j);
      if (output.kind != Kind.GROUP) {
        aggregates.add(new Column(output.aggregate).as(INPUT_PREFIX + j));
      }
      if (output.kind == Kind.AVG) {
        aggregates.add(sum(new Column(output.argument)).as(sumColumn(output)));
      }
      if (output.kind == Kind.SUM || output.kind == Kind.AVG) {
        aggregates.add(count(new Column(output.argument)).as(countColumn(output)));
      }
    }
    Dataset<Row> grouped = input.groupBy(groups).agg(aggregates.get(0), aggregates.subList(1, aggregates.size())
        .toArray(new Column[0]));
    for (Output output : outputs) {
      if (output.kind == Kind.COUNT_DISTINCT) {
        Column value = new Column(output.argument);
        Dataset<Row> multiplicities = input.groupBy(append(groups, value.as(INPUT_PREFIX + "value"))).count()
            .groupBy(groupColumns.stream().map(column -> col(column)).toArray(Column[]::new))
            .agg(array_sort(collect_list(when(col(INPUT_PREFIX + "value").isNotNull(),
                struct(col(INPUT_PREFIX + "value").as("key"), col("count").as("value"))))).as(valuesColumn(output)));
        grouped = joinedByGroup(grouped, multiplicities, groupColumns);
      }
    }
    Map<ExprId, Expression> valueOf = new HashMap<>();
    for (int j = 0; j < outputs.size(); j++) {
      Output output = outputs.get(j);
      valueOf.put(outputIds.get(j), col(output.kind == Kind.GROUP ? groupColumns.get(output.group) : INPUT_PREFIX + j)
          .expr());
    }
    if (having.isPresent()) {
      grouped = grouped.where(new Column(rebound(having.get(), valueOf)));
    }
    Map<String, Column> valueOfColumn = new HashMap<>();
    for (int j = 0; j < outputs.size(); j++) {
      valueOfColumn.put(outputs.get(j).column, new Column(valueOf.get(outputIds.get(j))));
    }
    return grouped.select(writtenColumns().stream().map(column -> valueOfColumn.getOrDefault(column, col(column))
        .as(column)).toArray(Column[]::new));
  }

  /**
   * What the changed rows add to each of their groups: their rows and inputs as of the new state counted in, those
   * as of the old state counted out.
   *
   * @param previous rows of the query's grouped input as of the old state, with their group columns and {@link #inputs()}
   * @param current  the same as of the new state
   */
  Dataset<Row> change(Dataset<Row> previous, Dataset<Row> current, List<String> groupColumns) {
    List<Column> kept = new ArrayList<>();
    groupColumns.forEach(column -> kept.add(col(column)));
    inputs().forEach(input -> kept.add(col(input.name())));
    Dataset<Row> signed = previous.select(kept.toArray(new Column[0])).withColumn(SIGN, lit(-1))
        .unionByName(current.select(kept.toArray(new Column[0])).withColumn(SIGN, lit(1)));
    Column counted = col(SIGN).equalTo(1);
    List<Column> changes = new ArrayList<>();
    for (int j = 0; j < outputs.size(); j++) {
      Column input = col(INPUT_PREFIX + j);
      switch (outputs.get(j).kind) {
        case COUNT:
        case SUM:
        case AVG:
          changes.add(sum(when(input.isNotNull(), col(SIGN)).otherwise(0)).as(DELTA_PREFIX + "count_" + j));
          if (outputs.get(j).kind != Kind.COUNT) {
            // Negated, not multiplied by the sign: a DECIMAL(p,s) times an INT is typed DECIMAL(p+11,s), which past
            // 38 digits Spark narrows by cutting the scale to 6.
            changes.add(sum(when(counted, input).otherwise(negate(input))).as(DELTA_PREFIX + "sum_" + j));
          }
          if (sumsFloatingPoint(outputs.get(j))) {
            changes.add(max(nonFinite(input)).as(DELTA_PREFIX + "non_finite_" + j));
          }
          break;
        case MIN:
          changes.add(min(when(not(counted), input)).as(DELTA_PREFIX + "left_" + j));
          changes.add(min(when(counted, input)).as(DELTA_PREFIX + "added_" + j));
          break;
        case MAX:
          changes.add(max(when(not(counted), input)).as(DELTA_PREFIX + "left_" + j));
          changes.add(max(when(counted, input)).as(DELTA_PREFIX + "added_" + j));
          break;
        default:
          break;
      }
    }
    Column[] groups = groupColumns.stream().map(column -> col(column)).toArray(Column[]::new);
    Dataset<Row> change = signed.groupBy(groups).agg(sum(col(SIGN)).as(DELTA_PREFIX + "rows"),
        changes.toArray(new Column[0]));
    for (int j = 0; j < outputs.size(); j++) {
      if (outputs.get(j).kind == Kind.COUNT_DISTINCT) {
        Column input = col(INPUT_PREFIX + j);
        Dataset<Row> multiplicities = signed.groupBy(append(groups, input)).agg(sum(col(SIGN)).as(SIGN))
            .groupBy(groups).agg(map_from_entries(collect_list(when(input.isNotNull().and(col(SIGN).notEqual(0)),
                struct(input.as("key"), col(SIGN).cast(DataTypes.LongType).as("value"))))).as(DELTA_PREFIX + "values_" + j));
        change = joinedByGroup(change, multiplicities, groupColumns);
      }
    }
    return change;
  }

  /**
   * The groups of a change with their state updated from the target's: the view's columns and the state columns, then
   * the change's group columns, {@link #STORED} and {@link #STORED_ROWS}, by which a batch checks the target's state,
   * {@link #RECOMPUTE} and {@link #IN_VIEW}.
   *
   * @param change       from {@link #change}
   * @param stored       the target's rows
   * @param groupColumns the change's group columns, in the order of the grouping expressions
   * @param groupOfKey   the grouping expression each of the target's record key columns holds
   */
  Dataset<Row> updated(Dataset<Row> change, Dataset<Row> stored, List<String> groupColumns,
                       Map<String, Integer> groupOfKey) {
    Set<String> read = new LinkedHashSet<>();
    outputs.stream().filter(output -> output.kind != Kind.GROUP && output.kind != Kind.AVG)
        .forEach(output -> read.add(output.column));
    read.addAll(columns());
    List<Column> storedColumns = new ArrayList<>();
    groupOfKey.keySet().forEach(key -> storedColumns.add(col(quoted(key)).as(STORED_PREFIX + key)));
    // A COUNT(DISTINCT)'s values in their type: the target stores a type Avro lacks (a short) widened.
    Map<String, DataType> typeOf = new HashMap<>();
    outputs.stream().filter(output -> output.kind == Kind.COUNT_DISTINCT)
        .forEach(output -> typeOf.put(valuesColumn(output), entriesType(output)));
    read.forEach(column -> storedColumns.add((typeOf.containsKey(column) ? col(quoted(column)).cast(typeOf.get(column))
        : col(quoted(column))).as(STORED_PREFIX + column)));
    storedColumns.add(lit(true).as(STORED));
    Dataset<Row> state = stored.select(storedColumns.toArray(new Column[0]));
    Column condition = lit(true);
    for (Map.Entry<String, Integer> key : groupOfKey.entrySet()) {
      condition = condition.and(change.col(groupColumns.get(key.getValue()))
          .eqNullSafe(state.col(STORED_PREFIX + key.getKey())));
    }
    Dataset<Row> joined = change.join(state, condition, "left");
    Map<ExprId, Expression> valueOf = new HashMap<>();
    // Each written column's new value, by name.
    Map<String, Column> hidden = new HashMap<>();
    Column recompute = having.isPresent() ? col(STORED).isNull() : lit(false);
    Column belowZero = array().cast(DataTypes.createArrayType(DataTypes.StringType));
    for (int j = 0; j < outputs.size(); j++) {
      Output output = outputs.get(j);
      Column changedCount = col(DELTA_PREFIX + "count_" + j);
      Column value;
      switch (output.kind) {
        case GROUP:
          value = col(groupColumns.get(output.group)).cast(output.type);
          break;
        case COUNT:
          value = storedValue(output.column).plus(changedCount).cast(output.type);
          break;
        case SUM: {
          Column counted = storedValue(countColumn(output)).plus(changedCount);
          value = when(counted.gt(0), storedValue(output.column).plus(changedSum(j))).cast(output.type);
          hidden.put(countColumn(output), counted);
          recompute = recompute.or(nonFiniteSum(j, output.column));
          break;
        }
        case AVG: {
          Column counted = storedValue(countColumn(output)).plus(changedCount);
          Column summed = storedValue(sumColumn(output)).plus(changedSum(j));
          value = when(counted.gt(0), summed.cast(output.type).divide(counted.cast(output.type))).cast(output.type);
          hidden.put(sumColumn(output), summed.cast(DataTypes.DoubleType));
          hidden.put(countColumn(output), counted);
          recompute = recompute.or(nonFiniteSum(j, sumColumn(output)));
          break;
        }
        case MIN:
        case MAX: {
          Column extreme = col(STORED_PREFIX + output.column).cast(output.type);
          Column left = col(DELTA_PREFIX + "left_" + j);
          Column added = col(DELTA_PREFIX + "added_" + j);
          boolean min = output.kind == Kind.MIN;
          value = (min ? least(extreme, added) : greatest(extreme, added)).cast(output.type);
          // A value of the old rows at the extreme may have been it: only the group's rows tell the new one.
          recompute = recompute.or(left.isNotNull().and(extreme.isNull().or(min ? left.leq(extreme) : left.geq(extreme))));
          break;
        }
        default: {
          String merged = String.format("map_zip_with(coalesce(map_from_entries(%1$s), map_filter(%2$s, "
              + "(k, v) -> false)), %2$s, (k, a, b) -> coalesce(a, 0L) + coalesce(b, 0L))",
              quoted(STORED_PREFIX + valuesColumn(output)), quoted(DELTA_PREFIX + "values_" + j));
          Column entries = expr("array_sort(map_entries(map_filter(" + merged + ", (k, v) -> v > 0L)))");
          // A value held by fewer than no rows: the change took away rows the state never counted.
          belowZero = concat(belowZero, expr(String.format("transform(map_keys(map_filter(%s, (k, v) -> v < 0L)), "
              + "k -> concat('%s = ', cast(k AS STRING)))", merged, output.column.replace("'", "\\'"))));
          value = size(entries).cast(output.type);
          hidden.put(valuesColumn(output), entries);
        }
      }
      valueOf.put(outputIds.get(j), value.expr());
    }
    Column rows = storedValue(ROWS).plus(col(DELTA_PREFIX + "rows"));
    hidden.put(ROWS, rows);
    Column inView = rows.gt(0);
    if (having.isPresent()) {
      inView = inView.and(coalesce(new Column(rebound(having.get(), valueOf)), lit(false)));
    }
    for (int j = 0; j < outputs.size(); j++) {
      hidden.putIfAbsent(outputs.get(j).column, new Column(valueOf.get(outputIds.get(j))));
    }
    List<Column> columns = new ArrayList<>();
    writtenColumns().forEach(column -> columns.add(hidden.get(column).as(column)));
    groupColumns.forEach(column -> columns.add(col(column)));
    columns.add(col(STORED).isNotNull().as(STORED));
    columns.add(col(STORED_ROWS));
    columns.add(recompute.as(RECOMPUTE));
    columns.add(inView.as(IN_VIEW));
    columns.add(belowZero.as(BELOW_ZERO));
    return joined.select(columns.toArray(new Column[0]));
  }

  /** The columns of {@link #updated}'s rows that a batch writes. */
  List<String> writtenColumns() {
    List<String> written = new ArrayList<>();
    outputs.stream().filter(output -> output.visible).forEach(output -> written.add(output.column));
    written.addAll(columns());
    return written;
  }

  /** The state columns whose value, with {@link #ROWS} at 0, says the target's state and the change disagree. */
  List<String> countColumns() {
    List<String> counts = new ArrayList<>();
    for (Output output : outputs) {
      if (output.kind == Kind.COUNT) {
        counts.add(output.column);
      } else if (output.kind == Kind.SUM || output.kind == Kind.AVG) {
        counts.add(countColumn(output));
      }
    }
    return counts;
  }

  /** The condition with each column of the grouping it reads replaced by the expression holding its value. */
  private static Expression rebound(Expression condition, Map<ExprId, Expression> valueOf) {
    if (condition instanceof AttributeReference && valueOf.containsKey(((AttributeReference) condition).exprId())) {
      return valueOf.get(((AttributeReference) condition).exprId());
    }
    if (condition.children().isEmpty()) {
      return condition;
    }
    List<Expression> children = seqAsJavaList(condition.children()).stream().map(child -> rebound(child, valueOf))
        .collect(Collectors.toList());
    return condition.withNewChildren(asScalaBuffer(children).toSeq());
  }

  /** Rows of {@code left} with the columns of {@code right}'s row of the same group (nulls match nulls). */
  private static Dataset<Row> joinedByGroup(Dataset<Row> left, Dataset<Row> right, List<String> groupColumns) {
    Dataset<Row> renamed = right;
    Column condition = lit(true);
    for (String column : groupColumns) {
      renamed = renamed.withColumnRenamed(column, MATCH_PREFIX + column);
    }
    for (String column : groupColumns) {
      condition = condition.and(left.col(quoted(column)).eqNullSafe(renamed.col(quoted(MATCH_PREFIX + column))));
    }
    Dataset<Row> joined = left.join(renamed, condition, "left");
    for (String column : groupColumns) {
      joined = joined.drop(renamed.col(quoted(MATCH_PREFIX + column)));
    }
    return joined;
  }

  /** The type of a COUNT(DISTINCT)'s state: an array of its distinct values with how many rows hold each. */
  private static DataType entriesType(Output output) {
    return DataTypes.createArrayType(new StructType().add("key", output.argument.dataType())
        .add("value", DataTypes.LongType));
  }

  private static Column[] append(Column[] columns, Column column) {
    Column[] appended = new Column[columns.length + 1];
    System.arraycopy(columns, 0, appended, 0, columns.length);
    appended[columns.length] = column;
    return appended;
  }

  /**
   * The change to an output's sum, in its argument's type: a decimal change is summed 10 digits wider than the stored
   * sum, and adding the two in that width would again pass 38 digits and cut the scale.
   */
  private Column changedSum(int output) {
    return coalesce(col(DELTA_PREFIX + "sum_" + output), lit(0)).cast(outputs.get(output).argument.dataType());
  }

  /**
   * Whether a floating-point sum's group must be recomputed: a NaN or an infinity among the changed rows or in the
   * stored sum. Once added to a sum it cannot be subtracted out (NaN - NaN is NaN), so a sum that held one when its row
   * left would stay wrong.
   */
  private Column nonFiniteSum(int output, String sumColumn) {
    if (!sumsFloatingPoint(outputs.get(output))) {
      return lit(false);
    }
    return coalesce(col(DELTA_PREFIX + "non_finite_" + output), lit(false))
        .or(nonFinite(col(STORED_PREFIX + sumColumn)));
  }

  private static boolean sumsFloatingPoint(Output output) {
    return (output.kind == Kind.SUM || output.kind == Kind.AVG)
        && (output.argument.dataType() instanceof DoubleType || output.argument.dataType() instanceof FloatType);
  }

  /** NaN or an infinity; false for null. */
  private static Column nonFinite(Column value) {
    return coalesce(isnan(value).or(abs(value).equalTo(lit(Double.POSITIVE_INFINITY))), lit(false));
  }

  private static Column storedValue(String column) {
    return coalesce(col(STORED_PREFIX + column), lit(0));
  }

  private static String sumColumn(Output output) {
    return stateColumn(output, "_sum");
  }

  private static String countColumn(Output output) {
    return stateColumn(output, "_count");
  }

  private static String valuesColumn(Output output) {
    return stateColumn(output, "_values");
  }

  /** A state column of an output: named after the view's column, or after the hidden column holding it. */
  private static String stateColumn(Output output, String suffix) {
    return (output.visible ? PREFIX + output.column : output.column) + suffix;
  }

  private static String quoted(String column) {
    return "`" + column.replace("`", "``") + "`";
  }
}
