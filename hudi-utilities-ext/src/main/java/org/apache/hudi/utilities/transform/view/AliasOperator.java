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
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

import java.util.Map;

/**
 * A name given to a subquery ({@code SubqueryAlias} of anything but a table's temp view) or a view's plan ({@code View}):
 * its rows are its input's, so every rule is its input's.
 */
final class AliasOperator extends ViewOperator {

  private final LogicalPlan alias;
  private final LogicalPlan input;

  AliasOperator(LogicalPlan alias, LogicalPlan input) {
    this.alias = alias;
    this.input = input;
  }

  @Override
  ViewShape.Node keys(ViewShape.Analysis analysis) {
    return analysis.node(input);
  }

  @Override
  LineagePlan.Rewritten lineage(LineagePlan.Rewrite rewrite) {
    return rewrite.overInputs(alias);
  }

  @Override
  Map<ExprId, JoinEdges.TableColumn> tableColumns(JoinEdges.Walk walk) {
    return walk.columns(input);
  }

  @Override
  Option<GroupingOperator> grouping(ViewGrouping.Search search) {
    return search.below(input);
  }
}
