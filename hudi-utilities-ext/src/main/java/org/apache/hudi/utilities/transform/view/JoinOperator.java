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
import org.apache.spark.sql.catalyst.plans.Inner$;
import org.apache.spark.sql.catalyst.plans.JoinType;
import org.apache.spark.sql.catalyst.plans.LeftOuter$;
import org.apache.spark.sql.catalyst.plans.logical.Join;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static scala.collection.JavaConverters.seqAsJavaList;

/** A join of two inputs; views support inner equi-joins and N:1 left outer ones (the right side joined on a key). */
final class JoinOperator extends ViewOperator {

  private final Join join;

  JoinOperator(Join join) {
    this.join = join;
  }

  /**
   * The left side's keys where the right side is joined on one of its keys (N:1), the right side's where the left side
   * is (inner joins), and in any case a key of each side together. Refused: other join types, a 1:N left outer join, a
   * condition comparing the sides other than by equality of columns or not at all, a table on both sides (a self-join)
   * and a GROUP BY or DISTINCT on either side.
   */
  @Override
  ViewShape.Node keys(ViewShape.Analysis analysis) {
    JoinType type = join.joinType();
    boolean inner = type == Inner$.MODULE$;
    if (!inner && type != LeftOuter$.MODULE$) {
      throw new ViewRefusal(String.format("a %s join is not an operator a view can be maintained by incrementally "
          + "(supported: inner and left outer equi-joins): %s", type.sql(), oneLine(join)));
    }
    Set<String> leftTables = new HashSet<>();
    ViewShape.Node left = analysis.notAggregated(analysis.side(join.left(), leftTables), "a join");
    Set<String> rightTables = new HashSet<>();
    ViewShape.Node right = analysis.notAggregated(analysis.side(join.right(), rightTables), "a join");
    Set<String> twice = new HashSet<>(leftTables);
    twice.retainAll(rightTables);
    if (!twice.isEmpty()) {
      throw new ViewRefusal(String.format("the join %s reads table(s) %s on both sides (a self-join, whose rows two "
          + "changes of one table can make; supported: each table once per join, or in separate UNION ALL branches)",
          oneLine(join), twice));
    }
    Set<ExprId> leftSide = exprIds(seqAsJavaList(join.left().output()));
    Set<ExprId> rightSide = exprIds(seqAsJavaList(join.right().output()));
    Set<ExprId> leftJoined = new HashSet<>();
    Set<ExprId> rightJoined = new HashSet<>();
    if (join.condition().isDefined()) {
      for (Expression conjunct : DeltaKeyJoins.conjuncts(join.condition().get())) {
        ViewShape.checkDeterministic(conjunct, "join condition");
        Set<ExprId> referenced = exprIds(seqAsJavaList(conjunct.references().toSeq()));
        boolean bothSides = referenced.stream().anyMatch(leftSide::contains)
            && referenced.stream().anyMatch(rightSide::contains);
        if (!bothSides) {
          continue;
        }
        if (!(conjunct instanceof EqualTo) || !(((EqualTo) conjunct).left() instanceof AttributeReference)
            || !(((EqualTo) conjunct).right() instanceof AttributeReference)) {
          throw new ViewRefusal(String.format("the join condition %s compares the two sides other than by equality of "
              + "columns (supported: equi-joins)", conjunct.sql()));
        }
        ExprId a = ((AttributeReference) ((EqualTo) conjunct).left()).exprId();
        ExprId b = ((AttributeReference) ((EqualTo) conjunct).right()).exprId();
        leftJoined.add(leftSide.contains(a) ? a : b);
        rightJoined.add(rightSide.contains(b) ? b : a);
      }
    }
    if (leftJoined.isEmpty()) {
      throw new ViewRefusal(String.format("the join %s has no equality between its two sides (a cross join; supported: "
          + "equi-joins)", oneLine(join)));
    }
    boolean rightOnKey = right.keys().stream().anyMatch(rightJoined::containsAll);
    boolean leftOnKey = left.keys().stream().anyMatch(leftJoined::containsAll);
    if (!inner && !rightOnKey) {
      throw new ViewRefusal(String.format("the LEFT OUTER join %s does not join its right side on one of the right "
          + "side's keys (a 1:N left outer join, whose null-extended rows depend on the absence of matches; "
          + "supported: N:1 left outer joins, each row of the left side with at most one match)", oneLine(join)));
    }
    Set<Set<ExprId>> keys = new LinkedHashSet<>();
    if (rightOnKey) {
      keys.addAll(left.keys());
    }
    if (leftOnKey && inner) {
      keys.addAll(right.keys());
    }
    for (Set<ExprId> leftKey : left.keys()) {
      for (Set<ExprId> rightKey : right.keys()) {
        Set<ExprId> both = new HashSet<>(leftKey);
        both.addAll(rightKey);
        keys.add(both);
      }
    }
    return new ViewShape.Node(keys);
  }

  /**
   * A row carries both sides' lineage. An inner join's row is identified by both sides; a left outer join's by its
   * left side alone, as the right side is determined by it (N:1), present or not.
   */
  @Override
  LineagePlan.Rewritten lineage(LineagePlan.Rewrite rewrite) {
    if (join.joinType() != LeftOuter$.MODULE$) {
      return rewrite.overInputs(join);
    }
    rewrite.leftOuterJoin();
    List<LineagePlan.Rewritten> sides = rewrite.inputs(join);
    return new LineagePlan.Rewritten(LineagePlan.withChildren(join, sides), new LinkedHashSet<>(sides.get(0).identity()));
  }

  /** Both sides' columns; the condition's equalities between a column of each side count. */
  @Override
  Map<ExprId, JoinEdges.TableColumn> tableColumns(JoinEdges.Walk walk) {
    Map<ExprId, JoinEdges.TableColumn> left = walk.columns(join.left());
    Map<ExprId, JoinEdges.TableColumn> right = walk.columns(join.right());
    if (join.condition().isDefined()) {
      walk.equalities(join.condition().get(), left, right);
    }
    Map<ExprId, JoinEdges.TableColumn> columns = new HashMap<>(left);
    columns.putAll(right);
    return columns;
  }

  /** A GROUP BY or DISTINCT below a join is not a view's last step (the key rule refuses it). */
  @Override
  Option<GroupingOperator> grouping(ViewGrouping.Search search) {
    return Option.empty();
  }
}
