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

import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.LeftOuter$;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static scala.collection.JavaConverters.asScalaBuffer;
import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * A view's join-and-filter part (everything below its GROUP BY or DISTINCT, or all of it) rewritten to carry, on every
 * row, where the row came from: the record key of each table row it was made of ({@code __view_key_i} of table i,
 * null where a left outer join found no match or a UNION branch does not read the table) and, per UNION ALL, the
 * branch ({@code __view_branch_n}). Each table's key column is added right above its scan, so that the query's own
 * columns (also a {@code *}) are the table's.
 *
 * <p>A row's identity is the part of its lineage that tells it apart from every other row of the same result: the keys
 * of the tables not on the right side of a left outer join (that side is determined by the left one: N:1) and the
 * branches. A row of the result differs between two states of the tables only if it was made of a table row that
 * changed; for a row with a right side that appears or disappears, the row of the other state with the same identity
 * was.
 */
final class LineagePlan {

  static final String PREFIX = "__view_";
  private static final String KEY_PREFIX = PREFIX + "key_";
  private static final String BRANCH_PREFIX = PREFIX + "branch_";

  private final LogicalPlan plan;
  private final List<String> identity;
  private final boolean leftOuterJoins;

  private LineagePlan(LogicalPlan plan, List<String> identity, boolean leftOuterJoins) {
    this.plan = plan;
    this.identity = identity;
    this.leftOuterJoins = leftOuterJoins;
  }

  /** The column holding the record key of table {@code index} (of the job's tables). */
  static String keyColumn(int index) {
    return KEY_PREFIX + index;
  }

  static boolean isLineage(String column) {
    return column.startsWith(PREFIX);
  }

  /**
   * @param core      an analyzed plan of joins, filters, projections and unions over the tables
   * @param keyOfView the record key columns of the table each temp view holds, and the table's index, by view name
   */
  static LineagePlan of(LogicalPlan core, Map<String, TableKey> keyOfView) {
    Map<String, TableKey> keys = new LinkedHashMap<>();
    keyOfView.forEach((view, key) -> keys.put(view.toLowerCase(Locale.ROOT), key));
    Rewrite rewrite = new Rewrite(keys);
    Rewritten rewritten = rewrite.rewrite(core);
    return new LineagePlan(rewritten.plan, Collections.unmodifiableList(new ArrayList<>(rewritten.identity)),
        rewrite.leftOuterJoins);
  }

  /** The plan, its output the core's columns followed by its lineage columns. */
  LogicalPlan plan() {
    return plan;
  }

  /** The lineage columns that identify a row among the rows of one result. */
  List<String> identity() {
    return identity;
  }

  /** Whether a left outer join makes rows whose right side depends on the absence of matches. */
  boolean hasLeftOuterJoins() {
    return leftOuterJoins;
  }

  private static List<Attribute> lineageOf(LogicalPlan plan) {
    return seqAsJavaList(plan.output()).stream().filter(attribute -> isLineage(attribute.name()))
        .collect(Collectors.toList());
  }

  private static final class Rewritten {
    private final LogicalPlan plan;
    private final Set<String> identity;

    Rewritten(LogicalPlan plan, Set<String> identity) {
      this.plan = plan;
      this.identity = identity;
    }
  }

  /** A table's record key columns and its index among the job's tables. */
  static final class TableKey {
    private final int index;
    private final List<String> columns;

    TableKey(int index, List<String> columns) {
      this.index = index;
      this.columns = columns;
    }

    int index() {
      return index;
    }

    List<String> columns() {
      return columns;
    }

    /** The key of a row of the table: its key column, or a struct of its key columns. */
    Column of(Function<String, Column> column) {
      if (columns.size() == 1) {
        return column.apply(columns.get(0));
      }
      return functions.struct(columns.stream().map(column).toArray(Column[]::new));
    }
  }

  private static final class Rewrite {
    private final Map<String, TableKey> keyOfView;
    private boolean leftOuterJoins;
    private int unions;

    Rewrite(Map<String, TableKey> keyOfView) {
      this.keyOfView = keyOfView;
    }

