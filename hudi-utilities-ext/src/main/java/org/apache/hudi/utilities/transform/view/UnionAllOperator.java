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

import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static scala.collection.JavaConverters.asScalaBuffer;
import static scala.collection.JavaConverters.seqAsJavaList;

/** A UNION ALL: every row of each branch (a UNION without ALL is a DISTINCT over it). */
final class UnionAllOperator extends ViewOperator {

  private final Union union;

  UnionAllOperator(Union union) {
    this.union = union;
  }

  /**
   * Unique by columns that are unique in every branch together with a column that holds a different constant in each
   * branch; a GROUP BY or DISTINCT in a branch is refused.
   */
  @Override
  ViewShape.Node keys(ViewShape.Analysis analysis) {
    List<LogicalPlan> branches = seqAsJavaList(union.children());
    List<ViewShape.Node> nodes = new ArrayList<>();
    for (LogicalPlan branch : branches) {
      nodes.add(analysis.notAggregated(analysis.node(branch), "UNION ALL"));
    }
    List<Attribute> output = seqAsJavaList(union.output());
    // Columns holding a different constant in each branch tell the branches' rows apart.
    List<Integer> discriminators = new ArrayList<>();
    for (int position = 0; position < output.size(); position++) {
      Set<Object> constants = new HashSet<>();
      for (LogicalPlan branch : branches) {
        constant(branch, position).ifPresent(constants::add);
      }
      if (constants.size() == branches.size()) {
        discriminators.add(position);
      }
    }
    Set<Set<ExprId>> keys = new LinkedHashSet<>();
    for (Set<ExprId> firstKey : nodes.get(0).keys()) {
      Set<Integer> positions = positions(firstKey, branches.get(0));
      for (int discriminator : discriminators) {
        Set<Integer> candidate = new HashSet<>(positions);
        candidate.add(discriminator);
        boolean everyBranch = true;
        for (int i = 0; i < branches.size() && everyBranch; i++) {
          LogicalPlan branch = branches.get(i);
          everyBranch = nodes.get(i).keys().stream().anyMatch(key -> candidate.containsAll(positions(key, branch)));
        }
        if (everyBranch) {
          keys.add(candidate.stream().map(position -> output.get(position).exprId()).collect(Collectors.toSet()));
        }
      }
    }
    return new ViewShape.Node(keys);
  }

  /**
   * Each branch outputs every branch's lineage columns (null where it lacks one) and its own branch number
   * ({@code __view_branch_n}): two branches can make equal rows of the same table rows.
   */
  @Override
  LineagePlan.Rewritten lineage(LineagePlan.Rewrite rewrite) {
    List<LineagePlan.Rewritten> children = rewrite.inputs(union);
    Map<String, DataType> lineage = new LinkedHashMap<>();
    Set<String> identity = new LinkedHashSet<>();
    children.forEach(child -> {
      LineagePlan.lineageOf(child.plan()).forEach(attribute -> lineage.putIfAbsent(attribute.name(), attribute.dataType()));
      identity.addAll(child.identity());
    });
    String branch = rewrite.nextBranchColumn();
    identity.add(branch);
    List<LineagePlan.Rewritten> branches = new ArrayList<>();
    for (int i = 0; i < children.size(); i++) {
      LogicalPlan child = children.get(i).plan();
      Map<String, Attribute> own = new LinkedHashMap<>();
      LineagePlan.lineageOf(child).forEach(attribute -> own.put(attribute.name(), attribute));
      List<NamedExpression> projected = new ArrayList<>();
      seqAsJavaList(child.output()).stream().filter(attribute -> !LineagePlan.isLineage(attribute.name()))
          .forEach(projected::add);
      lineage.forEach((name, type) -> projected.add(own.containsKey(name) ? own.get(name)
          : (NamedExpression) new Column(Literal.create(null, type)).as(name).expr()));
      projected.add((NamedExpression) functions.lit(i).as(branch).expr());
      branches.add(new LineagePlan.Rewritten(new Project(asScalaBuffer(projected).toSeq(), child), identity));
    }
    return new LineagePlan.Rewritten(LineagePlan.withChildren(union, branches), identity);
  }

  /** A union's output is not any one table's column; equalities inside its branches still count. */
  @Override
  Map<ExprId, JoinEdges.TableColumn> tableColumns(JoinEdges.Walk walk) {
    seqAsJavaList(union.children()).forEach(walk::columns);
    return Collections.emptyMap();
  }

  /** A GROUP BY or DISTINCT in a branch is not a view's last step (the key rule refuses it). */
  @Override
  Option<GroupingOperator> grouping(ViewGrouping.Search search) {
    return Option.empty();
  }

  /** The constant a branch of a UNION outputs at a position, if it projects one there. */
  private static Option<Object> constant(LogicalPlan branch, int position) {
    LogicalPlan plan = branch;
    while (plan instanceof SubqueryAlias) {
      plan = ((SubqueryAlias) plan).child();
    }
    if (!(plan instanceof Project)) {
      return Option.empty();
    }
    NamedExpression expression = seqAsJavaList(((Project) plan).projectList()).get(position);
    Expression value = expression instanceof Alias ? ((Alias) expression).child() : (Expression) expression;
    return value instanceof Literal && ((Literal) value).value() != null
        ? Option.of(((Literal) value).value()) : Option.empty();
  }

  /** The positions in a plan's output of a key's columns. */
  private static Set<Integer> positions(Set<ExprId> key, LogicalPlan plan) {
    List<Attribute> output = seqAsJavaList(plan.output());
    Set<Integer> positions = new HashSet<>();
    for (int i = 0; i < output.size(); i++) {
      if (key.contains(output.get(i).exprId())) {
        positions.add(i);
      }
    }
    return positions;
  }
}
