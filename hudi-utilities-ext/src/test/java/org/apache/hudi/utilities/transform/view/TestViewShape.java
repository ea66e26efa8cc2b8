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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Given tables orders (key order_id, a foreign key user_id), users (key user_id) and payments (key payment_id, a foreign
 * key order_id), when a view's query is analyzed, then its keys are the output columns it guarantees unique, or it is
 * refused with the operator named.
 */
class TestViewShape {

  private static final Map<String, String> TABLE_OF_VIEW = Map.of("view_orders", "orders", "view_users", "users",
      "view_payments", "payments", "view_invoices", "invoices");
  private static final Map<String, List<String>> RECORD_KEYS = Map.of("orders", List.of("order_id"),
      "users", List.of("user_id"), "payments", List.of("payment_id"), "invoices", List.of("invoice_no"));

  @BeforeAll
  static void tables() {
    SparkSession spark = SharedSpark.session();
    table(spark, "view_orders", new StructType().add("order_id", DataTypes.StringType)
        .add("user_id", DataTypes.StringType).add("amount", DataTypes.DoubleType).add("ts", DataTypes.LongType));
    table(spark, "view_users", new StructType().add("user_id", DataTypes.StringType)
        .add("user_name", DataTypes.StringType).add("country", DataTypes.StringType).add("ts", DataTypes.LongType));
    table(spark, "view_payments", new StructType().add("payment_id", DataTypes.StringType)
        .add("order_id", DataTypes.StringType).add("paid", DataTypes.DoubleType));
    table(spark, "view_invoices", new StructType().add("invoice_no", DataTypes.LongType)
        .add("amount", DataTypes.DoubleType));
  }

  @AfterAll
  static void dropTables() {
    TABLE_OF_VIEW.keySet().forEach(view -> SharedSpark.session().catalog().dropTempView(view));
  }

