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
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A GROUP BY ({@link AggregateOperator}) or DISTINCT ({@link DistinctOperator}): one row per group of its input's rows.
 * Only a view's last step (under HAVING and a choice of its columns): its groups are recomputed from whole tables, and
 * updated from the {@link AggregateState} the view keeps.
 */
abstract class GroupingOperator extends ViewOperator {

  private final LogicalPlan grouping;

  GroupingOperator(LogicalPlan grouping) {
    this.grouping = grouping;
  }

  LogicalPlan plan() {
    return grouping;
  }

  /** The rows it groups. */
  LogicalPlan input() {
    return grouping.children().head();
  }

  /** The expressions it groups its input's rows by. */
  abstract List<Expression> groupingExpressions();

  /** The expressions of its output columns, in order: grouping expressions and aggregates. */
  abstract List<NamedExpression> outputExpressions();

  /**
   * The aggregate rule: the state a view ending with this grouping keeps per group.
   *
   * @param chosen the grouping's output columns the view outputs, if a projection above it chooses them
   * @param having the HAVING condition above it, if any
   */
  abstract AggregateState aggregateState(Option<List<ExprId>> chosen, Option<Expression> having);

  /** Grouped rows have no lineage of their own: a view's grouping is above the part its lineage is carried through. */
  @Override
  LineagePlan.Rewritten lineage(LineagePlan.Rewrite rewrite) {
    throw new ViewRefusal(String.format("a GROUP BY or DISTINCT below a view's last step: a view's groups are "
        + "recomputed from whole tables, so its rows carry no lineage of table rows: %s", oneLine(grouping)));
  }

  /** A grouping's output is not any one table's column; equalities below it still count. */
  @Override
  Map<ExprId, JoinEdges.TableColumn> tableColumns(JoinEdges.Walk walk) {
    walk.columns(input());
    return Collections.emptyMap();
  }

  @Override
  Option<GroupingOperator> grouping(ViewGrouping.Search search) {
    return Option.of(this);
  }
}
