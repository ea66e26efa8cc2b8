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
import org.apache.hudi.utilities.transform.sql.DeltaKeyJoins;

import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * The equalities by which a view's query joins a column of one table to a column of another as the tables hold them:
 * {@code a.x = b.y} in a join condition between the join's two sides, or in a WHERE, each column reaching it from its
 * table through projections, filters and joins only. Every row of the query made of a row of {@code b} and a row of
 * {@code a} has {@code a.x = b.y}: to recompute the rows made of some rows of {@code b}, {@code a} is needed only where
 * {@code x} is one of their {@code y}s. Tables the query reads twice (in two UNION ALL branches) have no equality here,
 * and neither do columns of a type whose equality an {@code IN} list may decide otherwise than the join (floating point).
 */
final class JoinEdges {

  /** A column of a table as the query reads it. */
  private static final class TableColumn {
    private final String table;
    private final String column;
    private final DataType type;

    TableColumn(String table, String column, DataType type) {
      this.table = table;
      this.column = column;
      this.type = type;
    }
  }

  /** {@code table.column = joinedTable.joinedColumn}, read from {@code table}'s side. */
  static final class Edge {
    private final String column;
    private final String joinedColumn;

    Edge(String column, String joinedColumn) {
      this.column = column;
      this.joinedColumn = joinedColumn;
    }

    /** The column of the table whose rows are needed. */
    String column() {
      return column;
    }

    /** The column of the joined table whose values they are needed for. */
    String joinedColumn() {
      return joinedColumn;
    }

    @Override
    public String toString() {
      return column + " = " + joinedColumn;
    }
  }

  private final Map<String, Map<String, List<Edge>>> edges;

  private JoinEdges(Map<String, Map<String, List<Edge>>> edges) {
    this.edges = edges;
  }

  /**
   * @param analyzed    the view's analyzed query, its tables bound to temp views
   * @param tableOfView the table each temp view holds, by view name
   */
  static JoinEdges of(LogicalPlan analyzed, Map<String, String> tableOfView) {
    Map<String, String> tables = new HashMap<>();
    tableOfView.forEach((view, table) -> tables.put(view.toLowerCase(Locale.ROOT), table));
    Walk walk = new Walk(tables);
    walk.columns(analyzed);
    Map<String, Map<String, List<Edge>>> edges = new HashMap<>();
    for (TableColumn[] pair : walk.equalities) {
      if (walk.reads.get(pair[0].table) == 1 && walk.reads.get(pair[1].table) == 1) {
        add(edges, pair[0], pair[1]);
        add(edges, pair[1], pair[0]);
      }
    }
    return new JoinEdges(edges);
  }

  private static void add(Map<String, Map<String, List<Edge>>> edges, TableColumn column, TableColumn joined) {
    edges.computeIfAbsent(column.table, table -> new HashMap<>())
        .computeIfAbsent(joined.table, table -> new ArrayList<>()).add(new Edge(column.column, joined.column));
  }

  /** The first equality joining a column of {@code table} to a column of {@code joined}; empty if none does. */
  Option<Edge> between(String table, String joined) {
    List<Edge> between = edges.getOrDefault(table, Collections.emptyMap()).getOrDefault(joined, Collections.emptyList());
    return between.isEmpty() ? Option.empty() : Option.of(between.get(0));
  }

  /** The tables the query joins to {@code table} by such an equality. */
  Set<String> joinedTo(String table) {
    return Collections.unmodifiableSet(edges.getOrDefault(table, Collections.emptyMap()).keySet());
  }

  /** Walks a plan, returning per node the table columns its output passes on as they are. */
  private static final class Walk {
    private final Map<String, String> tableOfView;
    private final Map<String, Integer> reads = new HashMap<>();
    private final List<TableColumn[]> equalities = new ArrayList<>();

    Walk(Map<String, String> tableOfView) {
      this.tableOfView = tableOfView;
    }

    Map<ExprId, TableColumn> columns(LogicalPlan plan) {
      if (plan instanceof SubqueryAlias) {
        String view = ((SubqueryAlias) plan).identifier().name().toLowerCase(Locale.ROOT);
        return tableOfView.containsKey(view) ? table(tableOfView.get(view), plan) : columns(((SubqueryAlias) plan).child());
      }
      if (plan instanceof View) {
        return columns(((View) plan).child());
      }
      if (plan instanceof Filter) {
        Map<ExprId, TableColumn> columns = columns(((Filter) plan).child());
        equalities(((Filter) plan).condition(), columns, columns);
        return columns;
      }
      if (plan instanceof Project) {
        return project((Project) plan);
      }
      if (plan instanceof Join) {
        Join join = (Join) plan;
        Map<ExprId, TableColumn> left = columns(join.left());
        Map<ExprId, TableColumn> right = columns(join.right());
        if (join.condition().isDefined()) {
          equalities(join.condition().get(), left, right);
        }
        Map<ExprId, TableColumn> columns = new HashMap<>(left);
        columns.putAll(right);
        return columns;
      }
      // A union's or a grouping's output is not any one table's column; equalities below it still count.
      seqAsJavaList(plan.children()).forEach(this::columns);
      return Collections.emptyMap();
    }

    private Map<ExprId, TableColumn> table(String table, LogicalPlan plan) {
      reads.merge(table, 1, Integer::sum);
      Map<ExprId, TableColumn> columns = new HashMap<>();
      for (Attribute attribute : seqAsJavaList(plan.output())) {
        if (isListable(attribute.dataType())) {
          columns.put(attribute.exprId(), new TableColumn(table, attribute.name(), attribute.dataType()));
        }
      }
      return columns;
    }

    private Map<ExprId, TableColumn> project(Project project) {
      Map<ExprId, TableColumn> child = columns(project.child());
      Map<ExprId, TableColumn> columns = new HashMap<>();
      for (NamedExpression expression : seqAsJavaList(project.projectList())) {
        Expression value = expression instanceof Alias ? ((Alias) expression).child() : (Expression) expression;
        if (value instanceof AttributeReference && child.containsKey(((AttributeReference) value).exprId())) {
          columns.put(expression.exprId(), child.get(((AttributeReference) value).exprId()));
        }
      }
      return columns;
    }

    /** Records the conjuncts equating a column of {@code left} to a column of another table in {@code right}. */
    private void equalities(Expression condition, Map<ExprId, TableColumn> left, Map<ExprId, TableColumn> right) {
      for (Expression conjunct : DeltaKeyJoins.conjuncts(condition)) {
        if (!(conjunct instanceof EqualTo) || !(((EqualTo) conjunct).left() instanceof AttributeReference)
            || !(((EqualTo) conjunct).right() instanceof AttributeReference)) {
          continue;
        }
        ExprId a = ((AttributeReference) ((EqualTo) conjunct).left()).exprId();
        ExprId b = ((AttributeReference) ((EqualTo) conjunct).right()).exprId();
        TableColumn first = left.containsKey(a) && right.containsKey(b) ? left.get(a) : right.get(a);
        TableColumn second = left.containsKey(a) && right.containsKey(b) ? right.get(b) : left.get(b);
        if (first != null && second != null && !first.table.equals(second.table)
            && first.type.sameType(second.type)) {
          equalities.add(new TableColumn[] {first, second});
        }
      }
    }

    /** Types whose values an IN list compares exactly as the join does. */
    private static boolean isListable(DataType type) {
      return type instanceof StringType || type instanceof IntegralType || type instanceof DecimalType
          || type instanceof DateType || type instanceof TimestampType || type instanceof BooleanType;
    }
  }
}