    Rewritten rewrite(LogicalPlan plan) {
      if (plan instanceof SubqueryAlias
          && keyOfView.containsKey(((SubqueryAlias) plan).identifier().name().toLowerCase(Locale.ROOT))) {
        TableKey key = keyOfView.get(((SubqueryAlias) plan).identifier().name().toLowerCase(Locale.ROOT));
        Map<String, Attribute> columns = new LinkedHashMap<>();
        seqAsJavaList(plan.output()).forEach(attribute -> columns.put(attribute.name().toLowerCase(Locale.ROOT), attribute));
        List<NamedExpression> projected = new ArrayList<>(seqAsJavaList(plan.output()));
        String name = keyColumn(key.index());
        projected.add((NamedExpression) key.of(column -> new Column(columns.get(column.toLowerCase(Locale.ROOT)))).as(name).expr());
        return new Rewritten(new Project(asScalaBuffer(projected).toSeq(), plan),
            new LinkedHashSet<>(Collections.singletonList(name)));
      }
      if (plan instanceof Project) {
        Project project = (Project) plan;
        Rewritten child = rewrite(project.child());
        List<NamedExpression> projected = new ArrayList<>(seqAsJavaList(project.projectList()));
        Set<ExprId> present = projected.stream().map(NamedExpression::exprId).collect(Collectors.toSet());
        lineageOf(child.plan).stream().filter(attribute -> !present.contains(attribute.exprId())).forEach(projected::add);
        return new Rewritten(new Project(asScalaBuffer(projected).toSeq(), child.plan), child.identity);
      }
      if (plan instanceof Union) {
        return union((Union) plan);
      }
      List<Rewritten> children = new ArrayList<>();
      seqAsJavaList(plan.children()).forEach(child -> children.add(rewrite(child)));
      Set<String> identity = new LinkedHashSet<>();
      if (plan instanceof Join && ((Join) plan).joinType() == LeftOuter$.MODULE$) {
        leftOuterJoins = true;
        identity.addAll(children.get(0).identity);
      } else {
        children.forEach(child -> identity.addAll(child.identity));
      }
      return new Rewritten(withChildren(plan, children), identity);
    }

    /** Each branch outputs every branch's lineage columns (null where it lacks one) and its own branch number. */
    private Rewritten union(Union union) {
      List<Rewritten> children = new ArrayList<>();
      seqAsJavaList(union.children()).forEach(child -> children.add(rewrite(child)));
      Map<String, DataType> lineage = new LinkedHashMap<>();
      Set<String> identity = new LinkedHashSet<>();
      children.forEach(child -> {
        lineageOf(child.plan).forEach(attribute -> lineage.putIfAbsent(attribute.name(), attribute.dataType()));
        identity.addAll(child.identity);
      });
      String branch = BRANCH_PREFIX + unions++;
      identity.add(branch);
      List<Rewritten> branches = new ArrayList<>();
      for (int i = 0; i < children.size(); i++) {
        LogicalPlan child = children.get(i).plan;
        Map<String, Attribute> own = new LinkedHashMap<>();
        lineageOf(child).forEach(attribute -> own.put(attribute.name(), attribute));
        List<NamedExpression> projected = new ArrayList<>();
        seqAsJavaList(child.output()).stream().filter(attribute -> !isLineage(attribute.name())).forEach(projected::add);
        lineage.forEach((name, type) -> projected.add(own.containsKey(name) ? own.get(name)
            : (NamedExpression) new Column(Literal.create(null, type)).as(name).expr()));
        projected.add((NamedExpression) functions.lit(i).as(branch).expr());
        branches.add(new Rewritten(new Project(asScalaBuffer(projected).toSeq(), child), identity));
      }
      return new Rewritten(withChildren(union, branches), identity);
    }

    private static LogicalPlan withChildren(LogicalPlan plan, List<Rewritten> children) {
      List<LogicalPlan> plans = children.stream().map(child -> child.plan).collect(Collectors.toList());
      return plan.withNewChildren(asScalaBuffer(plans).toSeq());
    }
  }
}
