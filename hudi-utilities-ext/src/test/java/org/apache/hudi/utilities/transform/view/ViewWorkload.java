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

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A seeded workload for views: four tables with foreign keys (orders to users, payments to orders, users to countries),
 * the view queries over them (supported shapes, and shapes that must be refused), and change streams: inserts,
 * updates, deletes, foreign keys moved (also to rows that do not exist), dimension rows renamed and deleted, tables
 * idle for several batches.
 */
final class ViewWorkload {

  static final Map<String, StructType> SCHEMAS = new LinkedHashMap<>();
  static final Map<String, String> KEYS = new LinkedHashMap<>();

  static {
    SCHEMAS.put("orders", new StructType().add("order_id", DataTypes.StringType).add("user_id", DataTypes.StringType)
        .add("amount", DataTypes.IntegerType).add("status", DataTypes.StringType).add("ts", DataTypes.LongType));
    SCHEMAS.put("users", new StructType().add("user_id", DataTypes.StringType).add("user_name", DataTypes.StringType)
        .add("country", DataTypes.StringType).add("ts", DataTypes.LongType));
    SCHEMAS.put("payments", new StructType().add("payment_id", DataTypes.StringType)
        .add("order_id", DataTypes.StringType).add("paid", DataTypes.IntegerType));
    SCHEMAS.put("countries", new StructType().add("code", DataTypes.StringType).add("region", DataTypes.StringType));
    KEYS.put("orders", "order_id");
    KEYS.put("users", "user_id");
    KEYS.put("payments", "payment_id");
    KEYS.put("countries", "code");
  }

  private static final String[] STATUSES = {"open", "paid", "shipped"};
  private static final String[] COUNTRIES = {"NL", "DE", "FR", "XX"};
  private static final String[] REGIONS = {"west", "central", "south"};

  /** A view query over &lt;TABLE:name&gt; placeholders and the record key of its target. */
  static final class ViewCase {
    final String sql;
    final List<String> key;

    ViewCase(String sql, String... key) {
      this.sql = sql;
      this.key = Arrays.asList(key);
    }

    @Override
    public String toString() {
      return sql + " keyed by " + key;
    }
  }

