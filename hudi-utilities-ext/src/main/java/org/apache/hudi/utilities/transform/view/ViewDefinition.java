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

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * A view: its query over whole tables, what the query guarantees ({@link ViewShape}), and the target it keeps equal to
 * the query's result, checked against each other once, before any batch runs.
 *
 * <p>A view whose shape is not refused is either a join view (joins, filters, projections, UNION ALL: the target holds
 * one row per key of the result) or a grouped view (the same, then one GROUP BY or DISTINCT, then HAVING and a
 * projection: the target holds one row per group).
 */
public final class ViewDefinition {

  /** The column each output row carries: true for a row that deletes the target's row of its key. */
  public static final String IS_DELETED = "_hoodie_is_deleted";
  /** The column each output row carries, the same value on every row: the target orders records by it. */
  public static final String COMMIT_ORDER = "commit_order";

  private final ViewQuery query;
  private final Map<String, TableKey> keyOfView;
  private final Map<String, TableKey> keyOfTable;
  private final List<String> targetKey;
  private final ViewShape shape;
  private final List<String> columns;
  private final boolean grouped;
  private final Map<String, Integer> groupOfKeyColumn;
  private final AggregateState aggregateState;
  private final JoinEdges joinEdges;
  /** The (lower-case) names of the temp views holding the tables, by which a plan's reads of them are found. */
  private final Set<String> tableViews;

  private ViewDefinition(ViewQuery query, Map<String, TableKey> keyOfTable, List<String> targetKey, ViewShape shape,
                         List<String> columns, boolean grouped, Map<String, Integer> groupOfKeyColumn,
                         AggregateState aggregateState, JoinEdges joinEdges, Set<String> tableViews) {
    this.query = query;
    this.keyOfTable = keyOfTable;
    this.targetKey = targetKey;
    this.shape = shape;
    this.columns = columns;
    this.grouped = grouped;
    this.groupOfKeyColumn = groupOfKeyColumn;
    this.aggregateState = aggregateState;
    this.joinEdges = joinEdges;
    this.tableViews = tableViews;
    Map<String, TableKey> keyOfView = new LinkedHashMap<>();
    query.viewOfTable().forEach((table, view) -> keyOfView.put(view, keyOfTable.get(table)));
    this.keyOfView = keyOfView;
  }

  /**
   * @param tables     each table's dataset (any state: only its columns matter here)
   * @param recordKeys each table's record key columns
   * @param targetKey  the target's record key columns
   * @throws IllegalArgumentException if the query outputs a column the view adds, or, for a query that is not refused,
   *     if the target's record key is not unique in its result or, for a grouped view, not made of its group columns
   */
  public static ViewDefinition of(ViewQuery query, Map<String, Dataset<Row>> tables, Map<String, List<String>> recordKeys,
                                  List<String> targetKey) {
    Map<String, TableKey> keyOfTable = new LinkedHashMap<>();
    List<String> tableNames = query.tables();
    for (int i = 0; i < tableNames.size(); i++) {
      keyOfTable.put(tableNames.get(i), new TableKey(i, recordKeys.get(tableNames.get(i))));
    }
    LogicalPlan analyzed = query.analyze(tables);
    Map<String, String> tableOfView = new HashMap<>();
    query.viewOfTable().forEach((table, view) -> tableOfView.put(view, table));
    ViewShape shape = ViewShape.of(analyzed, tableOfView, recordKeys);
    List<String> columns = seqAsJavaList(analyzed.output()).stream().map(Attribute::name).collect(Collectors.toList());
    for (String column : columns) {
      if (column.equalsIgnoreCase(IS_DELETED) || column.equalsIgnoreCase(COMMIT_ORDER) || LineagePlan.isLineage(column)
          || column.toLowerCase(Locale.ROOT).startsWith(AggregateState.PREFIX)) {
        throw new IllegalArgumentException(String.format("The view's query outputs a column named '%s', which the view "
            + "adds to each row itself (%s, %s, %s*) or uses internally (%s*): rename the column in the query", column,
            IS_DELETED, COMMIT_ORDER, AggregateState.PREFIX, LineagePlan.PREFIX));
      }
    }
    Set<String> tableViews = ViewOperator.byLowerCaseView(tableOfView).keySet();
    Option<ViewGrouping> grouping = ViewGrouping.of(analyzed, tableViews);
    Map<String, Integer> groupOfKeyColumn = new HashMap<>();
    if (!shape.refusal().isPresent()) {
      if (!shape.isUniqueBy(targetKey)) {
        throw new IllegalArgumentException(String.format("The target's record key %s is not unique in the view's "
            + "result, which is unique by %s: set hoodie.datasource.write.recordkey.field to one of these column sets, or "
            + "make the query's result unique by the record key (the fact table's key through N:1 joins, the group "
            + "columns under GROUP BY)", targetKey, shape.keys().isEmpty() ? "no set of its columns" : shape.keys()));
      }
      if (grouping.isPresent()) {
        for (String column : targetKey) {
          Option<Integer> group = groupOf(analyzed, grouping.get(), column);
          if (!group.isPresent()) {
            throw new IllegalArgumentException(String.format("The target's record key %s holds column '%s', which is "
                + "not a group column of the view's GROUP BY or DISTINCT: the record key of a grouped view must be "
                + "made of its group columns only (%s), so that a group that becomes empty can be deleted by its key",
                targetKey, column, shape.keys()));
          }
          groupOfKeyColumn.put(column, group.get());
        }
      }
    }
    AggregateState aggregateState = grouping.isPresent() && !shape.refusal().isPresent()
        ? grouping.get().aggregateState()
        : AggregateState.notKept(grouping.isPresent() ? "the view cannot be maintained incrementally" : "it has no GROUP BY");
    return new ViewDefinition(query, keyOfTable, targetKey, shape, columns, grouping.isPresent(), groupOfKeyColumn,
        aggregateState, shape.refusal().isPresent() ? JoinEdges.none() : JoinEdges.of(analyzed, tableOfView), tableViews);
  }

