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

import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;

import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static scala.collection.JavaConverters.seqAsJavaList;

/** A GROUP BY: one row per group of its input's rows, its columns group columns and aggregates. */
final class AggregateOperator extends GroupingOperator {

  private final Aggregate aggregate;

  AggregateOperator(Aggregate aggregate) {
    super(aggregate);
    this.aggregate = aggregate;
  }

  /**
   * Unique by its grouping columns where it outputs all of them (as they are, or renamed); by none where it groups by
   * an expression or leaves a grouping column out. A GROUP BY or DISTINCT below it, an expression a batch could not
   * reproduce, and an aggregate without GROUP BY are refused.
   */
  @Override
  ViewShape.Node keys(ViewShape.Analysis analysis) {
    if (aggregate.groupingExpressions().isEmpty()) {
      // Its one row is keyed by a value it computes, not by a group: a batch that changes the value must replace the
      // row under another key, which only a full recompute (its deletes of the keys the result no longer has) does.
      throw new ViewRefusal("the aggregate has no GROUP BY (a query of one row: no group column keys its target, "
          + "and a changed value is a new key; supported: aggregates grouped by the columns the record key is made of)");
    }
    analysis.notAggregated(analysis.node(aggregate.child()), "GROUP BY");
    for (NamedExpression expression : seqAsJavaList(aggregate.aggregateExpressions())) {
      ViewShape.checkDeterministic((Expression) expression, "aggregate");
    }
    Set<ExprId> grouping = new HashSet<>();
    for (Expression expression : seqAsJavaList(aggregate.groupingExpressions())) {
      ViewShape.checkDeterministic(expression, "GROUP BY expression");
      grouping.addAll(exprIds(seqAsJavaList(expression.references().toSeq())));
    }
    // The output columns that are grouping columns as they are, or aliases of them.
    Set<ExprId> key = new HashSet<>();
    Set<ExprId> groupedBy = new HashSet<>();
    for (NamedExpression expression : seqAsJavaList(aggregate.aggregateExpressions())) {
      Expression value = expression instanceof Alias ? ((Alias) expression).child() : (Expression) expression;
      if (value instanceof AttributeReference && grouping.contains(((AttributeReference) value).exprId())) {
        key.add(expression.exprId());
        groupedBy.add(((AttributeReference) value).exprId());
      }
    }
    boolean groupsByColumns = seqAsJavaList(aggregate.groupingExpressions()).stream()
        .allMatch(expression -> expression instanceof AttributeReference);
    if (!groupsByColumns || !groupedBy.containsAll(grouping)) {
      return new ViewShape.Node(Collections.emptySet(), true);
    }
    return new ViewShape.Node(Collections.singleton(key), true);
  }

  @Override
  List<Expression> groupingExpressions() {
    return seqAsJavaList(aggregate.groupingExpressions());
  }

  @Override
  List<NamedExpression> outputExpressions() {
    return seqAsJavaList(aggregate.aggregateExpressions());
  }

  /** Its group columns and the aggregates {@link AggregateState} can update from a change, in the view's order. */
  @Override
  AggregateState aggregateState(Option<List<ExprId>> chosen, Option<Expression> having) {
    return AggregateState.ofAggregate(outputExpressions(), groupingExpressions(), chosen, having);
  }
}
