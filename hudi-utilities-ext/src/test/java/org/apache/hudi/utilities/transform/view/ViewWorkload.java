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

import org.apache.hudi.utilities.transform.sql.SourcePlaceholders;

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
import java.util.stream.Collectors;

/**
 * A seeded workload for views: six tables and the view queries over them (supported shapes, and shapes that must be
 * refused), and change streams.
 *
 * <p>The tables: {@code orders} (1 000 rows, the fact) to {@code users} (150) to {@code countries} (a handful),
 * {@code payments} (300) to orders; {@code offers} (60, a numeric key) sharing the non-unique column {@code sku} with
 * orders (an N:M join); {@code stock} (about 70, a composite key of a numeric and a string column) that orders reach by
 * {@code (warehouse, sku)} (N:1) or by {@code sku} alone (N:M). Values may be NULL: an order's amount, user (foreign
 * key), sku and warehouse, a user's country, an offer's sku and discount, a stock's quantity.
 *
 * <p>The changes of a batch: inserts, updates and deletes of a few to a few dozen orders (so that a batch touches a
 * small share of the groups of a view grouped by user, offer or sku), fewer of the other tables; foreign keys moved, to
 * rows that do not exist and to NULL; dimension rows renamed and deleted; tables idle for several batches.
 */
final class ViewWorkload {

  static final Map<String, StructType> SCHEMAS = new LinkedHashMap<>();
  /** Each table's record key columns. */
  static final Map<String, List<String>> KEYS = new LinkedHashMap<>();

  static {
    SCHEMAS.put("orders", new StructType().add("order_id", DataTypes.StringType).add("user_id", DataTypes.StringType)
        .add("amount", DataTypes.IntegerType).add("status", DataTypes.StringType).add("ts", DataTypes.LongType)
        .add("sku", DataTypes.StringType).add("warehouse", DataTypes.IntegerType));
    SCHEMAS.put("users", new StructType().add("user_id", DataTypes.StringType).add("user_name", DataTypes.StringType)
        .add("country", DataTypes.StringType).add("ts", DataTypes.LongType));
    SCHEMAS.put("payments", new StructType().add("payment_id", DataTypes.StringType)
        .add("order_id", DataTypes.StringType).add("paid", DataTypes.IntegerType));
    SCHEMAS.put("countries", new StructType().add("code", DataTypes.StringType).add("region", DataTypes.StringType));
    SCHEMAS.put("offers", new StructType().add("offer_id", DataTypes.IntegerType).add("sku", DataTypes.StringType)
        .add("discount", DataTypes.IntegerType));
    SCHEMAS.put("stock", new StructType().add("warehouse", DataTypes.IntegerType).add("sku", DataTypes.StringType)
        .add("qty", DataTypes.IntegerType));
    KEYS.put("orders", List.of("order_id"));
    KEYS.put("users", List.of("user_id"));
    KEYS.put("payments", List.of("payment_id"));
    KEYS.put("countries", List.of("code"));
    KEYS.put("offers", List.of("offer_id"));
    KEYS.put("stock", List.of("warehouse", "sku"));
  }

  private static final List<String> TABLE_NAMES = new ArrayList<>(SCHEMAS.keySet());
  private static final int ORDERS = 1000;
  private static final int USERS = 150;
  private static final int PAYMENTS = 300;
  private static final int OFFERS = 60;
  private static final int STOCK = 80;
  private static final int SKUS = 40;
  private static final int WAREHOUSES = 3;
  private static final String[] STATUSES = {"open", "paid", "shipped"};
  /** Countries of users; XX is never a row of countries, PL only once inserted. */
  private static final String[] COUNTRIES = {"NL", "DE", "FR", "BE", "IT", "ES", "PL", "XX"};
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