  /** The GROUP BY or DISTINCT of the view's query as analyzed over a binding of its tables, if it has one. */
  Option<ViewGrouping> groupingOf(LogicalPlan analyzed) {
    return ViewGrouping.of(analyzed, tableViews);
  }

  /** Which grouping expression an output column of the view holds as it is, following renames above the grouping. */
  private static Option<Integer> groupOf(LogicalPlan root, ViewGrouping grouping, String column) {
    Option<Attribute> output = Option.fromJavaOptional(seqAsJavaList(root.output()).stream()
        .filter(attribute -> attribute.name().equalsIgnoreCase(column)).findFirst());
    if (!output.isPresent()) {
      return Option.empty();
    }
    ExprId id = output.get().exprId();
    // Down to the grouping: a projection may rename the column.
    for (List<NamedExpression> projection : grouping.projections()) {
      for (NamedExpression expression : projection) {
        if (expression.exprId().equals(id) && expression instanceof Alias
            && ((Alias) expression).child() instanceof AttributeReference) {
          id = ((AttributeReference) ((Alias) expression).child()).exprId();
        }
      }
    }
    List<Expression> groupingExpressions = grouping.operator().groupingExpressions();
    for (NamedExpression named : grouping.operator().outputExpressions()) {
      if (!named.exprId().equals(id)) {
        continue;
      }
      Expression value = named instanceof Alias ? ((Alias) named).child() : (Expression) named;
      for (int i = 0; i < groupingExpressions.size(); i++) {
        Expression group = groupingExpressions.get(i);
        if (value instanceof AttributeReference && group instanceof AttributeReference
            && ((AttributeReference) value).exprId().equals(((AttributeReference) group).exprId())) {
          return Option.of(i);
        }
      }
    }
    return Option.empty();
  }

  public ViewQuery query() {
    return query;
  }

  public ViewShape shape() {
    return shape;
  }

  /** Why the view cannot be maintained incrementally; empty if it can. */
  public Option<String> refusal() {
    return shape.refusal();
  }

  /** The columns of the query's result, in order; the view's rows add {@link #IS_DELETED} and {@link #COMMIT_ORDER}. */
  public List<String> columns() {
    return columns;
  }

  public List<String> targetKey() {
    return targetKey;
  }

  /** Whether the view ends with a GROUP BY or DISTINCT. */
  public boolean isGrouped() {
    return grouped;
  }

  /** Whether the view is grouped and keeps aggregate state in its target, from which changed groups are updated. */
  public boolean keepsAggregateState() {
    return grouped && aggregateState.isKept();
  }

  /** For a grouped view: the index of the grouping expression each record key column holds. */
  Map<String, Integer> groupOfKeyColumn() {
    return Collections.unmodifiableMap(groupOfKeyColumn);
  }

  /** The state a grouped view keeps per group in its target (none for a join view, or a grouped one it cannot keep). */
  AggregateState aggregateState() {
    return aggregateState;
  }

  /** The equalities by which the query joins one table's column to another's. */
  JoinEdges joinEdges() {
    return joinEdges;
  }

  /** The tables the query joins to a table by an equality of their columns as the tables hold them. */
  public Set<String> joinedTo(String table) {
    return joinEdges.joinedTo(table);
  }

  TableKey keyOf(String table) {
    return keyOfTable.get(table);
  }

  Map<String, TableKey> keyOfView() {
    return keyOfView;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "view over %s, %s, %s, target key %s", query.tables(),
        grouped ? "grouped" : "joined", shape, Arrays.toString(targetKey.toArray()));
  }
}
