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

import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression$;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * What a view over whole tables guarantees, read from Spark's analyzed plan of its query: the sets of output columns
 * that are unique in every result (its keys), and the tables it reads; or why it cannot be maintained incrementally,
 * naming the operator.
 *
 * <p>Keys follow the plan from the tables up: a table is unique by its record key; a filter keeps its input's keys; a
 * projection keeps the keys whose columns it passes on (also renamed, or cast to a type that keeps distinct values
 * distinct); an inner or left outer equi-join keeps the left side's keys where the right side is joined on one of its
 * keys (N:1), the right side's where the left side is (inner joins), and in any case a key of each side together; UNION ALL
 * is unique by columns that are unique in every branch together with a column that holds a different constant in each
 * branch; GROUP BY is unique by its grouping columns and DISTINCT by all columns. Anything else is refused: other operators (window functions, ORDER BY, LIMIT, ...), joins
 * other than inner and N:1 left outer (the right side joined on one of its keys), join conditions that compare the two
 * sides other than by equality, subqueries in expressions, non-deterministic expressions and those that read the
 * time a batch runs at (current_timestamp(), current_date(), now(), ...), and a GROUP BY or DISTINCT
 * below a join, a UNION or another GROUP BY (the groups of a view are recomputed from whole tables).
 *
 * <p>Each operator's key rule is in its {@link ViewOperator}; this walks the plan and keeps what the walk has met.
 */
public final class ViewShape {

  private final Set<String> tables;
  private final List<List<String>> keys;
  private final Option<String> refusal;

  private ViewShape(Set<String> tables, List<List<String>> keys, Option<String> refusal) {
    this.tables = tables;
    this.keys = keys;
    this.refusal = refusal;
  }

  /**
   * @param analyzed         the analyzed plan of the view's query, its tables bound to temp views
   * @param tableOfView      the table each temp view holds, by view name
   * @param recordKeyOfTable each table's record key columns
   */
  public static ViewShape of(LogicalPlan analyzed, Map<String, String> tableOfView,
                             Map<String, List<String>> recordKeyOfTable) {
    Analysis analysis = new Analysis(tableOfView, recordKeyOfTable);
    try {
      Node root = analysis.node(analyzed);
      Map<ExprId, String> names = new HashMap<>();
      for (Attribute attribute : seqAsJavaList(analyzed.output())) {
        names.put(attribute.exprId(), attribute.name());
      }
      List<List<String>> keys = root.keys.stream()
          .map(key -> key.stream().map(names::get).sorted().collect(Collectors.toList()))
          .sorted((a, b) -> a.size() != b.size() ? Integer.compare(a.size(), b.size()) : a.toString().compareTo(b.toString()))
          .collect(Collectors.toList());
      return new ViewShape(Collections.unmodifiableSet(analysis.tables), keys, Option.empty());
    } catch (ViewRefusal refused) {
      return new ViewShape(Collections.unmodifiableSet(analysis.tables), Collections.emptyList(),
          Option.of(refused.getMessage()));
    }
  }

  /** Why the view cannot be maintained incrementally; empty if it can. */
  public Option<String> refusal() {
    return refusal;
  }

  /** The tables the view reads, in the order the plan meets them. */
  public Set<String> tables() {
    return tables;
  }

  /** Each set of output columns that is unique in every result (sorted), smallest first; none if refused. */
  public List<List<String>> keys() {
    return keys;
  }

  /** Whether the rows of every result are unique by these output columns (a key of the view is among them). */
  public boolean isUniqueBy(List<String> columns) {
    return keys.stream().anyMatch(columns::containsAll);
  }

  @Override
  public String toString() {
    return refusal.isPresent() ? "refused: " + refusal.get() : "tables " + tables + ", keys " + keys;
  }

  /** The keys of one plan node, as sets of the node's output attributes. */
  static final class Node {
    private final Set<Set<ExprId>> keys;
    /** Whether a GROUP BY or DISTINCT is at or below this node. */
    private final boolean aggregated;

    Node(Set<Set<ExprId>> keys) {
      this(keys, false);
    }

    Node(Set<Set<ExprId>> keys, boolean aggregated) {
      this.keys = minimal(keys);
      this.aggregated = aggregated;
    }

    Set<Set<ExprId>> keys() {
      return keys;
    }

    boolean aggregated() {
      return aggregated;
    }

    /** Without the keys that hold a smaller key: they say nothing more. */
    private static Set<Set<ExprId>> minimal(Set<Set<ExprId>> keys) {
      return keys.stream()
          .filter(key -> keys.stream().noneMatch(other -> other != key && key.containsAll(other) && !other.equals(key)))
          .collect(Collectors.toCollection(LinkedHashSet::new));
    }
  }

  /** One walk over a plan: each node's key rule is its {@link ViewOperator}'s; this keeps what the walk has met. */
  static final class Analysis {
    private final Map<String, String> tableOfView;
    private final Map<String, List<String>> recordKeyOfTable;
    private final Set<String> tables = new LinkedHashSet<>();
    /** The tables of the join being walked. */
    private Set<String> joinedTables = new HashSet<>();

    Analysis(Map<String, String> tableOfView, Map<String, List<String>> recordKeyOfTable) {
      this.tableOfView = ViewOperator.byLowerCaseView(tableOfView);
      this.recordKeyOfTable = recordKeyOfTable;
    }

    /** The keys of a node. */
    Node node(LogicalPlan plan) {
      return ViewOperator.of(plan, tableOfView.keySet()).keys(this);
    }

    /** Records a read of the table a temp view holds; returns the table. */
    String read(String view) {
      String table = tableOfView.get(view);
      tables.add(table);
      joinedTables.add(table);
      return table;
    }

    /** The record key columns of a table; null or empty if it has none. */
    List<String> recordKeyOf(String table) {
      return recordKeyOfTable.get(table);
    }

    /** The keys of one side of a join, adding the tables the side reads to {@code sideTables}. */
    Node side(LogicalPlan plan, Set<String> sideTables) {
      Set<String> outer = joinedTables;
      joinedTables = sideTables;
      Node node = node(plan);
      joinedTables = outer;
      outer.addAll(sideTables);
      return node;
    }

    /** The node; refused if a GROUP BY or DISTINCT is at or below it, as the input of {@code operator}. */
    Node notAggregated(Node node, String operator) {
      if (node.aggregated) {
        throw new ViewRefusal(String.format("a GROUP BY or DISTINCT below %s: a view's groups are recomputed from whole "
            + "tables, so GROUP BY and DISTINCT may only be its last step (with HAVING and a projection above them)",
            operator));
      }
      return node;
    }
  }

  /** Refuses an expression a batch could not reproduce: a subquery, the time a batch runs at, randomness. */
  static void checkDeterministic(Expression expression, String what) {
    if (SubqueryExpression$.MODULE$.hasSubquery(expression)) {
      throw new ViewRefusal(String.format("the %s %s holds a subquery, whose tables' changes a view cannot follow "
          + "(write it as a join)", what, expression.sql()));
    }
    Option<Expression> time = BatchTime.readIn(expression);
    if (time.isPresent()) {
      throw new ViewRefusal(String.format("the %s %s reads the time a batch runs at (%s): the rows it decides change "
          + "as time passes while no table changes, so no batch would rewrite them (compare against a column of a "
          + "table instead, e.g. a calendar table a job updates daily)", what, expression.sql(), time.get().sql()));
    }
    if (!expression.deterministic()) {
      throw new ViewRefusal(String.format("the %s %s is not deterministic, so a batch could not reproduce the rows an "
          + "earlier one wrote", what, expression.sql()));
    }
  }
}
