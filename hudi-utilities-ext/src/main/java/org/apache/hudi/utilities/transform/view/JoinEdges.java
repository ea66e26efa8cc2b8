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

import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
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
import java.util.Map;
import java.util.Set;

/**
 * The equalities by which a view's query joins a column of one table to a column of another as the tables hold them:
 * {@code a.x = b.y} in a join condition between the join's two sides, or in a WHERE, each column reaching it from its
 * table through projections, filters and joins only. Every row of the query made of a row of {@code b} and a row of
 * {@code a} has {@code a.x = b.y}: to recompute the rows made of some rows of {@code b}, {@code a} is needed only where
 * {@code x} is one of their {@code y}s. Tables the query reads twice (in two UNION ALL branches) have no equality here,
 * and neither do columns of a type whose equality an {@code IN} list may decide otherwise than the join (floating point).
 *
 * <p>Each operator's rule is in its {@link ViewOperator}; a plan holding an operator none knows is not walked (it fails):
 * a view {@link ViewShape} refuses has {@link #none}.
 */
final class JoinEdges {

  /** A column of a table as the query reads it. */
  static final class TableColumn {
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
    Walk walk = new Walk(ViewOperator.byLowerCaseView(tableOfView));
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

  /** No equality: those of a view no batch maintains incrementally, which reads no table restricted by one. */
  static JoinEdges none() {
    return new JoinEdges(Collections.emptyMap());
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

  /** Types whose values an IN list compares exactly as the join does. */
  static boolean isListable(DataType type) {
    return type instanceof StringType || type instanceof IntegralType || type instanceof DecimalType
        || type instanceof DateType || type instanceof TimestampType || type instanceof BooleanType;
  }

  /**
   * Walks a plan, returning per node the table columns its output passes on as they are: each node's rule is its
   * {@link ViewOperator}'s; this keeps the tables' reads and the equalities met.
   */
  static final class Walk {
    private final Map<String, String> tableOfView;
    private final Map<String, Integer> reads = new HashMap<>();
    private final List<TableColumn[]> equalities = new ArrayList<>();

    Walk(Map<String, String> tableOfView) {
      this.tableOfView = tableOfView;
    }

    Map<ExprId, TableColumn> columns(LogicalPlan plan) {
      return ViewOperator.of(plan, tableOfView.keySet()).tableColumns(this);
    }

    /** Records a read of the table a temp view holds; returns the table. */
    String read(String view) {
      String table = tableOfView.get(view);
      reads.merge(table, 1, Integer::sum);
      return table;
    }

    /** Records the conjuncts equating a column of {@code left} to a column of another table in {@code right}. */
    void equalities(Expression condition, Map<ExprId, TableColumn> left, Map<ExprId, TableColumn> right) {
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
  }
}
