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
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Given tables orders (key order_id) and users (key user_id), when a view's query holds an operator no
 * {@link ViewOperator} knows, then every pass refuses it naming the operator (none passes it through), and a view's
 * grouping is found only where a grouped view may have it: under HAVING, a projection and aliases.
 */
class TestViewOperator {

  private static final Map<String, String> TABLE_OF_VIEW = Map.of("operator_orders", "orders", "operator_users", "users");
  private static final Map<String, List<String>> RECORD_KEYS = Map.of("orders", List.of("order_id"),
      "users", List.of("user_id"));
  private static final Map<String, LineagePlan.TableKey> KEY_OF_VIEW = Map.of(
      "operator_orders", new LineagePlan.TableKey(0, List.of("order_id")),
      "operator_users", new LineagePlan.TableKey(1, List.of("user_id")));

  @BeforeAll
  static void tables() {
    SparkSession spark = SharedSpark.session();
    table(spark, "operator_orders", new StructType().add("order_id", DataTypes.StringType)
        .add("user_id", DataTypes.StringType).add("ts", DataTypes.LongType));
    table(spark, "operator_users", new StructType().add("user_id", DataTypes.StringType)
        .add("country", DataTypes.StringType));
  }

  @AfterAll
  static void dropTables() {
    TABLE_OF_VIEW.keySet().forEach(view -> SharedSpark.session().catalog().dropTempView(view));
  }

  static Stream<Arguments> unknownOperators() {
    return Stream.of(
        Arguments.of("SELECT o.order_id, u.country FROM operator_orders o JOIN operator_users u "
            + "ON o.user_id = u.user_id ORDER BY o.ts", "Sort"),
        Arguments.of("SELECT o.order_id, u.country FROM (SELECT * FROM operator_orders LIMIT 10) o "
            + "JOIN operator_users u ON o.user_id = u.user_id", "GlobalLimit"),
        Arguments.of("SELECT order_id, row_number() OVER (PARTITION BY user_id ORDER BY ts) AS n FROM operator_orders",
            "Window"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("unknownOperators")
  void everyPassRefusesAnOperatorNoRuleKnowsNamingIt(String sql, String operator) {
    LogicalPlan analyzed = analyze(sql);
    String refusal = operator + " is not an operator a view can be maintained by incrementally";

    Option<String> shapeRefusal = ViewShape.of(analyzed, TABLE_OF_VIEW, RECORD_KEYS).refusal();
    assertTrue(shapeRefusal.isPresent() && shapeRefusal.get().startsWith(refusal), shapeRefusal.toString());
    ViewRefusal lineage = assertThrows(ViewRefusal.class, () -> LineagePlan.of(analyzed, KEY_OF_VIEW), sql);
    assertTrue(lineage.getMessage().startsWith(refusal), lineage.getMessage());
    ViewRefusal edges = assertThrows(ViewRefusal.class, () -> JoinEdges.of(analyzed, TABLE_OF_VIEW), sql);
    assertTrue(edges.getMessage().startsWith(refusal), edges.getMessage());
  }

  @Test
  void groupingBelowTheViewsLastStepCarriesNoLineage() {
    LogicalPlan analyzed = analyze("SELECT o.order_id, c.n FROM operator_orders o JOIN (SELECT user_id, count(*) AS n "
        + "FROM operator_orders GROUP BY user_id) c ON o.user_id = c.user_id");

    ViewRefusal lineage = assertThrows(ViewRefusal.class, () -> LineagePlan.of(analyzed, KEY_OF_VIEW));
    assertTrue(lineage.getMessage().startsWith("a GROUP BY or DISTINCT below a view's last step"), lineage.getMessage());
  }

  static Stream<Arguments> groupings() {
    return Stream.of(
        Arguments.of("SELECT n FROM (SELECT user_id, count(*) AS n FROM operator_orders GROUP BY user_id "
            + "HAVING count(*) > 1) g", "Aggregate"),
        Arguments.of("SELECT DISTINCT u.country FROM operator_orders o JOIN operator_users u ON o.user_id = u.user_id",
            "Distinct"),
        Arguments.of("SELECT user_id, count(*) AS n FROM operator_orders GROUP BY user_id ORDER BY n", ""),
        Arguments.of("SELECT o.order_id, c.n FROM operator_orders o JOIN (SELECT user_id, count(*) AS n "
            + "FROM operator_orders GROUP BY user_id) c ON o.user_id = c.user_id", ""),
        Arguments.of("SELECT user_id FROM operator_orders", ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("groupings")
  void theGroupingIsFoundOnlyUnderHavingProjectionsAndAliases(String sql, String grouping) {
    Option<ViewGrouping> found = ViewGrouping.of(analyze(sql), TABLE_OF_VIEW.keySet());

    assertEquals(grouping, found.map(view -> view.operator().plan().nodeName()).orElse(""), sql);
  }

  @Test
  void theOperatorsAreTheOnlyListOfWhatViewsSupport() {
    LogicalPlan sorted = analyze("SELECT order_id FROM operator_orders ORDER BY order_id");

    assertFalse(ViewOperator.supported(sorted, TABLE_OF_VIEW.keySet()).isPresent());
    ViewRefusal refusal = assertThrows(ViewRefusal.class, () -> ViewOperator.of(sorted, TABLE_OF_VIEW.keySet()));
    assertTrue(refusal.getMessage().startsWith("Sort is not an operator"), refusal.getMessage());
  }

  private static LogicalPlan analyze(String sql) {
    return SharedSpark.session().sql(sql).queryExecution().analyzed();
  }

  private static void table(SparkSession spark, String view, StructType columns) {
    spark.createDataFrame(Collections.emptyList(), columns).createOrReplaceTempView(view);
  }
}
