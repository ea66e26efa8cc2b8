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
import org.apache.spark.sql.catalyst.plans.logical.Distinct;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static scala.collection.JavaConverters.seqAsJavaList;

/** A DISTINCT (also a UNION without ALL): one row per distinct row of its input, grouped by all its columns. */
final class DistinctOperator extends GroupingOperator {

  private final Distinct distinct;

  DistinctOperator(Distinct distinct) {
    super(distinct);
    this.distinct = distinct;
  }

  /** Unique by all its columns; a GROUP BY or DISTINCT below it is refused. */
  @Override
  ViewShape.Node keys(ViewShape.Analysis analysis) {
    analysis.notAggregated(analysis.node(distinct.child()), "DISTINCT");
    return new ViewShape.Node(Collections.singleton(exprIds(seqAsJavaList(distinct.output()))), true);
  }

  @Override
  List<Expression> groupingExpressions() {
    return new ArrayList<>(seqAsJavaList(distinct.child().output()));
  }

  @Override
  List<NamedExpression> outputExpressions() {
    return new ArrayList<>(seqAsJavaList(distinct.child().output()));
  }

  /** Its groups' rows, one group column per column. */
  @Override
  AggregateState aggregateState(Option<List<ExprId>> chosen, Option<Expression> having) {
    return AggregateState.ofDistinct(groupingExpressions(), having);
  }
}
