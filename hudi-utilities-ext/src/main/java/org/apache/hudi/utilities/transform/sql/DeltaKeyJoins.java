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

package org.apache.hudi.utilities.transform.sql;

import org.apache.hudi.common.util.Option;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.BinaryOperator;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.plans.Inner$;
import org.apache.spark.sql.catalyst.plans.JoinType;
import org.apache.spark.sql.catalyst.plans.LeftAnti$;
import org.apache.spark.sql.catalyst.plans.LeftOuter$;
import org.apache.spark.sql.catalyst.plans.LeftSemi$;
import org.apache.spark.sql.catalyst.plans.RightOuter$;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import scala.collection.JavaConverters;

/**
 * The joins of a SQL statement where a snapshot view may be read with only the keys of a delta view: the two are the
 * direct inputs of one join, joined on an equality of a column of the snapshot and a column or nested field of the delta
 * ({@code s.user_id = u.user_id}, or {@code s.user_id = u.after.user_id} on a CDC delta's image; among the ANDed
 * conditions), and the
 * snapshot side cannot produce rows without a match (an inner join, or the right side of a LEFT, LEFT SEMI or LEFT ANTI
 * join, the left side of a RIGHT join). There, snapshot rows whose key is not among the delta's keys never reach the
 * result, so dropping them before the join changes nothing.
 *
 * <p>Found from Spark's parse of the statement, before analysis: only joins whose shape is certain are returned; a
 * join the parse does not show plainly (a view behind a CTE, a subquery, USING or NATURAL joins, unqualified columns)
 * is not, and its snapshot is read in full.
 */
public final class DeltaKeyJoins {

  private DeltaKeyJoins() {
  }

  /** A snapshot view joined with a delta view on {@code snapshotColumn = deltaField}. */
  public static final class KeyJoin {
    private final String snapshotView;
    private final String snapshotColumn;
    private final String deltaView;
    private final List<String> deltaField;

    KeyJoin(String snapshotView, String snapshotColumn, String deltaView, List<String> deltaField) {
      this.snapshotView = snapshotView;
      this.snapshotColumn = snapshotColumn;
      this.deltaView = deltaView;
      this.deltaField = Collections.unmodifiableList(new ArrayList<>(deltaField));
    }

    public String snapshotView() {
      return snapshotView;
    }

    public String snapshotColumn() {
      return snapshotColumn;
    }

    public String deltaView() {
      return deltaView;
    }

    /** The delta's join key as written in the SQL: a column, or a column and the names of nested fields in it. */
    public List<String> deltaField() {
      return deltaField;
    }

    @Override
    public String toString() {
      return snapshotView + "." + snapshotColumn + " = " + deltaView + "." + String.join(".", deltaField);
    }
  }

  /**
   * @param snapshotViews the views that may be restricted, each referenced at most once in {@code sql} (the transformer
   *                      binds every placeholder occurrence to a view of its own)
   * @param deltaViews    the views whose keys may restrict them
   * @return the key joins of {@code sql} between those views, at most one per snapshot view; none if Spark cannot
   *     parse it (running it then reports why)
   */
  public static List<KeyJoin> in(SparkSession spark, String sql, Set<String> snapshotViews, Set<String> deltaViews) {
    LogicalPlan plan;
    try {
      plan = spark.sessionState().sqlParser().parsePlan(sql);
    } catch (ParseException e) {
      return Collections.emptyList();
    }
    List<KeyJoin> found = new ArrayList<>();
    collect(plan, byLowerCase(snapshotViews), byLowerCase(deltaViews), found);
    return found;
  }

  private static void collect(LogicalPlan plan, Map<String, String> snapshotViews, Map<String, String> deltaViews,
                              List<KeyJoin> found) {
    if (plan instanceof Join) {
      Join join = (Join) plan;
      JoinType type = join.joinType();
      boolean rightMayShrink = type == Inner$.MODULE$ || type == LeftOuter$.MODULE$ || type == LeftSemi$.MODULE$
          || type == LeftAnti$.MODULE$;
      boolean leftMayShrink = type == Inner$.MODULE$ || type == RightOuter$.MODULE$;
      if (join.condition().isDefined()) {
        if (rightMayShrink) {
          keyJoin(join.right(), join.left(), join.condition().get(), snapshotViews, deltaViews).ifPresent(found::add);
        }
        if (leftMayShrink) {
          keyJoin(join.left(), join.right(), join.condition().get(), snapshotViews, deltaViews).ifPresent(found::add);
        }
      }
    }
    for (LogicalPlan child : JavaConverters.seqAsJavaList(plan.children())) {
      collect(child, snapshotViews, deltaViews, found);
    }
  }

