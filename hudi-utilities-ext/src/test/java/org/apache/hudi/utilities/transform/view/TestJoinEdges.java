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
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Collections;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Given tables orders (user_id, a double score), users (user_id, country_id, a double score) and countries, when a view's
 * query is read for the equalities joining one table's column to another's, then a pass over users' changed rows may
 * read orders only where the query equates their columns as the tables hold them, and never through a union, an
 * expression, a same-side condition of an outer join or a floating-point column.
 */
class TestJoinEdges {

  private static final Map<String, String> TABLE_OF_VIEW = Map.of("edges_orders", "orders", "edges_users", "users",
      "edges_countries", "countries");

  @BeforeAll
  static void tables() {
    SparkSession spark = SharedSpark.session();
    table(spark, "edges_orders", new StructType().add("order_id", DataTypes.StringType)
        .add("user_id", DataTypes.StringType).add("score", DataTypes.DoubleType));
    table(spark, "edges_users", new StructType().add("user_id", DataTypes.StringType)
        .add("country_id", DataTypes.IntegerType).add("score", DataTypes.DoubleType));
    table(spark, "edges_countries", new StructType().add("country_id", DataTypes.IntegerType)
        .add("name", DataTypes.StringType));
  }

  @AfterAll
  static void dropTables() {
    TABLE_OF_VIEW.keySet().forEach(view -> SharedSpark.session().catalog().dropTempView(view));
  }

  static Stream<Arguments> queries() {
    return Stream.of(
        Arguments.of("inner join condition", "SELECT o.order_id FROM edges_orders o JOIN edges_users u "
            + "ON o.user_id = u.user_id", "user_id = user_id"),
        Arguments.of("the equality written the other way round", "SELECT o.order_id FROM edges_orders o JOIN "
            + "edges_users u ON u.user_id = o.user_id", "user_id = user_id"),
        Arguments.of("left outer join, the orders on the preserved side", "SELECT o.order_id FROM edges_orders o "
            + "LEFT JOIN edges_users u ON o.user_id = u.user_id", "user_id = user_id"),
        Arguments.of("WHERE over a cross join", "SELECT o.order_id FROM edges_orders o, edges_users u "
            + "WHERE o.user_id = u.user_id", "user_id = user_id"),
        Arguments.of("through a subquery's projection and alias", "SELECT o.order_id FROM (SELECT order_id, user_id "
            + "AS buyer FROM edges_orders WHERE score > 0) o JOIN edges_users u ON o.buyer = u.user_id",
            "user_id = user_id"),
        Arguments.of("through a chain: no equality of orders and users' other columns",
            "SELECT o.order_id, c.name FROM edges_orders o JOIN edges_users u ON o.user_id = u.user_id "
                + "JOIN edges_countries c ON u.country_id = c.country_id", "user_id = user_id"),
        Arguments.of("an expression of the column", "SELECT o.order_id FROM edges_orders o JOIN edges_users u "
            + "ON lower(o.user_id) = u.user_id", ""),
        Arguments.of("a floating-point equality", "SELECT o.order_id FROM edges_orders o JOIN edges_users u "
            + "ON o.score = u.score", ""),
        Arguments.of("a condition of a left outer join on its preserved side only",
            "SELECT o.order_id FROM (SELECT o.order_id, o.user_id AS ou, u.user_id AS uu FROM edges_orders o "
                + "JOIN edges_countries c ON o.order_id = c.name JOIN edges_users u ON u.country_id = c.country_id) o "
                + "LEFT JOIN edges_countries k ON o.ou = o.uu AND k.name = o.order_id", ""),
        Arguments.of("orders read in two UNION ALL branches", "SELECT x.order_id FROM (SELECT order_id, user_id "
            + "FROM edges_orders UNION ALL SELECT order_id, user_id FROM edges_orders) x JOIN edges_users u "
            + "ON x.user_id = u.user_id", ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("queries")
  void ordersNeededForUsersChangedRowsOnlyThroughEqualitiesOfTheirColumns(String description, String sql,
                                                                          String expected) {
    JoinEdges edges = JoinEdges.of(SharedSpark.session().sql(sql).queryExecution().analyzed(), TABLE_OF_VIEW);
    assertEquals(expected, edges.between("orders", "users").map(Object::toString).orElse(""), description);
    assertEquals(expected, edges.between("users", "orders").map(Object::toString).orElse(""), description);
  }

  private static void table(SparkSession spark, String view, StructType columns) {
    spark.createDataFrame(Collections.emptyList(), columns).createOrReplaceTempView(view);
  }
}
