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

import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.CurrentBatchTimestamp;
import org.apache.spark.sql.catalyst.expressions.CurrentDate;
import org.apache.spark.sql.catalyst.expressions.CurrentTimestampLike;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression$;
import org.apache.spark.sql.catalyst.plans.Inner$;
import org.apache.spark.sql.catalyst.plans.JoinType;
import org.apache.spark.sql.catalyst.plans.LeftOuter$;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Distinct;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * What a view over whole tables guarantees, read from Spark's analyzed plan of its query: the sets of output columns
 * that are unique in every result (its keys), and the tables it reads; or why it cannot be maintained incrementally,
 * naming the operator.
 *
 * <p>Keys follow the plan from the tables up: a table is unique by its record key; a filter keeps its input's keys; a
 * projection keeps the keys whose columns it passes on (also renamed, or cast to a type that keeps distinct values
 * distinct); an inner or left outer equi-join keeps the left side's keys where the right side is joined on one of its
 * keys (N:1), the right side's where the left side is (inner joins), and in any case a key of each side together; UNION ALL is unique by columns that are unique in every branch
 * together with a column that holds a different constant in each branch; GROUP BY is unique by its grouping columns and
 * DISTINCT by all columns. Anything else is refused: other operators (window functions, ORDER BY, LIMIT, ...), joins
 * other than inner and N:1 left outer (the right side joined on one of its keys), join conditions that compare the two
 * sides other than by equality, subqueries in expressions, non-deterministic expressions and those that read the
 * time a batch runs at (current_timestamp(), current_date(), now(), ...), and a GROUP BY or DISTINCT
 * below a join, a UNION or another GROUP BY (the groups of a view are recomputed from whole tables).
 */
public final class ViewShape {

  private static final List<DataType> INTEGRAL_TYPES = Arrays.asList(DataTypes.ByteType, DataTypes.ShortType,
      DataTypes.IntegerType, DataTypes.LongType);

  private final Set<String> tables;
  private final List<List<String>> keys;
  private final Option<String> refusal;

  private ViewShape(Set<String> tables, List<List<String>> keys, Option<String> refusal) {
    this.tables = tables;
    this.keys = keys;
    this.refusal = refusal;
  }

  /**
   * @param analyzed         the analyzed plan of the view's query, its tables bound to temp views
   * @param tableOfView      the table each temp view holds, by view name
   * @param recordKeyOfTable each table's record key columns
   */
  public static ViewShape of(LogicalPlan analyzed, Map<String, String> tableOfView,
                             Map<String, List<String>> recordKeyOfTable) {
    Analysis analysis = new Analysis(tableOfView, recordKeyOfTable);
    try {
      Node root = analysis.node(analyzed);
      Map<ExprId, String> names = new HashMap<>();
      for (Attribute attribute : seqAsJavaList(analyzed.output())) {
        names.put(attribute.exprId(), attribute.name());
      }
      List<List<String>> keys = root.keys.stream()
          .map(key -> key.stream().map(names::get).sorted().collect(Collectors.toList()))
          .sorted((a, b) -> a.size() != b.size() ? Integer.compare(a.size(), b.size()) : a.toString().compareTo(b.toString()))
          .collect(Collectors.toList());
      return new ViewShape(Collections.unmodifiableSet(analysis.tables), keys, Option.empty());
    } catch (Refused refused) {
      return new ViewShape(Collections.unmodifiableSet(analysis.tables), Collections.emptyList(),
          Option.of(refused.getMessage()));
    }
  }

  /** Why the view cannot be maintained incrementally; empty if it can. */
  public Option<String> refusal() {
    return refusal;
  }

  /** The tables the view reads, in the order the plan meets them. */
  public Set<String> tables() {
    return tables;
  }

  /** Each set of output columns that is unique in every result (sorted), smallest first; none if refused. */
  public List<List<String>> keys() {
    return keys;
  }

  /** Whether the rows of every result are unique by these output columns (a key of the view is among them). */
  public boolean isUniqueBy(List<String> columns) {
    return keys.stream().anyMatch(columns::containsAll);
  }

