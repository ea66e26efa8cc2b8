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
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.functions;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
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
 *
 * <p>Each operator's lineage rule is in its {@link ViewOperator}; a plan holding an operator none knows is not rewritten
 * (it fails): {@link ViewShape} refuses such a view before any batch.
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
    Rewrite rewrite = new Rewrite(ViewOperator.byLowerCaseView(keyOfView));
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

  /** The lineage columns of a plan's output. */
  static List<Attribute> lineageOf(LogicalPlan plan) {
    return seqAsJavaList(plan.output()).stream().filter(attribute -> isLineage(attribute.name()))
        .collect(Collectors.toList());
  }

  /** A node rewritten to carry lineage, and the lineage columns that identify one of its rows. */
  static final class Rewritten {
    private final LogicalPlan plan;
    private final Set<String> identity;

    Rewritten(LogicalPlan plan, Set<String> identity) {
      this.plan = plan;
      this.identity = identity;
    }

    LogicalPlan plan() {
      return plan;
    }

    Set<String> identity() {
      return identity;
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

  /** One rewrite of a plan: each node's lineage rule is its {@link ViewOperator}'s; this keeps what it has met. */
  static final class Rewrite {
    private final Map<String, TableKey> keyOfView;
    private boolean leftOuterJoins;
    private int unions;

    Rewrite(Map<String, TableKey> keyOfView) {
      this.keyOfView = keyOfView;
    }

    /** A node rewritten to carry lineage; an operator no rule knows fails, as its rows' lineage is unknown. */
    Rewritten rewrite(LogicalPlan plan) {
      return ViewOperator.of(plan, keyOfView.keySet()).lineage(this);
    }

    /** The record key of the table a temp view holds. */
    TableKey keyOf(String view) {
      return keyOfView.get(view);
    }

    /** Records a left outer join, whose rows' right side depends on the absence of matches. */
    void leftOuterJoin() {
      leftOuterJoins = true;
    }

    /** The column telling apart the branches of the next UNION ALL. */
    String nextBranchColumn() {
      return BRANCH_PREFIX + unions++;
    }

    /** A node's inputs, rewritten. */
    List<Rewritten> inputs(LogicalPlan plan) {
      List<Rewritten> children = new ArrayList<>();
      seqAsJavaList(plan.children()).forEach(child -> children.add(rewrite(child)));
      return children;
    }

    /** A node over its inputs rewritten, identified by all its inputs' lineage: a filter, an alias, an inner join. */
    Rewritten overInputs(LogicalPlan plan) {
      List<Rewritten> children = inputs(plan);
      Set<String> identity = new LinkedHashSet<>();
      children.forEach(child -> identity.addAll(child.identity));
      return new Rewritten(withChildren(plan, children), identity);
    }
  }

  static LogicalPlan withChildren(LogicalPlan plan, List<Rewritten> children) {
    List<LogicalPlan> plans = children.stream().map(child -> child.plan).collect(Collectors.toList());
    return plan.withNewChildren(asScalaBuffer(plans).toSeq());
  }
}