  /**
   * The supported shapes, each with parameters that vary its filters: at least 30 queries. A grouped view whose group
   * could be NULL maps the NULL below its GROUP BY, filters it out, or groups by a second column that is never NULL.
   */
  static List<ViewCase> supportedViews() {
    List<ViewCase> views = new ArrayList<>();
    String ordersUsers = "FROM <TABLE:orders> o JOIN <TABLE:users> u ON o.user_id = u.user_id";
    String ordersOffers = "FROM <TABLE:orders> o JOIN <TABLE:offers> f ON o.sku = f.sku";
    for (int threshold : new int[] {0, 60}) {
      // Threshold 0 keeps the orders without an amount: counted, and left out of SUM, AVG, MIN and MAX.
      String amount = threshold == 0 ? "(o.amount IS NULL OR o.amount >= 0)" : "o.amount >= " + threshold;
      views.add(new ViewCase("SELECT o.order_id, o.amount, u.user_name, greatest(o.ts, u.ts) AS ts " + ordersUsers
          + " WHERE " + amount, "order_id"));
      views.add(new ViewCase("SELECT o.order_id, o.amount, u.user_name, u.country FROM <TABLE:orders> o "
          + "LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id WHERE " + amount, "order_id"));
      views.add(new ViewCase("SELECT u.country, count(*) AS n, sum(o.amount) AS total, avg(o.amount) AS mean "
          + ordersUsers + " WHERE " + amount + " AND u.country IS NOT NULL GROUP BY u.country", "country"));
      views.add(new ViewCase("SELECT o.user_id, count(*) AS n, min(o.amount) AS low, max(o.amount) AS high "
          + "FROM <TABLE:orders> o WHERE o.user_id IS NOT NULL GROUP BY o.user_id HAVING sum(o.amount) > " + threshold,
          "user_id"));
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
    views.add(new ViewCase("SELECT country, count(DISTINCT user_id) AS buyers, count(*) AS n FROM (SELECT "
        + "coalesce(u.country, 'none') AS country, o.user_id " + ordersUsers + ") GROUP BY country", "country"));
    // A left outer join's null group mapped below the GROUP BY: Hudi writes no row whose record key is null.
    views.add(new ViewCase("SELECT country, count(order_id) AS n, sum(amount) AS total FROM (SELECT "
        + "coalesce(u.country, 'none') AS country, o.order_id, o.amount FROM <TABLE:orders> o "
        + "LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id) GROUP BY country", "country"));
    // Groups with a NULL country: the record key (country, status) is never wholly NULL.
    views.add(new ViewCase("SELECT u.country, o.status, count(*) AS n " + ordersUsers + " GROUP BY u.country, o.status",
        "country", "status"));
    views.add(new ViewCase("SELECT c.region, sum(o.amount) AS total, count(*) AS n " + ordersUsers
        + " JOIN <TABLE:countries> c ON u.country = c.code GROUP BY c.region HAVING count(*) > 1", "region"));
    views.add(new ViewCase("SELECT o.status AS s, count(*) AS n, max(o.ts) AS last_ts FROM <TABLE:orders> o "
        + "GROUP BY o.status", "s"));
    views.add(new ViewCase("SELECT DISTINCT u.country, o.status " + ordersUsers, "country", "status"));
    views.add(new ViewCase("SELECT DISTINCT user_id FROM <TABLE:orders> WHERE amount > 20 AND user_id IS NOT NULL",
        "user_id"));
    views.add(new ViewCase("SELECT 'order' AS kind, order_id AS id, amount AS value FROM <TABLE:orders> UNION ALL "
        + "SELECT 'payment' AS kind, payment_id AS id, paid AS value FROM <TABLE:payments>", "kind", "id"));
    views.add(new ViewCase("SELECT buyer, sum(value) AS total, count(*) AS n FROM (SELECT coalesce(user_id, 'nobody') "
        + "AS buyer, amount AS value FROM <TABLE:orders> UNION ALL SELECT coalesce(o.user_id, 'nobody'), p.paid "
        + "FROM <TABLE:payments> p JOIN <TABLE:orders> o ON p.order_id = o.order_id) GROUP BY buyer", "buyer"));
    views.add(new ViewCase("SELECT 'big' AS kind, o.order_id, u.user_name " + ordersUsers + " WHERE o.amount > 60 "
        + "UNION ALL SELECT 'paid', o.order_id, u.user_name " + ordersUsers + " WHERE o.status = 'paid'",
        "kind", "order_id"));
    // N:M: orders and offers share the non-unique, nullable sku; a row is one order and one offer.
    views.add(new ViewCase("SELECT o.order_id, f.offer_id, o.amount, f.discount " + ordersOffers,
        "order_id", "offer_id"));
    views.add(new ViewCase("SELECT o.order_id, f.offer_id, u.user_name, u.country " + ordersOffers
        + " JOIN <TABLE:users> u ON o.user_id = u.user_id WHERE f.discount >= 20", "order_id", "offer_id"));
    views.add(new ViewCase("SELECT p.payment_id, f.offer_id, p.paid, f.discount FROM <TABLE:payments> p "
        + "JOIN <TABLE:orders> o ON p.order_id = o.order_id JOIN <TABLE:offers> f ON o.sku = f.sku",
        "payment_id", "offer_id"));
    views.add(new ViewCase("SELECT f.offer_id, count(*) AS n, sum(o.amount) AS total, min(o.amount) AS low, "
        + "max(o.amount) AS high " + ordersOffers + " GROUP BY f.offer_id HAVING count(*) > 20", "offer_id"));
    views.add(new ViewCase("SELECT u.country, f.offer_id, count(*) AS n, count(DISTINCT o.user_id) AS buyers, "
        + "avg(o.amount) AS mean " + ordersOffers + " JOIN <TABLE:users> u ON o.user_id = u.user_id "
        + "GROUP BY u.country, f.offer_id", "country", "offer_id"));
    views.add(new ViewCase("SELECT DISTINCT f.discount, o.status " + ordersOffers, "discount", "status"));
    views.add(new ViewCase("SELECT o.sku, o.status, count(*) AS n, avg(o.amount) AS mean, count(DISTINCT o.warehouse) "
        + "AS warehouses FROM <TABLE:orders> o GROUP BY o.sku, o.status", "sku", "status"));
    // stock's record key is (warehouse, sku): joined on both an N:1 join, on sku alone an N:M one.
    views.add(new ViewCase("SELECT o.order_id, o.sku, s.qty FROM <TABLE:orders> o LEFT JOIN <TABLE:stock> s "
        + "ON o.warehouse = s.warehouse AND o.sku = s.sku", "order_id"));
    views.add(new ViewCase("SELECT o.order_id, s.warehouse, s.qty, u.user_name FROM <TABLE:orders> o "
        + "JOIN <TABLE:stock> s ON o.warehouse = s.warehouse AND o.sku = s.sku JOIN <TABLE:users> u "
        + "ON o.user_id = u.user_id WHERE s.qty > 5", "order_id"));
    views.add(new ViewCase("SELECT o.order_id, s.warehouse, s.sku, s.qty FROM <TABLE:orders> o JOIN <TABLE:stock> s "
        + "ON o.sku = s.sku WHERE o.amount < 30", "order_id", "warehouse", "sku"));
    views.add(new ViewCase("SELECT s.warehouse, count(*) AS n, sum(s.qty) AS total, count(DISTINCT s.sku) AS skus "
        + "FROM <TABLE:stock> s GROUP BY s.warehouse", "warehouse"));
    views.add(new ViewCase("SELECT warehouse, count(*) AS n, sum(amount) AS total, max(amount) AS high FROM (SELECT "
        + "coalesce(o.warehouse, 0) AS warehouse, o.amount FROM <TABLE:orders> o) GROUP BY warehouse", "warehouse"));
    views.add(new ViewCase("SELECT 'stock' AS kind, s.warehouse AS n, s.sku, s.qty AS value FROM <TABLE:stock> s "
        + "UNION ALL SELECT 'offer', f.offer_id, f.sku, f.discount FROM <TABLE:offers> f", "kind", "n", "sku"));
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
    views.put("SELECT o.order_id, f.offer_id FROM <TABLE:orders> o LEFT JOIN <TABLE:offers> f ON o.sku = f.sku",
        "1:N left outer join");
    views.put("SELECT o.order_id, s.qty FROM <TABLE:orders> o LEFT JOIN <TABLE:stock> s ON o.sku = s.sku",
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
  private int nextOfferId = 1;
  private long ts;

  ViewWorkload(long seed) {
    this.random = new Random(seed);
    SCHEMAS.keySet().forEach(table -> tables.put(table, new TreeMap<>()));
    for (String code : Arrays.copyOf(COUNTRIES, 6)) {
      tables.get("countries").put(code, new Object[] {code, REGIONS[random.nextInt(REGIONS.length)]});
    }
    repeat(USERS, () -> insert("users"));
    repeat(OFFERS, () -> insert("offers"));
    repeat(STOCK, () -> insert("stock"));
    repeat(ORDERS, () -> insert("orders"));
    repeat(PAYMENTS, () -> insert("payments"));
  }

  private static void repeat(int times, Runnable action) {
    for (int i = 0; i < times; i++) {
      action.run();
    }
  }

  /** A copy of every table's rows, by table and the text of their key. */
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
      // Orders change most batches, by a few to a few dozen rows; the others less often, countries rarely.
      double odds = table.equals("orders") ? 0.9 : table.equals("countries") ? 0.15 : 0.45;
      if (random.nextDouble() >= odds) {
        continue;
      }
      changed.add(table);
      int operations = table.equals("orders") ? 2 + random.nextInt(24) : 1 + random.nextInt(table.equals("countries")
          ? 1 : 5);
      repeat(operations, () -> changeOne(table));
    }
    return changed;
  }

  private void changeOne(String table) {
    TreeMap<String, Object[]> rows = tables.get(table);
    int kind = random.nextInt(10);
    if (rows.isEmpty() || kind < 3) {
      insert(table);
    } else if (kind < 8) {
      update(table, pick(rows));
    } else {
      rows.remove(key(table, pick(rows)));
    }
  }

  private void update(String table, Object[] row) {
    switch (table) {
      case "orders":
        switch (random.nextInt(4)) {
          case 0:
            row[1] = someUserId();             // moved to another user, one that does not exist, or none
            break;
          case 1:
            row[2] = someAmount();
            row[3] = STATUSES[random.nextInt(STATUSES.length)];
            break;
          case 2:
            row[5] = someSku();
            break;
          default:
            row[6] = someWarehouse();
        }
        row[4] = ++ts;
        break;
      case "users":
        if (random.nextBoolean()) {
          row[1] = "name" + random.nextInt(50);   // renamed
        } else {
          row[2] = someCountry();
        }
        row[3] = ++ts;
        break;
      case "payments":
        row[1] = someOrderId();
        row[2] = random.nextInt(100);
        break;
      case "offers":
        if (random.nextBoolean()) {
          row[1] = someSku();
        } else {
          row[2] = someDiscount();
        }
        break;
      case "stock":
        row[2] = someQuantity();
        break;
      default:
        row[1] = REGIONS[random.nextInt(REGIONS.length)];
    }
  }

  private void insert(String table) {
    Object[] row;
    switch (table) {
      case "orders":
        row = new Object[] {"o" + nextId++, someUserId(), someAmount(), STATUSES[random.nextInt(STATUSES.length)], ++ts,
            someSku(), someWarehouse()};
        break;
      case "users":
        row = new Object[] {"u" + nextId++, "name" + random.nextInt(50), someCountry(), ++ts};
        break;
      case "payments":
        row = new Object[] {"p" + nextId++, someOrderId(), random.nextInt(100)};
        break;
      case "offers":
        row = new Object[] {nextOfferId++, someSku(), someDiscount()};
        break;
      case "stock":
        // An existing (warehouse, sku) is overwritten: an update.
        row = new Object[] {1 + random.nextInt(WAREHOUSES), "s" + random.nextInt(SKUS), someQuantity()};
        break;
      default:
        String code = COUNTRIES[random.nextInt(COUNTRIES.length)];
        row = new Object[] {code, REGIONS[random.nextInt(REGIONS.length)]};
    }
    tables.get(table).put(key(table, row), row);
  }

  private String someUserId() {
    TreeMap<String, Object[]> users = tables.get("users");
    int draw = random.nextInt(24);
    if (draw == 0) {
      return null;
    }
    return users.isEmpty() || draw < 4 ? "u" + random.nextInt(nextId + 1) : (String) pick(users)[0];
  }

  private String someOrderId() {
    TreeMap<String, Object[]> orders = tables.get("orders");
    return orders.isEmpty() || random.nextInt(8) == 0 ? "o" + random.nextInt(nextId + 1) : (String) pick(orders)[0];
  }

  private Integer someAmount() {
    return random.nextInt(12) == 0 ? null : random.nextInt(100);
  }

  private String someSku() {
    return random.nextInt(16) == 0 ? null : "s" + random.nextInt(SKUS);
  }

  private Integer someWarehouse() {
    return random.nextInt(16) == 0 ? null : 1 + random.nextInt(WAREHOUSES);
  }

  private String someCountry() {
    return random.nextInt(10) == 0 ? null : COUNTRIES[random.nextInt(COUNTRIES.length)];
  }

  private Integer someDiscount() {
    return random.nextInt(8) == 0 ? null : 5 * random.nextInt(10);
  }

  private Integer someQuantity() {
    return random.nextInt(10) == 0 ? null : random.nextInt(20);
  }

  private Object[] pick(TreeMap<String, Object[]> rows) {
    List<Object[]> all = new ArrayList<>(rows.values());
    return all.get(random.nextInt(all.size()));
  }

  /** The rows of a table's state {@code after} inserted or changed since its state {@code before}, by key. */
  static Map<String, Object[]> upserted(Map<String, Object[]> before, Map<String, Object[]> after) {
    Map<String, Object[]> upserted = new TreeMap<>();
    after.forEach((key, row) -> {
      if (!before.containsKey(key) || !Arrays.equals(before.get(key), row)) {
        upserted.put(key, row);
      }
    });
    return upserted;
  }

  /** The rows of a table's state {@code before} whose keys its state {@code after} does not hold, by key. */
  static Map<String, Object[]> deleted(Map<String, Object[]> before, Map<String, Object[]> after) {
    Map<String, Object[]> deleted = new TreeMap<>();
    before.forEach((key, row) -> {
      if (!after.containsKey(key)) {
        deleted.put(key, row);
      }
    });
    return deleted;
  }

  /** The text of a row's record key, by which the workload holds it. */
  static String key(String table, Object[] row) {
    return Arrays.stream(keyValues(table, row)).map(String::valueOf).collect(Collectors.joining("|"));
  }

  /** A row's record key: its values of the table's record key columns. */
  static Row keyRow(String table, Object[] row) {
    return RowFactory.create(keyValues(table, row));
  }

  /** The table's record key columns. */
  static StructType keySchema(String table) {
    StructType schema = new StructType();
    for (String column : KEYS.get(table)) {
      schema = schema.add(SCHEMAS.get(table).apply(column));
    }
    return schema;
  }

  private static Object[] keyValues(String table, Object[] row) {
    StructType schema = SCHEMAS.get(table);
    return KEYS.get(table).stream().map(column -> row[schema.fieldIndex(column)]).toArray();
  }

  /** A view's query, each &lt;TABLE:name&gt; bound to a temp view named after {@code name} and the table. */
  static ViewQuery query(SparkSession spark, String sql, String name) {
    return query(spark, sql, name, TABLE_NAMES);
  }

  /** A view's query over some tables, each &lt;TABLE:name&gt; bound to a temp view named after {@code name} and it. */
  static ViewQuery query(SparkSession spark, String sql, String name, List<String> tableNames) {
    Map<String, String> viewOfTable = new LinkedHashMap<>();
    SourcePlaceholders placeholders = new SourcePlaceholders(tableNames, tableNames.size());
    placeholders.referencesIn(sql).forEach(reference ->
        viewOfTable.put(tableNames.get(reference.index()), "view_diff_" + name + "_" + tableNames.get(reference.index())));
    Map<String, String> ordered = new LinkedHashMap<>();
    tableNames.stream().filter(viewOfTable::containsKey).forEach(table -> ordered.put(table, viewOfTable.get(table)));
    return new ViewQuery(spark, placeholders.bind(sql, reference -> viewOfTable.get(tableNames.get(reference.index()))),
        ordered);
  }

  static Dataset<Row> dataset(SparkSession spark, String table, Map<String, Object[]> rows) {
    List<Row> list = new ArrayList<>();
    rows.values().forEach(row -> list.add(RowFactory.create(row.clone())));
    return spark.createDataFrame(list, SCHEMAS.get(table));
  }
}