  /** The supported shapes, each with parameters that vary its filters: at least 30 queries. */
  static List<ViewCase> supportedViews() {
    List<ViewCase> views = new ArrayList<>();
    String ordersUsers = "FROM <TABLE:orders> o JOIN <TABLE:users> u ON o.user_id = u.user_id";
    for (int threshold : new int[] {0, 40, 80}) {
      views.add(new ViewCase("SELECT o.order_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts " + ordersUsers
          + " WHERE o.amount >= " + threshold, "order_id"));
      views.add(new ViewCase("SELECT o.order_id, o.amount, u.user_name, u.country FROM <TABLE:orders> o "
          + "LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id WHERE o.amount >= " + threshold, "order_id"));
      views.add(new ViewCase("SELECT u.country, count(*) AS n, sum(o.amount) AS total, avg(o.amount) AS mean "
          + ordersUsers + " WHERE o.amount >= " + threshold + " GROUP BY u.country", "country"));
      views.add(new ViewCase("SELECT o.user_id, count(*) AS n, min(o.amount) AS low, max(o.amount) AS high "
          + "FROM <TABLE:orders> o GROUP BY o.user_id HAVING sum(o.amount) > " + threshold, "user_id"));
    }
    for (String country : new String[] {"NL", "DE"}) {
      views.add(new ViewCase("SELECT o.order_id, o.status, u.user_name " + ordersUsers + " WHERE u.country = '"
          + country + "' AND o.status <> 'shipped'", "order_id"));
      views.add(new ViewCase("SELECT p.payment_id, p.paid, o.amount, u.country FROM <TABLE:payments> p "
          + "JOIN <TABLE:orders> o ON p.order_id = o.order_id JOIN <TABLE:users> u ON o.user_id = u.user_id "
          + "WHERE u.country <> '" + country + "'", "payment_id"));
    }
    views.add(new ViewCase("SELECT p.payment_id, p.paid, o.status, u.user_name FROM <TABLE:payments> p "
        + "LEFT JOIN <TABLE:orders> o ON p.order_id = o.order_id LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id",
        "payment_id"));
    views.add(new ViewCase("SELECT o.order_id, u.user_name, c.region " + ordersUsers
        + " JOIN <TABLE:countries> c ON u.country = c.code", "order_id"));
    views.add(new ViewCase("SELECT o.order_id, u.user_name, c.region FROM <TABLE:orders> o "
        + "LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id LEFT JOIN <TABLE:countries> c ON u.country = c.code",
        "order_id"));
    views.add(new ViewCase("SELECT u.user_id, u.user_name, c.region FROM <TABLE:users> u "
        + "LEFT JOIN <TABLE:countries> c ON u.country = c.code", "user_id"));
    views.add(new ViewCase("SELECT o.order_id, u.user_id, u.user_name FROM <TABLE:users> u "
        + "JOIN <TABLE:orders> o ON u.user_id = o.user_id", "order_id"));
    views.add(new ViewCase("SELECT o.order_id, CASE WHEN o.amount > 50 THEN 'big' ELSE 'small' END AS size, "
        + "CAST(o.amount AS DOUBLE) / 2 AS half, upper(u.user_name) AS name, coalesce(u.country, '?') AS country "
        + ordersUsers, "order_id"));
    views.add(new ViewCase("SELECT u.country, count(DISTINCT o.user_id) AS buyers, count(*) AS n " + ordersUsers
        + " GROUP BY u.country", "country"));
    // A left outer join's null group mapped below the GROUP BY: Hudi writes no row whose record key is null.
    views.add(new ViewCase("SELECT country, count(order_id) AS n, sum(amount) AS total FROM (SELECT "
        + "coalesce(u.country, 'none') AS country, o.order_id, o.amount FROM <TABLE:orders> o "
        + "LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id) GROUP BY country", "country"));
    views.add(new ViewCase("SELECT u.country, o.status, count(*) AS n " + ordersUsers + " GROUP BY u.country, o.status",
        "country", "status"));
    views.add(new ViewCase("SELECT c.region, sum(o.amount) AS total, count(*) AS n " + ordersUsers
        + " JOIN <TABLE:countries> c ON u.country = c.code GROUP BY c.region HAVING count(*) > 1", "region"));
    views.add(new ViewCase("SELECT o.status AS s, count(*) AS n, max(o.ts) AS last_ts FROM <TABLE:orders> o "
        + "GROUP BY o.status", "s"));
    views.add(new ViewCase("SELECT DISTINCT u.country, o.status " + ordersUsers, "country", "status"));
    views.add(new ViewCase("SELECT DISTINCT user_id FROM <TABLE:orders> WHERE amount > 20", "user_id"));
    views.add(new ViewCase("SELECT 'order' AS kind, order_id AS id, amount AS value FROM <TABLE:orders> UNION ALL "
        + "SELECT 'payment' AS kind, payment_id AS id, paid AS value FROM <TABLE:payments>", "kind", "id"));
    views.add(new ViewCase("SELECT buyer, sum(value) AS total, count(*) AS n FROM (SELECT user_id AS buyer, amount AS "
        + "value FROM <TABLE:orders> UNION ALL SELECT o.user_id, p.paid FROM <TABLE:payments> p JOIN <TABLE:orders> o "
        + "ON p.order_id = o.order_id) GROUP BY buyer", "buyer"));
    views.add(new ViewCase("SELECT 'big' AS kind, o.order_id, u.user_name " + ordersUsers + " WHERE o.amount > 60 "
        + "UNION ALL SELECT 'paid', o.order_id, u.user_name " + ordersUsers + " WHERE o.status = 'paid'",
        "kind", "order_id"));
    return views;
  }

  /** Shapes a view must refuse, with words its reason must hold. */
  static Map<String, String> refusedViews() {
    Map<String, String> views = new LinkedHashMap<>();
    views.put("SELECT order_id, row_number() OVER (ORDER BY ts) AS n FROM <TABLE:orders>", "Window");
    views.put("SELECT order_id FROM <TABLE:orders> ORDER BY ts", "Sort");
    views.put("SELECT order_id FROM <TABLE:orders> LIMIT 10", "Limit");
    views.put("SELECT o.order_id, u.user_id FROM <TABLE:orders> o FULL OUTER JOIN <TABLE:users> u "
        + "ON o.user_id = u.user_id", "FULL OUTER");
    views.put("SELECT o.order_id FROM <TABLE:orders> o JOIN <TABLE:users> u ON o.user_id = u.user_id AND o.ts < u.ts",
        "other than by equality");
    views.put("SELECT order_id, rand() AS r FROM <TABLE:orders>", "not deterministic");
    views.put("SELECT u.user_id, o.order_id FROM <TABLE:users> u LEFT JOIN <TABLE:orders> o ON u.user_id = o.user_id",
        "1:N left outer join");
    views.put("SELECT order_id FROM <TABLE:orders> WHERE user_id IN (SELECT user_id FROM <TABLE:users>)", "subquery");
    views.put("SELECT a.order_id, b.order_id AS other FROM <TABLE:orders> a JOIN <TABLE:orders> b "
        + "ON a.user_id = b.user_id", "self-join");
    views.put("SELECT o.order_id, t.n FROM <TABLE:orders> o JOIN (SELECT user_id, count(*) AS n FROM <TABLE:orders> "
        + "GROUP BY user_id) t ON o.user_id = t.user_id", "below a join");
    return views;
  }

  private final Random random;
  private final Map<String, TreeMap<String, Object[]>> tables = new LinkedHashMap<>();
  private int nextId;
  private long ts;

