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

import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.catalyst.plans.logical.View;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One node of a view's analyzed plan with every rule a view has for it: its key rule (which output columns are unique,
 * {@link ViewShape}), its lineage rule (where each output row came from, {@link LineagePlan}), its join-edge rule (which
 * table columns it equates, {@link JoinEdges}), and whether a view's GROUP BY or DISTINCT may be below it and what it
 * makes of the grouped rows ({@link ViewGrouping}). The passes only walk the plan and call the node's rule, so adding an
 * operator is one class here, and {@link #supported} is the only list of what views support: a node it does not know is
 * refused by every pass, never passed through.
 */
abstract class ViewOperator {

  /**
   * The operator of a plan node; empty if views do not support it.
   *
   * @param tableViews the (lower-case) names of the temp views that hold the job's tables
   */
  static Option<ViewOperator> supported(LogicalPlan plan, Set<String> tableViews) {
    if (plan instanceof SubqueryAlias) {
      String view = ((SubqueryAlias) plan).identifier().name().toLowerCase(Locale.ROOT);
      return Option.of(tableViews.contains(view) ? new TableScanOperator((SubqueryAlias) plan, view)
          : new AliasOperator(plan, ((SubqueryAlias) plan).child()));
    }
    if (plan instanceof View) {
      return Option.of(new AliasOperator(plan, ((View) plan).child()));
    }
    if (plan instanceof Filter) {
      return Option.of(new FilterOperator((Filter) plan));
    }
    if (plan instanceof Project) {
      return Option.of(new ProjectOperator((Project) plan));
    }
    if (plan instanceof Join) {
      return Option.of(new JoinOperator((Join) plan));
    }
    if (plan instanceof Union) {
      return Option.of(new UnionAllOperator((Union) plan));
    }
    if (plan instanceof Aggregate) {
      return Option.of(new AggregateOperator((Aggregate) plan));
    }
    if (plan instanceof Distinct) {
      return Option.of(new DistinctOperator((Distinct) plan));
    }
    return Option.empty();
  }

  /**
   * The operator of a plan node.
   *
   * @throws ViewRefusal naming the node, if views do not support it
   */
  static ViewOperator of(LogicalPlan plan, Set<String> tableViews) {
    Option<ViewOperator> operator = supported(plan, tableViews);
    if (!operator.isPresent()) {
      throw new ViewRefusal(String.format("%s is not an operator a view can be maintained by incrementally (supported: "
          + "projections, WHERE, inner and N:1 left outer equi-joins, UNION ALL, GROUP BY with HAVING, DISTINCT): %s",
          plan.nodeName(), oneLine(plan)));
    }
    return operator.get();
  }

  /** A map by view name, the names in lower case: {@link #supported} compares them so to the plan's aliases. */
  static <V> Map<String, V> byLowerCaseView(Map<String, V> byView) {
    Map<String, V> lowerCase = new HashMap<>();
    byView.forEach((view, value) -> lowerCase.put(view.toLowerCase(Locale.ROOT), value));
    return lowerCase;
  }

  /** The key rule: the sets of this node's output columns that are unique, from its inputs' keys. */
  abstract ViewShape.Node keys(ViewShape.Analysis analysis);

  /** The lineage rule: this node over its inputs rewritten to carry lineage, and the lineage that identifies a row. */
  abstract LineagePlan.Rewritten lineage(LineagePlan.Rewrite rewrite);

  /** The join-edge rule: the table columns this node's output passes on as they are, by output attribute. */
  abstract Map<ExprId, JoinEdges.TableColumn> tableColumns(JoinEdges.Walk walk);

  /**
   * The view's GROUP BY or DISTINCT at or below this node, where a grouped view may have one: under its projections,
   * HAVING and aliases only, each telling the search what it makes of the grouped rows. Empty for an operator a
   * grouping is never the last step under.
   */
  abstract Option<GroupingOperator> grouping(ViewGrouping.Search search);

  static Set<ExprId> exprIds(List<? extends Expression> attributes) {
    return attributes.stream().map(attribute -> ((NamedExpression) attribute).exprId()).collect(Collectors.toSet());
  }

  static String oneLine(LogicalPlan plan) {
    String text = plan.simpleString(200).replaceAll("\\s+", " ");
    return text.length() <= 200 ? text : text.substring(0, 197) + "...";
  }
}
