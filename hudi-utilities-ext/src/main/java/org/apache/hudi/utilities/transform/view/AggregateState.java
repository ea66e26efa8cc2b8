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
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.Average;
import org.apache.spark.sql.catalyst.expressions.aggregate.Complete$;
import org.apache.spark.sql.catalyst.expressions.aggregate.Count;
import org.apache.spark.sql.catalyst.expressions.aggregate.Sum;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.NumericType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;
import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * The state a grouped view keeps per group, in hidden columns of the target's rows, so that a batch updates a group
 * from the change's rows alone: the group's rows ({@link #ROWS}), and per SUM the values it adds up, per AVG their sum,
 * and their count. A COUNT's own column is its state. A group is updated by adding what the change's rows as of the
 * new state contribute and taking away what they contributed as of the old one; it is deleted when it has no row left.
 *
 * <p>Kept for a GROUP BY or DISTINCT at the root of the query whose every column is a group column or one of
 * {@code COUNT(*)}, {@code COUNT(x)}, {@code SUM(x)}, {@code AVG(x)} of a number (not a decimal for AVG), neither
 * DISTINCT nor FILTERed. Any other grouped view (HAVING, MIN, MAX, COUNT(DISTINCT), an expression over aggregates)
 * keeps none: its batch recomputes the groups the change touches from their rows.
 *
 * <p>A sum of floating-point values kept this way is the sum of the batches' additions and subtractions: it can differ
 * from a recompute in the last digits, as Spark's own sum does between two orders of the same rows.
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
  /** The column of {@link #updated}'s rows telling whether the target held the group. */
  static final String STORED = LineagePlan.PREFIX + "stored";
  /** The column of {@link #updated}'s rows holding the group's rows as the target stored them (null: no state). */
  static final String STORED_ROWS = STORED_PREFIX + ROWS;

  /** What a column of the view holds. */
  private enum Kind {
    GROUP, COUNT, SUM, AVG
  }

  private static final class Output {
    private final String name;
    private final Kind kind;
    private final int group;
    private final Expression argument;
    private final Expression aggregate;
    private final DataType type;

    Output(String name, Kind kind, int group, Expression argument, Expression aggregate, DataType type) {
      this.name = name;
      this.kind = kind;
      this.group = group;
      this.argument = argument;
      this.aggregate = aggregate;
      this.type = type;
    }
  }

  private final List<Output> outputs;
  private final Option<String> notKeptBecause;

  private AggregateState(List<Output> outputs, Option<String> notKeptBecause) {
    this.outputs = outputs;
    this.notKeptBecause = notKeptBecause;
  }

  /**
   * @param analyzed the view's analyzed query
   * @param grouping its GROUP BY or DISTINCT
   */
  static AggregateState of(LogicalPlan analyzed, LogicalPlan grouping) {
    if (analyzed != grouping) {
      return notKept("a HAVING or a projection over the GROUP BY");
    }
    List<Expression> groupingExpressions = ViewDefinition.groupingExpressions(grouping);
    List<Output> outputs = new ArrayList<>();
    if (grouping instanceof Distinct) {
      for (int i = 0; i < groupingExpressions.size(); i++) {
        Expression column = groupingExpressions.get(i);
        outputs.add(new Output(((NamedExpression) column).name(), Kind.GROUP, i, null, null, column.dataType()));
      }
      return new AggregateState(Collections.unmodifiableList(outputs), Option.empty());
    }
    for (NamedExpression column : seqAsJavaList(((Aggregate) grouping).aggregateExpressions())) {
      Expression value = column instanceof Alias ? ((Alias) column).child() : (Expression) column;
      Option<Output> output = output(column.name(), value, groupingExpressions);
      if (!output.isPresent()) {
        return notKept("its column '" + column.name() + "' is neither a group column nor COUNT, SUM or AVG of a value");
      }
      outputs.add(output.get());
    }
    return new AggregateState(Collections.unmodifiableList(outputs), Option.empty());
  }

  /** The state of a view that keeps none, and why. */
  static AggregateState notKept(String reason) {
    return new AggregateState(Collections.emptyList(), Option.of(reason));
  }

  private static Option<Output> output(String name, Expression value, List<Expression> groupingExpressions) {
    for (int i = 0; i < groupingExpressions.size(); i++) {
      if (value.semanticEquals(groupingExpressions.get(i))) {
        return Option.of(new Output(name, Kind.GROUP, i, null, null, value.dataType()));
      }
    }
    if (!(value instanceof AggregateExpression)) {
      return Option.empty();
    }
    AggregateExpression aggregate = (AggregateExpression) value;
    if (aggregate.isDistinct() || aggregate.filter().isDefined() || aggregate.mode() != Complete$.MODULE$) {
      return Option.empty();
    }
    AggregateFunction function = aggregate.aggregateFunction();
    if (function instanceof Count) {
      Column counted = lit(true);
      for (Expression child : seqAsJavaList(function.children())) {
        counted = counted.and(new Column(child).isNotNull());
      }
      return Option.of(new Output(name, Kind.COUNT, -1, when(counted, lit(1)).expr(), aggregate, value.dataType()));
    }
    if (function instanceof Sum && ((Sum) function).child().dataType() instanceof NumericType) {
      Expression argument = new Column(((Sum) function).child()).cast(function.dataType()).expr();
      return Option.of(new Output(name, Kind.SUM, -1, argument, aggregate, value.dataType()));
    }
    if (function instanceof Average && ((Average) function).child().dataType() instanceof NumericType
        && !(((Average) function).child().dataType() instanceof DecimalType)) {
      Expression argument = new Column(((Average) function).child()).cast(((Average) function).sumDataType()).expr();
      return Option.of(new Output(name, Kind.AVG, -1, argument, aggregate, value.dataType()));
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

  /** The hidden columns, in the order the view's rows hold them after its own columns. */
  List<String> columns() {
    List<String> columns = new ArrayList<>();
    columns.add(ROWS);
    for (Output output : outputs) {
      if (output.kind == Kind.AVG) {
        columns.add(sumColumn(output));
      }
      if (output.kind == Kind.SUM || output.kind == Kind.AVG) {
        columns.add(countColumn(output));
      }
    }
    return columns;
  }

  /**
   * The columns each row of the query's grouped input adds for the state: per COUNT 1 where its values are not null,
   * per SUM or AVG the value it adds up (in the type of its sum).
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
   * The view's rows of the groups of some input rows, with their state: a GROUP BY of the rows by the view's
   * grouping expressions.
   */
  Dataset<Row> aggregated(Dataset<Row> input, List<Expression> groupingExpressions) {
    Column[] groups = new Column[groupingExpressions.size()];
    for (int i = 0; i < groups.length; i++) {
      groups[i] = new Column(groupingExpressions.get(i)).as(INPUT_PREFIX + "group_" + i);
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
    List<Column> columns = new ArrayList<>();
    for (int j = 0; j < outputs.size(); j++) {
      Output output = outputs.get(j);
      columns.add(col(output.kind == Kind.GROUP ? INPUT_PREFIX + "group_" + output.group : INPUT_PREFIX + j)
          .as(output.name));
    }
    columns().forEach(column -> columns.add(col(column)));
    return grouped.select(columns.toArray(new Column[0]));
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
    List<Column> changes = new ArrayList<>();
    for (int j = 0; j < outputs.size(); j++) {
      if (outputs.get(j).kind != Kind.GROUP) {
        Column input = col(INPUT_PREFIX + j);
        changes.add(sum(when(input.isNotNull(), col(SIGN)).otherwise(0)).as(DELTA_PREFIX + "count_" + j));
        if (outputs.get(j).kind != Kind.COUNT) {
          changes.add(sum(input.multiply(col(SIGN))).as(DELTA_PREFIX + "sum_" + j));
        }
      }
    }
    return signed.groupBy(groupColumns.stream().map(column -> col(column)).toArray(Column[]::new))
        .agg(sum(col(SIGN)).as(DELTA_PREFIX + "rows"), changes.toArray(new Column[0]));
  }

  /**
   * The groups of a change with their state updated from the target's: the view's columns and the state columns, then
   * {@link #STORED} and {@link #STORED_ROWS}, by which a batch checks the target's state.
   *
   * @param change       from {@link #change}
   * @param stored       the target's rows
   * @param groupColumns the change's group columns, in the order of the grouping expressions
   * @param groupOfKey   the grouping expression each of the target's record key columns holds
   */
  Dataset<Row> updated(Dataset<Row> change, Dataset<Row> stored, List<String> groupColumns,
                       Map<String, Integer> groupOfKey) {
    List<Column> storedColumns = new ArrayList<>();
    groupOfKey.keySet().forEach(key -> storedColumns.add(col(quoted(key)).as(STORED_PREFIX + key)));
    List<String> read = new ArrayList<>();
    outputs.stream().filter(output -> output.kind == Kind.COUNT || output.kind == Kind.SUM)
        .forEach(output -> read.add(output.name));
    read.addAll(columns());
    read.forEach(column -> storedColumns.add(col(quoted(column)).as(STORED_PREFIX + column)));
    storedColumns.add(lit(true).as(STORED));
    Dataset<Row> state = stored.select(storedColumns.toArray(new Column[0]));
    Column condition = lit(true);
    for (Map.Entry<String, Integer> key : groupOfKey.entrySet()) {
      condition = condition.and(change.col(groupColumns.get(key.getValue()))
          .eqNullSafe(state.col(STORED_PREFIX + key.getKey())));
    }
    Dataset<Row> joined = change.join(state, condition, "left");
    List<Column> columns = new ArrayList<>();
    List<Column> hidden = new ArrayList<>();
    hidden.add(storedValue(ROWS).plus(col(DELTA_PREFIX + "rows")).as(ROWS));
    for (int j = 0; j < outputs.size(); j++) {
      Output output = outputs.get(j);
      Column changedCount = col(DELTA_PREFIX + "count_" + j);
      switch (output.kind) {
        case GROUP:
          columns.add(col(groupColumns.get(output.group)).cast(output.type).as(output.name));
          break;
        case COUNT:
          columns.add(storedValue(output.name).plus(changedCount).cast(output.type).as(output.name));
          break;
        case SUM: {
          Column counted = storedValue(countColumn(output)).plus(changedCount);
          columns.add(when(counted.gt(0), storedValue(output.name).plus(changedSum(j))).cast(output.type)
              .as(output.name));
          hidden.add(counted.as(countColumn(output)));
          break;
        }
        default: {
          Column counted = storedValue(countColumn(output)).plus(changedCount);
          Column summed = storedValue(sumColumn(output)).plus(changedSum(j));
          columns.add(when(counted.gt(0), summed.cast(output.type).divide(counted.cast(output.type)))
              .cast(output.type).as(output.name));
          hidden.add(summed.cast(DataTypes.DoubleType).as(sumColumn(output)));
          hidden.add(counted.as(countColumn(output)));
        }
      }
    }
    columns.addAll(hidden);
    columns.add(col(STORED).isNotNull().as(STORED));
    columns.add(col(STORED_ROWS));
    return joined.select(columns.toArray(new Column[0]));
  }

  /** The columns of {@link #updated}'s rows that a batch writes. */
  List<String> writtenColumns() {
    List<String> written = new ArrayList<>();
    outputs.forEach(output -> written.add(output.name));
    written.addAll(columns());
    return written;
  }

  /** The state columns whose value, with {@link #ROWS} at 0, says the target's state and the change disagree. */
  List<String> countColumns() {
    List<String> counts = new ArrayList<>();
    for (Output output : outputs) {
      if (output.kind == Kind.COUNT) {
        counts.add(output.name);
      } else if (output.kind != Kind.GROUP) {
        counts.add(countColumn(output));
      }
    }
    return counts;
  }

  private static Column changedSum(int output) {
    return coalesce(col(DELTA_PREFIX + "sum_" + output), lit(0));
  }

  private static Column storedValue(String column) {
    return coalesce(col(STORED_PREFIX + column), lit(0));
  }

  private static String sumColumn(Output output) {
    return PREFIX + output.name + "_sum";
  }

  private static String countColumn(Output output) {
    return PREFIX + output.name + "_count";
  }

  private static String quoted(String column) {
    return "`" + column.replace("`", "``") + "`";
  }
}
