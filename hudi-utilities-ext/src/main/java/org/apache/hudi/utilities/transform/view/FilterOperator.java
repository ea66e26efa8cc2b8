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
import org.apache.spark.sql.catalyst.plans.logical.Filter;

import java.util.Map;

/** A WHERE, or above a GROUP BY its HAVING: some of its input's rows, as they are. */
final class FilterOperator extends ViewOperator {

  private final Filter filter;

  FilterOperator(Filter filter) {
    this.filter = filter;
  }

  /** Its input's keys; a condition a batch could not reproduce (time, randomness, a subquery) is refused. */
  @Override
  ViewShape.Node keys(ViewShape.Analysis analysis) {
    ViewShape.checkDeterministic(filter.condition(), "WHERE or HAVING condition");
    return analysis.node(filter.child());
  }

  /** A row keeps its input row's lineage. */
  @Override
  LineagePlan.Rewritten lineage(LineagePlan.Rewrite rewrite) {
    return rewrite.overInputs(filter);
  }

  /** Its input's columns; its condition's equalities of two tables' columns (a WHERE over a cross join) count. */
  @Override
  Map<ExprId, JoinEdges.TableColumn> tableColumns(JoinEdges.Walk walk) {
    Map<ExprId, JoinEdges.TableColumn> columns = walk.columns(filter.child());
    walk.equalities(filter.condition(), columns, columns);
    return columns;
  }

  /** Above the view's grouping, its HAVING. */
  @Override
  Option<GroupingOperator> grouping(ViewGrouping.Search search) {
    search.having(filter);
    return search.below(filter.child());
  }
}
