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
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static scala.collection.JavaConverters.asScalaBuffer;
import static scala.collection.JavaConverters.seqAsJavaList;

/** A SELECT list: columns of its input passed on (also renamed or cast) and columns computed from them. */
final class ProjectOperator extends ViewOperator {

  private static final List<DataType> INTEGRAL_TYPES = Arrays.asList(DataTypes.ByteType, DataTypes.ShortType,
      DataTypes.IntegerType, DataTypes.LongType);

  private final Project project;

  ProjectOperator(Project project) {
    this.project = project;
  }

  /**
   * The input's keys whose columns it passes on, also renamed or cast to a type that keeps distinct values distinct;
   * an expression a batch could not reproduce is refused.
   */
  @Override
  ViewShape.Node keys(ViewShape.Analysis analysis) {
    ViewShape.Node child = analysis.node(project.child());
    Map<ExprId, ExprId> passed = new HashMap<>();
    for (NamedExpression expression : seqAsJavaList(project.projectList())) {
      ViewShape.checkDeterministic((Expression) expression, "SELECT expression");
      if (expression instanceof AttributeReference) {
        passed.put(expression.exprId(), expression.exprId());
      } else if (expression instanceof Alias) {
        withoutInjectiveCasts(((Alias) expression).child()).ifPresent(column ->
            passed.put(column.exprId(), expression.exprId()));
      }
    }
    Set<Set<ExprId>> keys = new LinkedHashSet<>();
    for (Set<ExprId> key : child.keys()) {
      if (passed.keySet().containsAll(key)) {
        keys.add(key.stream().map(passed::get).collect(Collectors.toSet()));
      }
    }
    return new ViewShape.Node(keys, child.aggregated());
  }

  /** The input's lineage columns passed on beside the SELECT list, whatever it chooses. */
  @Override
  LineagePlan.Rewritten lineage(LineagePlan.Rewrite rewrite) {
    LineagePlan.Rewritten child = rewrite.rewrite(project.child());
    List<NamedExpression> projected = new ArrayList<>(seqAsJavaList(project.projectList()));
    Set<ExprId> present = projected.stream().map(NamedExpression::exprId).collect(Collectors.toSet());
    LineagePlan.lineageOf(child.plan()).stream().filter(attribute -> !present.contains(attribute.exprId()))
        .forEach(projected::add);
    return new LineagePlan.Rewritten(new Project(asScalaBuffer(projected).toSeq(), child.plan()), child.identity());
  }

  /** The input's table columns it passes on as they are, also renamed. */
  @Override
  Map<ExprId, JoinEdges.TableColumn> tableColumns(JoinEdges.Walk walk) {
    Map<ExprId, JoinEdges.TableColumn> child = walk.columns(project.child());
    Map<ExprId, JoinEdges.TableColumn> columns = new HashMap<>();
    for (NamedExpression expression : seqAsJavaList(project.projectList())) {
      Expression value = expression instanceof Alias ? ((Alias) expression).child() : (Expression) expression;
      if (value instanceof AttributeReference && child.containsKey(((AttributeReference) value).exprId())) {
        columns.put(expression.exprId(), child.get(((AttributeReference) value).exprId()));
      }
    }
    return columns;
  }

  /** Above the view's grouping, a choice and renaming of its columns. */
  @Override
  Option<GroupingOperator> grouping(ViewGrouping.Search search) {
    search.projection(project);
    return search.below(project.child());
  }

  /**
   * The column an expression holds, also through casts that map distinct values to distinct values (so that a key
   * column cast keeps the key): a number or decimal to a wider one or to a string, a string, boolean or date to a
   * string. Not a timestamp to a string (two instants of a daylight-saving change print alike), not to a floating
   * point type.
   */
  private static Option<AttributeReference> withoutInjectiveCasts(Expression expression) {
    Expression value = expression;
    while (value instanceof Cast && isInjective(((Cast) value).child().dataType(), value.dataType())) {
      value = ((Cast) value).child();
    }
    return value instanceof AttributeReference ? Option.of((AttributeReference) value) : Option.empty();
  }

  private static boolean isInjective(DataType from, DataType to) {
    boolean exactNumber = INTEGRAL_TYPES.contains(from) || from instanceof DecimalType;
    if (to.equals(DataTypes.StringType)) {
      return exactNumber || from.equals(DataTypes.StringType) || from.equals(DataTypes.BooleanType)
          || from.equals(DataTypes.DateType);
    }
    return exactNumber && (INTEGRAL_TYPES.contains(to) || to instanceof DecimalType) && Cast.canUpCast(from, to);
  }
}