  static Stream<Arguments> keyedViews() {
    return Stream.of(
        Arguments.of("N:1 inner join: the fact's key",
            "SELECT o.order_id, o.amount, u.user_name FROM view_orders o JOIN view_users u ON o.user_id = u.user_id",
            List.of(List.of("order_id"))),
        Arguments.of("left outer join",
            "SELECT o.order_id, u.user_name FROM view_orders o LEFT JOIN view_users u ON o.user_id = u.user_id",
            List.of(List.of("order_id"))),
        Arguments.of("chain of N:1 joins, a filter in the condition and in WHERE",
            "SELECT p.payment_id, o.order_id, u.user_name FROM view_payments p JOIN view_orders o "
                + "ON p.order_id = o.order_id AND o.amount > 0 JOIN view_users u ON o.user_id = u.user_id "
                + "WHERE u.country = 'NL'",
            List.of(List.of("payment_id"))),
        Arguments.of("1:N from the dimension's side: the many side's key",
            "SELECT u.user_id, o.order_id FROM view_users u JOIN view_orders o ON u.user_id = o.user_id",
            List.of(List.of("order_id"))),
        Arguments.of("N:M: a key of each side together",
            "SELECT o.order_id, p.payment_id FROM view_orders o JOIN view_payments p ON o.amount = p.paid",
            List.of(List.of("order_id", "payment_id"))),
        Arguments.of("UNION ALL with a column that tells the branches apart",
            "SELECT 'order' AS kind, order_id AS id FROM view_orders UNION ALL SELECT 'payment', payment_id "
                + "FROM view_payments",
            List.of(List.of("id", "kind"))),
        Arguments.of("UNION ALL of a number key cast to a string and a string key: a cast that keeps values apart",
            "SELECT 'invoice' AS kind, CAST(invoice_no AS STRING) AS id FROM view_invoices UNION ALL "
                + "SELECT 'payment', payment_id FROM view_payments",
            List.of(List.of("id", "kind"))),
        Arguments.of("a key widened to a decimal",
            "SELECT CAST(invoice_no AS DECIMAL(20, 0)) AS id, amount FROM view_invoices",
            List.of(List.of("id"))),
        Arguments.of("a key narrowed: a cast that can merge two values is no key",
            "SELECT CAST(invoice_no AS INT) AS id, amount FROM view_invoices",
            List.of()),
        Arguments.of("a key cast to a floating point number is no key",
            "SELECT CAST(invoice_no AS DOUBLE) AS id, amount FROM view_invoices",
            List.of()),
        Arguments.of("UNION ALL without one",
            "SELECT order_id AS id FROM view_orders UNION ALL SELECT payment_id FROM view_payments",
            List.of()),
        Arguments.of("a renamed key",
            "SELECT order_id AS id, upper(user_id) AS user FROM view_orders",
            List.of(List.of("id"))),
        Arguments.of("a projection without the key",
            "SELECT user_id, amount FROM view_orders",
            List.of()),
        Arguments.of("GROUP BY a column of a join, aggregates, HAVING",
            "SELECT u.country, count(*) AS orders, sum(o.amount) AS total, avg(o.amount) AS mean, min(o.ts) AS first_ts, "
                + "max(o.ts) AS last_ts, count(DISTINCT o.user_id) AS buyers FROM view_orders o "
                + "JOIN view_users u ON o.user_id = u.user_id GROUP BY u.country HAVING count(*) > 1",
            List.of(List.of("country"))),
        Arguments.of("GROUP BY an expression: no column holds the group",
            "SELECT upper(country) AS c, count(*) AS n FROM view_users GROUP BY upper(country)",
            List.of()),
        Arguments.of("DISTINCT",
            "SELECT DISTINCT user_id, country FROM view_users",
            List.of(List.of("country", "user_id"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("keyedViews")
  void keysAreTheColumnsTheQueryGuaranteesUnique(String shape, String sql, List<List<String>> keys) {
    ViewShape view = analyze(sql);

    assertEquals(Collections.emptyList(), view.refusal().map(List::of).orElse(List.of()), shape);
    assertEquals(keys, view.keys(), shape);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("keyedViews")
  void viewIsUniqueByEachKeyAndNotByFewerColumns(String shape, String sql, List<List<String>> keys) {
    ViewShape view = analyze(sql);

    for (List<String> key : keys) {
      assertTrue(view.isUniqueBy(key), shape + ": " + key);
      if (key.size() > 1) {
        assertFalse(view.isUniqueBy(key.subList(1, key.size())), shape + ": " + key.subList(1, key.size()));
      }
    }
    assertFalse(view.isUniqueBy(List.of("amount")), shape);
  }

  static Stream<Arguments> refusedViews() {
    return Stream.of(
        Arguments.of("SELECT order_id, row_number() OVER (ORDER BY ts) AS n FROM view_orders", "Window is not"),
        Arguments.of("SELECT order_id FROM view_orders ORDER BY ts", "Sort is not"),
        Arguments.of("SELECT order_id FROM view_orders LIMIT 10", "Limit is not"),
        Arguments.of("SELECT a.order_id, b.order_id AS other FROM view_orders a JOIN view_orders b "
            + "ON a.user_id = b.user_id", "a self-join"),
        Arguments.of("SELECT u.user_id, o.order_id FROM view_users u LEFT JOIN view_orders o ON u.user_id = o.user_id",
            "a 1:N left outer join"),
        Arguments.of("SELECT o.order_id FROM view_orders o FULL OUTER JOIN view_users u ON o.user_id = u.user_id",
            "a FULL OUTER join is not"),
        Arguments.of("SELECT o.order_id FROM view_orders o JOIN view_users u ON o.user_id = u.user_id AND o.ts < u.ts",
            "compares the two sides other than by equality"),
        Arguments.of("SELECT o.order_id, u.user_id FROM view_orders o CROSS JOIN view_users u", "a CROSS join is not"),
        Arguments.of("SELECT o.order_id, u.user_id FROM view_orders o JOIN view_users u ON o.amount > 0",
            "has no equality between its two sides"),
        Arguments.of("SELECT order_id, rand() AS r FROM view_orders", "is not deterministic"),
        Arguments.of("SELECT order_id FROM view_orders WHERE ts > unix_timestamp() - 86400",
            "reads the time a batch runs at"),
        Arguments.of("SELECT order_id, datediff(current_date(), DATE'2026-01-01') AS age FROM view_orders",
            "reads the time a batch runs at"),
        Arguments.of("SELECT order_id FROM view_orders WHERE ts > unix_millis(now())", "reads the time a batch runs at"),
        Arguments.of("SELECT order_id, localtimestamp() AS seen FROM view_orders", "reads the time a batch runs at"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("refusedViews")
  void otherShapesAreRefusedNamingTheOperator(String sql, String reason) {
    ViewShape view = analyze(sql);

    assertTrue(view.refusal().isPresent(), sql);
    assertTrue(view.refusal().get().contains(reason), view.refusal().get());
    assertEquals(List.of(), view.keys());
  }

  private static ViewShape analyze(String sql) {
    return ViewShape.of(SharedSpark.session().sql(sql).queryExecution().analyzed(), TABLE_OF_VIEW, RECORD_KEYS);
  }

  private static void table(SparkSession spark, String view, StructType columns) {
    spark.createDataFrame(Collections.emptyList(), columns).createOrReplaceTempView(view);
  }
}
