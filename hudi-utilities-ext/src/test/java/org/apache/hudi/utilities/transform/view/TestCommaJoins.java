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
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Given tables orders (key order_id), users (key user_id) and countries (key code), when a query joins them by commas,
 * then {@link CommaJoins} gives the plan of the same query written with JOIN ... ON, and the views' passes derive the
 * same operators from both; a WHERE conjunct that is not an equality of the two sides' columns stays in the WHERE, and
 * a plan without an inner join under a WHERE is left as it is.
 */
class TestCommaJoins {

  private static final Map<String, String> TABLE_OF_VIEW = Map.of("comma_orders", "orders", "comma_users", "users",
      "comma_countries", "countries");
  private static final Map<String, List<String>> RECORD_KEYS = Map.of("orders", List.of("order_id"),
      "users", List.of("user_id"), "countries", List.of("code"));

  @BeforeAll
  static void tables() {
    SparkSession spark = SharedSpark.session();
    table(spark, "comma_orders", new StructType().add("order_id", DataTypes.StringType)
        .add("user_id", DataTypes.StringType).add("amount", DataTypes.IntegerType).add("ts", DataTypes.LongType));
    table(spark, "comma_users", new StructType().add("user_id", DataTypes.StringType)
        .add("country", DataTypes.StringType).add("ts", DataTypes.LongType));
    table(spark, "comma_countries", new StructType().add("code", DataTypes.StringType)
        .add("region", DataTypes.StringType));
  }

  @AfterAll
  static void dropTables() {
    TABLE_OF_VIEW.keySet().forEach(view -> SharedSpark.session().catalog().dropTempView(view));
  }

  static Stream<Arguments> sameQueries() {
    return Stream.of(
        Arguments.of("two tables", "SELECT o.order_id, u.country FROM comma_orders o, comma_users u "
            + "WHERE o.user_id = u.user_id", "SELECT o.order_id, u.country FROM comma_orders o JOIN comma_users u "
            + "ON o.user_id = u.user_id"),
        Arguments.of("the other conjuncts stay the WHERE", "SELECT o.order_id FROM comma_orders o, comma_users u "
            + "WHERE o.amount > 10 AND u.user_id = o.user_id AND u.country <> 'NL'", "SELECT o.order_id "
            + "FROM comma_orders o JOIN comma_users u ON u.user_id = o.user_id WHERE o.amount > 10 AND u.country <> 'NL'"),
        Arguments.of("a chain of three, each equality at the lowest join holding both its columns",
            "SELECT o.order_id, c.region FROM comma_orders o, comma_users u, comma_countries c "
                + "WHERE u.country = c.code AND o.user_id = u.user_id",
            "SELECT o.order_id, c.region FROM comma_orders o JOIN comma_users u ON o.user_id = u.user_id "
                + "JOIN comma_countries c ON u.country = c.code"),
        Arguments.of("under a GROUP BY, in a subquery", "SELECT region, count(*) AS n FROM (SELECT c.region "
                + "FROM comma_orders o, comma_users u, comma_countries c WHERE o.user_id = u.user_id "
                + "AND u.country = c.code) GROUP BY region",
            "SELECT region, count(*) AS n FROM (SELECT c.region FROM comma_orders o JOIN comma_users u "
                + "ON o.user_id = u.user_id JOIN comma_countries c ON u.country = c.code) GROUP BY region"),
        Arguments.of("an equality common to every disjunct of an OR", "SELECT o.order_id FROM comma_orders o, "
                + "comma_users u WHERE (o.user_id = u.user_id AND o.amount > 10) OR (u.user_id = o.user_id "
                + "AND u.country = 'NL')",
            "SELECT o.order_id FROM comma_orders o JOIN comma_users u ON o.user_id = u.user_id "
                + "WHERE o.amount > 10 OR u.country = 'NL'"),
        Arguments.of("an explicit CROSS JOIN", "SELECT o.order_id FROM comma_orders o CROSS JOIN comma_users u "
            + "WHERE o.user_id = u.user_id", "SELECT o.order_id FROM comma_orders o JOIN comma_users u "
            + "ON o.user_id = u.user_id"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sameQueries")
  void commaJoinsDeriveTheOperatorsOfTheirJoinOnForm(String description, String commas, String joinOn) {
    LogicalPlan rewritten = CommaJoins.asJoinConditions(analyze(commas));
    LogicalPlan written = analyze(joinOn);

    assertTrue(rewritten.sameResult(written), description + ": " + rewritten + " is not " + written);
    assertEquals(ViewShape.of(written, TABLE_OF_VIEW, RECORD_KEYS).toString(),
        ViewShape.of(rewritten, TABLE_OF_VIEW, RECORD_KEYS).toString(), description);
    assertEquals(edges(written), edges(rewritten), description);
  }

  static Stream<Arguments> untouchedQueries() {
    return Stream.of(
        Arguments.of("a comparison other than equality", "SELECT o.order_id FROM comma_orders o, comma_users u "
            + "WHERE o.ts < u.ts"),
        Arguments.of("an equality of one table's columns", "SELECT o.order_id FROM comma_orders o, comma_users u "
            + "WHERE o.order_id = o.user_id"),
        Arguments.of("an equality of an expression of a column", "SELECT o.order_id FROM comma_orders o, "
            + "comma_users u WHERE lower(o.user_id) = u.user_id"),
        Arguments.of("an OR without an equality in every disjunct", "SELECT o.order_id FROM comma_orders o, "
            + "comma_users u WHERE (o.user_id = u.user_id AND o.amount > 10) OR u.country = 'NL'"),
        Arguments.of("a WHERE over a left outer join", "SELECT o.order_id FROM comma_orders o LEFT JOIN comma_users u "
            + "ON o.amount > 10 WHERE o.user_id = u.user_id"),
        Arguments.of("a non-deterministic WHERE", "SELECT o.order_id FROM comma_orders o, comma_users u "
            + "WHERE o.user_id = u.user_id AND rand() > 0.5"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("untouchedQueries")
  void whatIsNotAnEqualityOfTheTwoSidesOfAnInnerJoinStaysTheWhere(String description, String sql) {
    LogicalPlan analyzed = analyze(sql);

    assertSame(analyzed, CommaJoins.asJoinConditions(analyzed), description);
  }

  @Test
  void anEqualityWithTheOuterJoinsSideIsMovedAboveItNeverIntoIt() {
    LogicalPlan rewritten = CommaJoins.asJoinConditions(analyze("SELECT o.order_id FROM comma_orders o "
        + "LEFT JOIN comma_users u ON o.user_id = u.user_id, comma_countries c WHERE u.country = c.code "
        + "AND o.order_id = u.user_id"));
    LogicalPlan written = analyze("SELECT o.order_id FROM comma_orders o LEFT JOIN comma_users u "
        + "ON o.user_id = u.user_id JOIN comma_countries c ON u.country = c.code WHERE o.order_id = u.user_id");

    assertTrue(rewritten.sameResult(written), rewritten + " is not " + written);
  }

  private static String edges(LogicalPlan plan) {
    JoinEdges edges = JoinEdges.of(plan, TABLE_OF_VIEW);
    return edges.between("orders", "users").map(Object::toString).orElse("") + "; "
        + edges.between("users", "countries").map(Object::toString).orElse("");
  }

  private static LogicalPlan analyze(String sql) {
    return SharedSpark.session().sql(sql).queryExecution().analyzed();
  }

  private static void table(SparkSession spark, String view, StructType columns) {
    spark.createDataFrame(Collections.emptyList(), columns).createOrReplaceTempView(view);
  }
}