  ViewWorkload(long seed) {
    this.random = new Random(seed);
    SCHEMAS.keySet().forEach(table -> tables.put(table, new TreeMap<>()));
    for (String code : new String[] {"NL", "DE", "FR"}) {
      tables.get("countries").put(code, new Object[] {code, REGIONS[random.nextInt(REGIONS.length)]});
    }
    for (int i = 0; i < 6; i++) {
      insertUser();
    }
    for (int i = 0; i < 12; i++) {
      insertOrder();
    }
    for (int i = 0; i < 6; i++) {
      insertPayment();
    }
  }

  /** The table's rows, by key. */
  Map<String, Object[]> rows(String table) {
    return tables.get(table);
  }

  /** A copy of every table's rows, by table and key. */
  Map<String, Map<String, Object[]>> copy() {
    Map<String, Map<String, Object[]>> copy = new LinkedHashMap<>();
    tables.forEach((table, rows) -> {
      Map<String, Object[]> rowsCopy = new TreeMap<>();
      rows.forEach((key, row) -> rowsCopy.put(key, row.clone()));
      copy.put(table, rowsCopy);
    });
    return copy;
  }

  /** One batch of changes; some tables stay idle. Returns the tables it changed. */
  List<String> change() {
    List<String> changed = new ArrayList<>();
    for (String table : SCHEMAS.keySet()) {
      // Orders change most batches, the dimensions less often, countries rarely: tables idle for several batches.
      double odds = table.equals("orders") ? 0.8 : table.equals("countries") ? 0.15 : 0.4;
      if (random.nextDouble() >= odds) {
        continue;
      }
      changed.add(table);
      int operations = 1 + random.nextInt(3);
      for (int i = 0; i < operations; i++) {
        changeOne(table);
      }
    }
    return changed;
  }

  private void changeOne(String table) {
    TreeMap<String, Object[]> rows = tables.get(table);
    int kind = random.nextInt(10);
    if (rows.isEmpty() || kind < 3) {
      insert(table);
    } else if (kind < 8) {
      Object[] row = pick(rows);
      switch (table) {
        case "orders":
          if (random.nextBoolean()) {
            row[1] = someUserId();             // moved to another user, maybe one that does not exist
          } else {
            row[2] = random.nextInt(100);
            row[3] = STATUSES[random.nextInt(STATUSES.length)];
          }
          row[4] = ++ts;
          break;
        case "users":
          if (random.nextBoolean()) {
            row[1] = "name" + random.nextInt(50);   // renamed
          } else {
            row[2] = COUNTRIES[random.nextInt(COUNTRIES.length)];
          }
          row[3] = ++ts;
          break;
        case "payments":
          row[1] = someOrderId();
          row[2] = random.nextInt(100);
          break;
        default:
          row[1] = REGIONS[random.nextInt(REGIONS.length)];
      }
    } else {
      rows.remove(pick(rows)[0]);
    }
  }

  private void insert(String table) {
    switch (table) {
      case "orders":
        insertOrder();
        break;
      case "users":
        insertUser();
        break;
      case "payments":
        insertPayment();
        break;
      default:
        String code = COUNTRIES[random.nextInt(COUNTRIES.length)];
        tables.get("countries").put(code, new Object[] {code, REGIONS[random.nextInt(REGIONS.length)]});
    }
  }

  private void insertUser() {
    String id = "u" + nextId++;
    tables.get("users").put(id, new Object[] {id, "name" + random.nextInt(50), COUNTRIES[random.nextInt(COUNTRIES.length)],
        ++ts});
  }

  private void insertOrder() {
    String id = "o" + nextId++;
    tables.get("orders").put(id, new Object[] {id, someUserId(), random.nextInt(100),
        STATUSES[random.nextInt(STATUSES.length)], ++ts});
  }

  private void insertPayment() {
    String id = "p" + nextId++;
    tables.get("payments").put(id, new Object[] {id, someOrderId(), random.nextInt(100)});
  }

  private String someUserId() {
    TreeMap<String, Object[]> users = tables.get("users");
    return users.isEmpty() || random.nextInt(8) == 0 ? "u" + random.nextInt(nextId + 1) : (String) pick(users)[0];
  }

  private String someOrderId() {
    TreeMap<String, Object[]> orders = tables.get("orders");
    return orders.isEmpty() || random.nextInt(8) == 0 ? "o" + random.nextInt(nextId + 1) : (String) pick(orders)[0];
  }

  private Object[] pick(TreeMap<String, Object[]> rows) {
    List<Object[]> all = new ArrayList<>(rows.values());
    return all.get(random.nextInt(all.size()));
  }

  static Dataset<Row> dataset(SparkSession spark, String table, Map<String, Object[]> rows) {
    List<Row> list = new ArrayList<>();
    rows.values().forEach(row -> list.add(RowFactory.create(row.clone())));
    return spark.createDataFrame(list, SCHEMAS.get(table));
  }
}