  @Override
  public String toString() {
    return refusal.isPresent() ? "refused: " + refusal.get() : "tables " + tables + ", keys " + keys;
  }

  /** The keys and tables of one plan node, keys as sets of the node's output attributes. */
  private static final class Node {
    private final Set<Set<ExprId>> keys;
    /** Whether a GROUP BY or DISTINCT is at or below this node. */
    private final boolean aggregated;

    Node(Set<Set<ExprId>> keys) {
      this(keys, false);
    }

    Node(Set<Set<ExprId>> keys, boolean aggregated) {
      this.keys = minimal(keys);
      this.aggregated = aggregated;
    }

    /** Without the keys that hold a smaller key: they say nothing more. */
    private static Set<Set<ExprId>> minimal(Set<Set<ExprId>> keys) {
      return keys.stream()
          .filter(key -> keys.stream().noneMatch(other -> other != key && key.containsAll(other) && !other.equals(key)))
          .collect(Collectors.toCollection(LinkedHashSet::new));
    }
  }

  /** A plan the view cannot be maintained by; the message names the operator and why. */
  private static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message, null, false, false);
    }
  }

  /** One walk over a plan. */
  private static final class Analysis {
    private final Map<String, String> tableOfView;
    private final Map<String, List<String>> recordKeyOfTable;
    private final Set<String> tables = new LinkedHashSet<>();
    /** The tables of the join being walked. */
    private Set<String> joinedTables = new HashSet<>();

    Analysis(Map<String, String> tableOfView, Map<String, List<String>> recordKeyOfTable) {
      this.tableOfView = new HashMap<>();
      tableOfView.forEach((view, table) -> this.tableOfView.put(view.toLowerCase(Locale.ROOT), table));
      this.recordKeyOfTable = recordKeyOfTable;
    }

    Node node(LogicalPlan plan) {
      if (plan instanceof SubqueryAlias) {
        String name = ((SubqueryAlias) plan).identifier().name().toLowerCase(Locale.ROOT);
        return tableOfView.containsKey(name) ? table(tableOfView.get(name), plan) : node(((SubqueryAlias) plan).child());
      }
      if (plan instanceof View) {
        return node(((View) plan).child());
      }
      if (plan instanceof Filter) {
        checkDeterministic(((Filter) plan).condition(), "WHERE or HAVING condition");
        return node(((Filter) plan).child());
      }
      if (plan instanceof Project) {
        return project((Project) plan);
      }
      if (plan instanceof Join) {
        return join((Join) plan);
      }
      if (plan instanceof Aggregate) {
        return aggregate((Aggregate) plan);
      }
      if (plan instanceof Distinct) {
        notAggregated(node(((Distinct) plan).child()), "DISTINCT");
        return new Node(Collections.singleton(exprIds(seqAsJavaList(plan.output()))), true);
      }
      if (plan instanceof Union) {
        return union((Union) plan);
      }
      throw new Refused(String.format("%s is not an operator a view can be maintained by incrementally (supported: "
          + "projections, WHERE, inner and N:1 left outer equi-joins, UNION ALL, GROUP BY with HAVING, DISTINCT): %s",
          plan.nodeName(), oneLine(plan)));
    }

    private Node union(Union union) {
      List<LogicalPlan> branches = seqAsJavaList(union.children());
      List<Node> nodes = new ArrayList<>();
      for (LogicalPlan branch : branches) {
        nodes.add(notAggregated(node(branch), "UNION ALL"));
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
      for (Set<ExprId> firstKey : nodes.get(0).keys) {
        Set<Integer> positions = positions(firstKey, branches.get(0));
        for (int discriminator : discriminators) {
          Set<Integer> candidate = new HashSet<>(positions);
          candidate.add(discriminator);
          boolean everyBranch = true;
          for (int i = 0; i < branches.size() && everyBranch; i++) {
            LogicalPlan branch = branches.get(i);
            everyBranch = nodes.get(i).keys.stream().anyMatch(key -> candidate.containsAll(positions(key, branch)));
          }
          if (everyBranch) {
            keys.add(candidate.stream().map(position -> output.get(position).exprId()).collect(Collectors.toSet()));
          }
        }
      }
      return new Node(keys);
    }

    private Node notAggregated(Node node, String operator) {
      if (node.aggregated) {
        throw new Refused(String.format("a GROUP BY or DISTINCT below %s: a view's groups are recomputed from whole "
            + "tables, so GROUP BY and DISTINCT may only be its last step (with HAVING and a projection above them)",
            operator));
      }
      return node;
    }

    private Node table(String table, LogicalPlan plan) {
      tables.add(table);
      joinedTables.add(table);
      List<String> recordKey = recordKeyOfTable.get(table);
      if (recordKey == null || recordKey.isEmpty()) {
        throw new Refused(String.format("table '%s' has no record key, by which its changes are matched", table));
      }
      Set<ExprId> key = new HashSet<>();
      for (String column : recordKey) {
        Attribute attribute = seqAsJavaList(plan.output()).stream().filter(a -> a.name().equals(column)).findFirst()
            .orElseThrow(() -> new Refused(String.format("table '%s' has no column '%s' of its record key", table,
                column)));
        key.add(attribute.exprId());
      }
      return new Node(Collections.singleton(key));
    }

    private Node project(Project project) {
      Node child = node(project.child());
      Map<ExprId, ExprId> passed = new HashMap<>();
      for (NamedExpression expression : seqAsJavaList(project.projectList())) {
        checkDeterministic((Expression) expression, "SELECT expression");
        if (expression instanceof AttributeReference) {
          passed.put(expression.exprId(), expression.exprId());
        } else if (expression instanceof Alias) {
          withoutInjectiveCasts(((Alias) expression).child()).ifPresent(column ->
              passed.put(column.exprId(), expression.exprId()));
        }
      }
      Set<Set<ExprId>> keys = new LinkedHashSet<>();
      for (Set<ExprId> key : child.keys) {
        if (passed.keySet().containsAll(key)) {
          keys.add(key.stream().map(passed::get).collect(Collectors.toSet()));
        }
      }
      return new Node(keys, child.aggregated);
    }

    private Node join(Join join) {
      JoinType type = join.joinType();
      boolean inner = type == Inner$.MODULE$;
      if (!inner && type != LeftOuter$.MODULE$) {
        throw new Refused(String.format("a %s join is not an operator a view can be maintained by incrementally "
            + "(supported: inner and left outer equi-joins): %s", type.sql(), oneLine(join)));
      }
      Set<String> outer = joinedTables;
      joinedTables = new HashSet<>();
      Node left = notAggregated(node(join.left()), "a join");
      Set<String> leftTables = joinedTables;
      joinedTables = new HashSet<>();
      Node right = notAggregated(node(join.right()), "a join");
      Set<String> twice = new HashSet<>(leftTables);
      twice.retainAll(joinedTables);
      if (!twice.isEmpty()) {
        throw new Refused(String.format("the join %s reads table(s) %s on both sides (a self-join, whose rows two "
            + "changes of one table can make; supported: each table once per join, or in separate UNION ALL branches)",
            oneLine(join), twice));
      }
      joinedTables.addAll(leftTables);
      joinedTables.addAll(outer);
      Set<ExprId> leftSide = exprIds(seqAsJavaList(join.left().output()));
      Set<ExprId> rightSide = exprIds(seqAsJavaList(join.right().output()));
      Set<ExprId> leftJoined = new HashSet<>();
      Set<ExprId> rightJoined = new HashSet<>();
      if (join.condition().isDefined()) {
        for (Expression conjunct : DeltaKeyJoins.conjuncts(join.condition().get())) {
          checkDeterministic(conjunct, "join condition");
          Set<ExprId> referenced = exprIds(seqAsJavaList(conjunct.references().toSeq()));
          boolean bothSides = referenced.stream().anyMatch(leftSide::contains)
              && referenced.stream().anyMatch(rightSide::contains);
          if (!bothSides) {
            continue;
          }
          if (!(conjunct instanceof EqualTo) || !(((EqualTo) conjunct).left() instanceof AttributeReference)
              || !(((EqualTo) conjunct).right() instanceof AttributeReference)) {
            throw new Refused(String.format("the join condition %s compares the two sides other than by equality of "
                + "columns (supported: equi-joins)", conjunct.sql()));
          }
          ExprId a = ((AttributeReference) ((EqualTo) conjunct).left()).exprId();
          ExprId b = ((AttributeReference) ((EqualTo) conjunct).right()).exprId();
          leftJoined.add(leftSide.contains(a) ? a : b);
          rightJoined.add(rightSide.contains(b) ? b : a);
        }
      }
      if (leftJoined.isEmpty()) {
        throw new Refused(String.format("the join %s has no equality between its two sides (a cross join; supported: "
            + "equi-joins)", oneLine(join)));
      }
      boolean rightOnKey = right.keys.stream().anyMatch(rightJoined::containsAll);
      boolean leftOnKey = left.keys.stream().anyMatch(leftJoined::containsAll);
      if (!inner && !rightOnKey) {
        throw new Refused(String.format("the LEFT OUTER join %s does not join its right side on one of the right "
            + "side's keys (a 1:N left outer join, whose null-extended rows depend on the absence of matches; "
            + "supported: N:1 left outer joins, each row of the left side with at most one match)", oneLine(join)));
      }
      Set<Set<ExprId>> keys = new LinkedHashSet<>();
      if (rightOnKey) {
        keys.addAll(left.keys);
      }
      if (leftOnKey && inner) {
        keys.addAll(right.keys);
      }
      for (Set<ExprId> leftKey : left.keys) {
        for (Set<ExprId> rightKey : right.keys) {
          Set<ExprId> both = new HashSet<>(leftKey);
          both.addAll(rightKey);
          keys.add(both);
        }
      }
      return new Node(keys);
    }

    private Node aggregate(Aggregate aggregate) {
      notAggregated(node(aggregate.child()), "GROUP BY");
      for (NamedExpression expression : seqAsJavaList(aggregate.aggregateExpressions())) {
        checkDeterministic((Expression) expression, "aggregate");
      }
      Set<ExprId> grouping = new HashSet<>();
      for (Expression expression : seqAsJavaList(aggregate.groupingExpressions())) {
        checkDeterministic(expression, "GROUP BY expression");
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
        return new Node(Collections.emptySet(), true);
      }
      return new Node(Collections.singleton(key), true);
    }
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

  /**
   * An expression whose value depends on when a batch runs (current_timestamp(), now(), current_date(), ...): Spark
   * marks them deterministic within a query, but a row they filter or compute changes without any table changing.
   */
  private static Option<Expression> timeDependent(Expression expression) {
    if (expression instanceof CurrentTimestampLike || expression instanceof CurrentDate
        || expression instanceof CurrentBatchTimestamp) {
      return Option.of(expression);
    }
    for (Expression child : seqAsJavaList(expression.children())) {
      Option<Expression> found = timeDependent(child);
      if (found.isPresent()) {
        return found;
      }
    }
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

  private static void checkDeterministic(Expression expression, String what) {
    if (SubqueryExpression$.MODULE$.hasSubquery(expression)) {
      throw new Refused(String.format("the %s %s holds a subquery, whose tables' changes a view cannot follow "
          + "(write it as a join)", what, expression.sql()));
    }
    Option<Expression> time = timeDependent(expression);
    if (time.isPresent()) {
      throw new Refused(String.format("the %s %s reads the time a batch runs at (%s): the rows it decides change "
          + "as time passes while no table changes, so no batch would rewrite them (compare against a column of a "
          + "table instead, e.g. a calendar table a job updates daily)", what, expression.sql(), time.get().sql()));
    }
    if (!expression.deterministic()) {
      throw new Refused(String.format("the %s %s is not deterministic, so a batch could not reproduce the rows an "
          + "earlier one wrote", what, expression.sql()));
    }
  }

  private static Set<ExprId> exprIds(List<? extends Expression> attributes) {
    return attributes.stream().map(attribute -> ((NamedExpression) attribute).exprId()).collect(Collectors.toSet());
  }

  private static String oneLine(LogicalPlan plan) {
    String text = plan.simpleString(200).replaceAll("\\s+", " ");
    return text.length() <= 200 ? text : text.substring(0, 197) + "...";
  }
}
