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

import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * A grouped view's last step: its GROUP BY or DISTINCT, and what the nodes above it make of the grouped rows (HAVING, a
 * choice and renaming of its columns). Found by asking each node's {@link ViewOperator} from the view's root down
 * whether the grouping may be below it: only projections, HAVING and aliases may be above a view's grouping.
 */
final class ViewGrouping {

  private final GroupingOperator operator;
  private final List<List<NamedExpression>> projections;
  private final Option<List<ExprId>> chosen;
  private final Option<Expression> having;
  private final Option<String> notKeptBecause;

  private ViewGrouping(GroupingOperator operator, Search search) {
    this.operator = operator;
    this.projections = Collections.unmodifiableList(search.projections);
    this.chosen = search.chosen;
    this.having = search.having;
    this.notKeptBecause = search.notKeptBecause;
  }

  /**
   * The GROUP BY or DISTINCT of a view, if it has one: below its projections, HAVING and aliases.
   *
   * @param analyzed   the view's analyzed query
   * @param tableViews the (lower-case) names of the temp views that hold the job's tables
   */
  static Option<ViewGrouping> of(LogicalPlan analyzed, Set<String> tableViews) {
    Search search = new Search(tableViews);
    return search.below(analyzed).map(operator -> new ViewGrouping(operator, search));
  }

  /** The GROUP BY or DISTINCT. */
  GroupingOperator operator() {
    return operator;
  }

  /** The SELECT lists above the grouping, from the view's root down: they may rename its columns. */
  List<List<NamedExpression>> projections() {
    return projections;
  }

  /** The state the view keeps per group; none if a node above the grouping computes over it or filters it twice. */
  AggregateState aggregateState() {
    return notKeptBecause.isPresent() ? AggregateState.notKept(notKeptBecause.get())
        : operator.aggregateState(chosen, having);
  }

  /** The walk from a view's root down to its grouping; each node's part is its operator's {@code grouping} rule. */
  static final class Search {
    private final Set<String> tableViews;
    private final List<List<NamedExpression>> projections = new ArrayList<>();
    /** The grouping's output columns the view outputs, chosen by the first projection above any HAVING. */
    private Option<List<ExprId>> chosen = Option.empty();
    private Option<Expression> having = Option.empty();
    private Option<String> notKeptBecause = Option.empty();

    private Search(Set<String> tableViews) {
      this.tableViews = tableViews;
    }

    /** The view's grouping at or below a node; empty if the node is none a grouping may be below. */
    Option<GroupingOperator> below(LogicalPlan plan) {
      Option<ViewOperator> operator = ViewOperator.supported(plan, tableViews);
      return operator.isPresent() ? operator.get().grouping(this) : Option.empty();
    }

    /** A projection above the grouping: the view's choice of its columns if above HAVING and any other projection. */
    void projection(Project project) {
      List<NamedExpression> columns = seqAsJavaList(project.projectList());
      projections.add(columns);
      if (notKeptBecause.isPresent()) {
        return;
      }
      if (chosen.isPresent() || having.isPresent()) {
        notKeptBecause = Option.of(neitherHavingNorChoice(project));
        return;
      }
      List<ExprId> ids = new ArrayList<>();
      for (NamedExpression column : columns) {
        if (!(column instanceof AttributeReference)) {
          notKeptBecause = Option.of("its column '" + column.name() + "' is computed over the GROUP BY");
          return;
        }
        ids.add(column.exprId());
      }
      chosen = Option.of(ids);
    }

    /** A filter above the grouping: its HAVING, if the first. */
    void having(Filter filter) {
      if (notKeptBecause.isPresent()) {
        return;
      }
      if (having.isPresent()) {
        notKeptBecause = Option.of(neitherHavingNorChoice(filter));
        return;
      }
      having = Option.of(filter.condition());
    }

    private static String neitherHavingNorChoice(LogicalPlan node) {
      return "its GROUP BY is under " + node.nodeName() + ", which is neither HAVING nor a choice of columns";
    }
  }
}