  private static Option<KeyJoin> keyJoin(LogicalPlan snapshotSide, LogicalPlan deltaSide, Expression condition,
                                         Map<String, String> snapshotViews, Map<String, String> deltaViews) {
    Option<Input> snapshot = input(snapshotSide, snapshotViews);
    Option<Input> delta = input(deltaSide, deltaViews);
    if (!snapshot.isPresent() || !delta.isPresent()) {
      return Option.empty();
    }
    for (Expression conjunct : conjuncts(condition)) {
      if (conjunct instanceof EqualTo) {
        EqualTo equal = (EqualTo) conjunct;
        Option<List<String>> snapshotColumn = field(equal.left(), snapshot.get(), 1);
        Option<List<String>> deltaField = field(equal.right(), delta.get(), 2);
        if (!snapshotColumn.isPresent() || !deltaField.isPresent()) {
          snapshotColumn = field(equal.right(), snapshot.get(), 1);
          deltaField = field(equal.left(), delta.get(), 2);
        }
        if (snapshotColumn.isPresent() && deltaField.isPresent()) {
          return Option.of(new KeyJoin(snapshot.get().view, snapshotColumn.get().get(0), delta.get().view,
              deltaField.get()));
        }
      }
    }
    return Option.empty();
  }

  /** The conjuncts of a condition: the operands of its top-level ANDs, in order. */
  public static List<Expression> conjuncts(Expression condition) {
    return operands(condition, And.class);
  }

  /** The disjuncts of a condition: the operands of its top-level ORs, in order. */
  public static List<Expression> disjuncts(Expression condition) {
    return operands(condition, Or.class);
  }

  private static List<Expression> operands(Expression condition, Class<? extends BinaryOperator> operator) {
    if (operator.isInstance(condition)) {
      List<Expression> all = new ArrayList<>(operands(((BinaryOperator) condition).left(), operator));
      all.addAll(operands(((BinaryOperator) condition).right(), operator));
      return all;
    }
    return Collections.singletonList(condition);
  }

  /**
   * The column of {@code input}, with at most {@code maxDepth - 1} nested field names after it, that {@code expression}
   * names with the input's qualifier; empty for anything else. Spark resolves {@code u.after.user_id} as field
   * {@code user_id} of column {@code after} of {@code u} when {@code u} is the qualifier of an input.
   */
  private static Option<List<String>> field(Expression expression, Input input, int maxDepth) {
    if (!(expression instanceof UnresolvedAttribute)) {
      return Option.empty();
    }
    List<String> parts = JavaConverters.seqAsJavaList(((UnresolvedAttribute) expression).nameParts());
    return parts.size() >= 2 && parts.size() <= maxDepth + 1
        && parts.get(0).toLowerCase(Locale.ROOT).equals(input.qualifier)
        ? Option.of(parts.subList(1, parts.size())) : Option.empty();
  }

  /** A join input that is one of {@code views}, directly or under an alias. */
  private static Option<Input> input(LogicalPlan plan, Map<String, String> views) {
    String alias = null;
    LogicalPlan relation = plan;
    if (plan instanceof SubqueryAlias) {
      alias = ((SubqueryAlias) plan).alias();
      relation = ((SubqueryAlias) plan).child();
    }
    if (!(relation instanceof UnresolvedRelation)) {
      return Option.empty();
    }
    List<String> name = JavaConverters.seqAsJavaList(((UnresolvedRelation) relation).multipartIdentifier());
    if (name.size() != 1 || !views.containsKey(name.get(0).toLowerCase(Locale.ROOT))) {
      return Option.empty();
    }
    String qualifier = (alias == null ? name.get(0) : alias).toLowerCase(Locale.ROOT);
    return Option.of(new Input(views.get(name.get(0).toLowerCase(Locale.ROOT)), qualifier));
  }

  /** Spark resolves view names and qualifiers without regard to case (spark.sql.caseSensitive=false). */
  private static Map<String, String> byLowerCase(Set<String> views) {
    Map<String, String> byLowerCase = new HashMap<>();
    views.forEach(view -> byLowerCase.put(view.toLowerCase(Locale.ROOT), view));
    return byLowerCase;
  }

  private static final class Input {
    private final String view;
    private final String qualifier;

    private Input(String view, String qualifier) {
      this.view = view;
      this.qualifier = qualifier;
    }
  }
}
