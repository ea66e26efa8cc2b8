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

import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.plans.Cross$;
import org.apache.spark.sql.catalyst.plans.Inner$;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import scala.runtime.AbstractPartialFunction;

/**
 * Comma joins written as joins on their equalities: {@code FROM a, b WHERE a.x = b.y AND a.z > 0} is analyzed as a
 * filter over a join without condition, which the views' passes would take for a cross join. This pass moves each
 * conjunct of such a WHERE that equates a column of one side of an inner join below it to a column of the other side
 * into that join's condition, the lowest join whose two sides hold the two columns (through a chain of inner and cross
 * joins: TPC-H's Q5 joins six tables by commas), and keeps the other conjuncts as the WHERE: the plan of
 * {@code FROM a JOIN b ON a.x = b.y WHERE a.z > 0}. An equality every disjunct of an OR holds is such a conjunct too
 * ({@code (a.x = b.y AND p) OR (a.x = b.y AND q)} is {@code a.x = b.y AND (p OR q)}: AND distributes over OR in SQL's
 * three-valued logic, as in Boolean logic; TPC-H's Q19).
 *
 * <p>The rows are the same: an inner join keeps the pairs of rows its condition holds for, a filter over it those its
 * condition holds for, so a conjunct may be in either. Nothing else moves: an outer join's condition decides which rows
 * are null-extended, so a WHERE over one stays where it is; and a WHERE holding a non-deterministic expression keeps its
 * conjuncts together, as splitting them would change how often it is evaluated. Only a filter directly over a join is
 * read (a comma join's shape): the rewrite is of the analyzed plan, before any pass of the views reads it.
 */
final class CommaJoins {

  private CommaJoins() {
  }

  /** The plan with the equalities of every WHERE over inner joins moved into those joins' conditions. */
  static LogicalPlan asJoinConditions(LogicalPlan analyzed) {
    return analyzed.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return node instanceof Filter && isInnerJoin(((Filter) node).child())
            && ((Filter) node).condition().deterministic();
      }

      @Override
      public LogicalPlan apply(LogicalPlan node) {
        return filter((Filter) node);
      }
    });
  }

  /** The filter's joins with its equalities as their conditions, under the filter's other conjuncts if any. */
  private static LogicalPlan filter(Filter filter) {
    LogicalPlan joins = filter.child();
    List<Expression> kept = new ArrayList<>();
    for (Expression conjunct : conjuncts(filter.condition())) {
      Option<LogicalPlan> joined = isColumnEquality(conjunct) ? withCondition(joins, (EqualTo) conjunct)
          : Option.empty();
      if (joined.isPresent()) {
        joins = joined.get();
      } else {
        kept.add(conjunct);
      }
    }
    if (joins == filter.child()) {
      return filter;
    }
    return kept.isEmpty() ? joins : new Filter(and(kept), joins);
  }

  /**
   * The chain of inner joins with the equality in the condition of its lowest join whose sides hold one of its columns
   * each; empty if none does (both columns of one table, or of one side of an outer join).
   */
  private static Option<LogicalPlan> withCondition(LogicalPlan plan, EqualTo equality) {
    if (!isInnerJoin(plan)) {
      return Option.empty();
    }
    Join join = (Join) plan;
    AttributeReference a = (AttributeReference) equality.left();
    AttributeReference b = (AttributeReference) equality.right();
    boolean aLeft = join.left().outputSet().contains(a);
    boolean bLeft = join.left().outputSet().contains(b);
    boolean aRight = join.right().outputSet().contains(a);
    boolean bRight = join.right().outputSet().contains(b);
    if (aLeft && bLeft) {
      return withCondition(join.left(), equality).map(left -> join(join, left, join.right(), join.condition()));
    }
    if (aRight && bRight) {
      return withCondition(join.right(), equality).map(right -> join(join, join.left(), right, join.condition()));
    }
    if ((aLeft && bRight) || (aRight && bLeft)) {
      Expression condition = join.condition().isDefined() ? new And(join.condition().get(), equality) : equality;
      return Option.of(join(join, join.left(), join.right(), scala.Option.apply(condition)));
    }
    return Option.empty();
  }

  /** An inner join of two sides, as the join was (a cross join with a condition is an inner one). */
  private static LogicalPlan join(Join join, LogicalPlan left, LogicalPlan right, scala.Option<Expression> condition) {
    return new Join(left, right, Inner$.MODULE$, condition, join.hint());
  }

  private static boolean isInnerJoin(LogicalPlan plan) {
    return plan instanceof Join
        && (((Join) plan).joinType() == Inner$.MODULE$ || ((Join) plan).joinType() == Cross$.MODULE$);
  }

  private static boolean isColumnEquality(Expression expression) {
    return expression instanceof EqualTo && ((EqualTo) expression).left() instanceof AttributeReference
        && ((EqualTo) expression).right() instanceof AttributeReference;
  }

  /**
   * The conjuncts of a condition, each OR with column equalities common to all its disjuncts written as those
   * equalities and the OR of what remains of its disjuncts (nothing, if a disjunct is only those equalities: then the
   * OR is implied by them).
   */
  private static List<Expression> conjuncts(Expression condition) {
    List<Expression> conjuncts = new ArrayList<>();
    for (Expression conjunct : DeltaKeyJoins.conjuncts(condition)) {
      if (!(conjunct instanceof Or)) {
        conjuncts.add(conjunct);
        continue;
      }
      List<List<Expression>> disjuncts = DeltaKeyJoins.disjuncts(conjunct).stream().map(DeltaKeyJoins::conjuncts)
          .collect(Collectors.toList());
      List<Expression> common = disjuncts.get(0).stream().filter(CommaJoins::isColumnEquality)
          .filter(equality -> disjuncts.stream().allMatch(disjunct -> holds(disjunct, equality)))
          .collect(Collectors.toList());
      if (common.isEmpty()) {
        conjuncts.add(conjunct);
        continue;
      }
      conjuncts.addAll(common);
      List<List<Expression>> rests = disjuncts.stream().map(disjunct -> disjunct.stream()
          .filter(expression -> !holds(common, expression)).collect(Collectors.toList())).collect(Collectors.toList());
      if (rests.stream().noneMatch(List::isEmpty)) {
        conjuncts.add(rests.stream().map(CommaJoins::and).reduce(Or::new).get());
      }
    }
    return conjuncts;
  }

  /** Whether one of the expressions is {@code expression}, its operands in any order. */
  private static boolean holds(List<Expression> expressions, Expression expression) {
    return expressions.stream().anyMatch(expression::semanticEquals);
  }

  private static Expression and(List<Expression> conjuncts) {
    return conjuncts.stream().reduce(And::new).get();
  }
}
