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

package org.apache.hudi.utilities.testutils;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The exact-join recipes of docs/exact-joins.md over the tables {@code orders} (order_id, user_id, amount, ts) and
 * {@code users} (user_id, user_name, ts), as the SQL files of the multi-dataset SQL file transformer hold them; and the
 * join each recipe keeps its target equal to, recomputed from whole tables.
 */
public final class ExactJoins {

  /** "Inner join": {@code Δorders ⋈ SNAP(users) ∪ SNAP(orders) ⋈ Δusers}, upserted on order_id. */
  public static final String INNER_JOIN = recipe("inner-join.sql");
  /** The ordering column every recipe writes, the same value on every row (docs/exact-joins.md). */
  public static final String COMMIT_ORDER = "commit_order";
  /** "Delete-aware inner join": the inner join, plus deletes of the joined rows that no longer hold, from PREV and SNAP. */
  public static final String DELETE_AWARE_INNER_JOIN = recipe("delete-aware-inner-join.sql");
  /**
   * "Delete-aware join over CDC deltas": deletes and moved keys from the before and after images of both tables' CDC
   * deltas ({@code incr.format=CDC}).
   */
  public static final String DELETE_AWARE_JOIN_OVER_CDC_DELTAS = recipe("delete-aware-join-over-cdc-deltas.sql");

  private ExactJoins() {
  }

  /**
   * The inner join of orders and users on user_id with the recipes' columns: order_id, user_id, amount, user_name and
   * ts, the greater of the two rows' ts.
   */
  public static Dataset<Row> recomputed(Dataset<Row> orders, Dataset<Row> users) {
    return orders.alias("o").join(users.alias("u"), "user_id")
        .selectExpr("order_id", "user_id", "amount", "user_name", "greatest(o.ts, u.ts) AS ts");
  }

  /**
   * The join recomputed from the tables as of two instants (Hudi time travel): what a target fed by a recipe holds
   * after committing the checkpoint {@code orders=<ordersInstant>,users=<usersInstant>}.
   */
  public static Dataset<Row> recomputedAsOf(SparkSession spark, String ordersPath, String ordersInstant,
                                            String usersPath, String usersInstant) {
    return recomputed(spark.read().format("hudi").option("as.of.instant", ordersInstant).load(ordersPath),
        spark.read().format("hudi").option("as.of.instant", usersInstant).load(usersPath));
  }

  /** A recipe file of the resource folder {@code exact-joins}, after its licence header (up to its first blank line). */
  private static String recipe(String file) {
    try (InputStream in = ExactJoins.class.getResourceAsStream("exact-joins/" + file)) {
      if (in == null) {
        throw new IllegalStateException("Cannot find the recipe exact-joins/" + file + " next to " + ExactJoins.class);
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return text.substring(text.indexOf("\n\n") + 2);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the recipe exact-joins/" + file, e);
    }
  }
}
