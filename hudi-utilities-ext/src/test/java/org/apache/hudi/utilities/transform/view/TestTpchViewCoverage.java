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

import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.keygen.NonpartitionedKeyGenerator;
import org.apache.hudi.utilities.cli.ExplainCli;
import org.apache.hudi.utilities.config.HoodieViewConfig;
import org.apache.hudi.utilities.config.ViewStrategy;
import org.apache.hudi.utilities.testutils.CapturedRun;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.StreamerJob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * TPC-H's 22 queries as views over its 8 tables, written as Hudi tables at scale factor 0.01 (the tables and queries of
 * {@code io.trino.tpch}): what {@code explain} says a view of each query would do, kept in a table that a change of
 * coverage fails (docs/views.md, "TPC-H coverage", shows it); and, as a check of the harness itself, that each query
 * answers over the same tables what the library ships as its result.
 *
 * <p>Each query is the library's text with its tables written as &lt;TABLE:name&gt;, its header comment and final
 * semicolon dropped, and the edits Spark's dialect or a view's file needs (each named below, with why). Its view
 * drops the final ORDER BY (a target keeps no order) and LIMIT (a view holds every row its query ranks: the top N is a
 * read of the target).
 */
class TestTpchViewCoverage {

  private static final double SCALE_FACTOR = 0.01;
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The batch explained runs at a fixed time (no TPC-H query reads the time). */
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  /** Each table's record key: its primary key in TPC-H. */
  static final Map<String, List<String>> RECORD_KEYS = new LinkedHashMap<>();

  static {
    RECORD_KEYS.put("region", List.of("r_regionkey"));
    RECORD_KEYS.put("nation", List.of("n_nationkey"));
    RECORD_KEYS.put("supplier", List.of("s_suppkey"));
    RECORD_KEYS.put("customer", List.of("c_custkey"));
    RECORD_KEYS.put("part", List.of("p_partkey"));
    RECORD_KEYS.put("partsupp", List.of("ps_partkey", "ps_suppkey"));
    RECORD_KEYS.put("orders", List.of("o_orderkey"));
    RECORD_KEYS.put("lineitem", List.of("l_orderkey", "l_linenumber"));
  }

  private static final String INCREMENTAL = "incremental";
  private static final String RECOMPUTED = "full recompute (AUTO), refused (STRICT)";
  private static final String REJECTED = "rejected";
  private static final String FAILS_UNDER_AUTO = "refused (STRICT), fails (AUTO)";
  private static final String FROM_GROUP_STATE = "grouped, from the state of its groups";
  /** A join of tables no equality relates, in the order the query names them (Q8 and Q9: part, supplier). */
  private static final String CROSS_JOIN = "the join Join Inner has no equality between its two sides";
  private static final String SUBQUERY = "the WHERE or HAVING condition holds a subquery, whose tables' changes a view "
      + "cannot follow";
  /** An aggregate without GROUP BY (Q6, Q14, Q19): its one row's key is a value it computes. */
  private static final String ONE_ROW = "the aggregate has no GROUP BY";

  /**
   * The queries, each with its view's target key and what explain says of the view. The key is the query's GROUP BY
   * columns (the plugin keys a grouped view by all its group columns: c_custkey alone in Q10 is not accepted, though
   * it determines the others), else its output's natural key; a query of one row has none, and names its column.
   */
  private static final List<Query> QUERIES = List.of(
      new Query(1, "l_returnflag,l_linestatus").expect(INCREMENTAL, "grouped, its changed groups recomputed: its "
          + "column 'avg_qty' is neither a group column nor COUNT, COUNT(DISTINCT), SUM, AVG, MIN or MAX of a value"),
      new Query(2, "p_partkey,s_name").expect(RECOMPUTED, SUBQUERY),
      new Query(3, "l_orderkey,o_orderdate,o_shippriority").expect(INCREMENTAL, FROM_GROUP_STATE),
      new Query(4, "o_orderpriority").expect(RECOMPUTED, SUBQUERY),
      new Query(5, "n_name").expect(INCREMENTAL, FROM_GROUP_STATE),
      new Query(6, "revenue")
          .edit("decimal '0.06' - decimal '0.01' AND decimal '0.06' + decimal '0.01'", "0.06 - 0.01 AND 0.06 + 0.01",
              "its DECIMAL '0.06' literals written 0.06: Spark has no typed DECIMAL literal (0.06 is a decimal)")
          .expect(RECOMPUTED, ONE_ROW),
      new Query(7, "supp_nation,cust_nation,l_year").expect(RECOMPUTED, "the join Join Inner reads table(s) [nation] "
          + "on both sides"),
      new Query(8, "o_year").expect(RECOMPUTED, CROSS_JOIN),
      new Query(9, "nation,o_year").expect(RECOMPUTED, CROSS_JOIN),
      new Query(10, "c_custkey,c_name,c_acctbal,c_phone,n_name,c_address,c_comment")
          .expect(INCREMENTAL, FROM_GROUP_STATE),
      new Query(11, "ps_partkey").expect(RECOMPUTED, SUBQUERY),
      new Query(12, "l_shipmode").expect(INCREMENTAL, FROM_GROUP_STATE),
      new Query(13, "c_count").expect(RECOMPUTED, "the LEFT OUTER join Join LeftOuter does not join its right side "
          + "on one of the right side's keys"),
      new Query(14, "promo_revenue").expect(RECOMPUTED, ONE_ROW),
      new Query(15, "s_suppkey")
          .edit("CREATE OR REPLACE VIEW revenue AS", "WITH revenue AS (",
              "its CREATE VIEW revenue written as a WITH clause: a view's file holds one query")
          .edit("l_suppkey;\n\nSELECT", "l_suppkey)\nSELECT", "")
          .expect(RECOMPUTED, "WithCTE is not an operator a view can be maintained by incrementally"),
      new Query(16, "p_brand,p_type,p_size").expect(RECOMPUTED, SUBQUERY),
      new Query(17, "avg_yearly").expect(FAILS_UNDER_AUTO, ONE_ROW + "; under AUTO: the view's result holds a row "
          + "whose record key [avg_yearly] is null, which Hudi cannot write"),
      new Query(18, "c_name,c_custkey,o_orderkey,o_orderdate,o_totalprice").expect(RECOMPUTED, SUBQUERY),
      new Query(19, "revenue").expect(RECOMPUTED, ONE_ROW),
      new Query(20, "s_name").expect(RECOMPUTED, SUBQUERY),
      new Query(21, "s_name").expect(RECOMPUTED, SUBQUERY),
      new Query(22, "cntrycode").expect(RECOMPUTED, SUBQUERY));

  /** TPC-H's query of a number, as {@link #QUERIES} holds it. */
  static Query query(int number) {
    return QUERIES.stream().filter(query -> query.number == number).findFirst().get();
  }

  private static final String HEADER = "| query | target key | outcome | reason |\n| --- | --- | --- | --- |";

  @TempDir
  static Path dir;

  private static final Map<String, String> PATHS = new LinkedHashMap<>();
  /** Each table's first commit, its rows; the batch explained reads the second, which upserts one row as it was. */
  private static final Map<String, String> FIRST_COMMITS = new LinkedHashMap<>();

  @BeforeAll
  static void tpchTablesInHudi() {
    for (TpchTable<?> table : TpchTable.getTables()) {
      write(table);
    }
  }

  @AfterAll
  static void dropViews() {
    PATHS.keySet().forEach(table -> SharedSpark.session().catalog().dropTempView("tpch_" + table));
  }

  /** The harness: each query, with its ORDER BY and LIMIT, returns over the Hudi tables the rows the library ships. */
  @Test
  void everyQueryOverTheHudiTablesAnswersWhatTheLibraryShips() {
    List<String> differences = new ArrayList<>();
    for (Query query : QUERIES) {
      List<Row> actual = SharedSpark.session().sql(query.boundTo("tpch_")).collectAsList();
      String difference = query.libraryResult().differenceFrom(actual);
      System.out.printf("Q%d: %d rows, %s%n", query.number, actual.size(),
          difference.isEmpty() ? "the library's" : difference);
      if (!difference.isEmpty()) {
        differences.add("Q" + query.number + ": " + difference);
      }
    }
    assertEquals(List.of(), differences);
  }

  /** The coverage: what explain says of each query's view is what {@link #QUERIES} expects (docs/views.md). */
  @Test
  void everyQueryHasItsExpectedOutcome() {
    assertEquals(List.of(2, 3, 10, 18, 21), numbers(query -> query.droppedFromView().contains("LIMIT")),
        "the queries whose view drops a LIMIT");
    assertEquals(List.of(6, 14, 17, 19), numbers(query -> query.droppedFromView().isEmpty()),
        "the queries without ORDER BY");
    QUERIES.stream().filter(query -> !query.edits.isEmpty())
        .forEach(query -> System.out.printf("Q%d: %s%n", query.number, query.whyEdited()));

    List<String> actual = new ArrayList<>();
    for (Query query : QUERIES) {
      actual.add(query.row(outcome(query)));
    }
    System.out.println(HEADER + "\n" + String.join("\n", actual));

    assertEquals(QUERIES.stream().map(query -> query.row(query.expectedOutcome)).collect(Collectors.toList()), actual);
  }

  private static List<Integer> numbers(Predicate<Query> which) {
    return QUERIES.stream().filter(which).map(query -> query.number).collect(Collectors.toList());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // What explain says.
  // ---------------------------------------------------------------------------------------------------------------

  private static final String FAILS = "The batch would fail: Cannot ";
  private static final String SQL_FILE = "transform.sql";
  private static final String NOT_COMMITTED = ". Nothing was committed.";
  private static final String REFUSED_UNDER_STRICT = "refuses a full recompute: ";
  private static final String NO_STATE = "the view keeps no aggregate state: ";
  private static final String RECOMPUTED_UNDER_AUTO = "strategy AUTO: full recompute, because the query cannot be "
      + "maintained incrementally: ";

  /**
   * The outcome and reason of the query's view, from explain's answers: under STRICT, incremental (how, from its
   * steps), refused (the plan cannot be maintained incrementally), rejected (the view fails under any strategy: its
   * target key) or a crash (a failure that is not the product's "Cannot ..." with a reason); a refused view is
   * explained under AUTO too, which recomputes it in full for the same reason, or fails.
   */
  private static String outcome(Query query) {
    JsonNode strict = explain(query, ViewStrategy.STRICT);
    if (strict.get("error").isNull()) {
      String view = strict.get("view").asText();
      if (view.contains(NO_STATE)) {
        return INCREMENTAL + " | grouped, its changed groups recomputed: " + reason(between(view, NO_STATE, ";"));
      }
      return INCREMENTAL + " | " + (view.contains("aggregate state") ? FROM_GROUP_STATE
          : "joined, the rows of changed rows rewritten");
    }
    String error = strict.get("error").asText();
    if (!error.startsWith(FAILS) || !error.contains(SQL_FILE)) {
      return "crash | " + error;
    }
    if (!error.contains(REFUSED_UNDER_STRICT)) {
      return REJECTED + " | " + reason(error);
    }
    String refusal = reason(error);
    JsonNode auto = explain(query, ViewStrategy.AUTO);
    if (!auto.get("error").isNull()) {
      String autoError = auto.get("error").asText();
      return FAILS_UNDER_AUTO + " | " + refusal + "; under AUTO: "
          + (autoError.startsWith(FAILS) && autoError.contains(SQL_FILE) ? reason(autoError) : "crash: " + autoError);
    }
    String autoView = auto.get("view").asText();
    if (!autoView.startsWith(RECOMPUTED_UNDER_AUTO)
        || !reason(between(autoView, RECOMPUTED_UNDER_AUTO, "; steps: ")).equals(refusal)) {
      return "refused (STRICT) | " + refusal + "; under AUTO: " + autoView;
    }
    return RECOMPUTED + " | " + refusal;
  }

  /** What explain says of the batch of the query's view that reads each table's second commit. */
  private static JsonNode explain(Query query, ViewStrategy strategy) {
    Path jobDir = dir.resolve("q" + query.number + "-" + strategy.name().toLowerCase(Locale.ROOT));
    try {
      Files.createDirectories(jobDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String target = jobDir.resolve("target").toUri().toString();
    StreamerJob job = new StreamerJob(jobDir, target)
        .property("hoodie.streamer.source.multi.hudi.tables", String.join(",", query.tables()))
        .property("hoodie.datasource.write.recordkey.field", query.targetKey)
        .property(HoodieViewConfig.STRATEGY.key(), strategy.name())
        .orderingField(ViewDefinition.COMMIT_ORDER)
        .sql(query.view());
    query.tables().forEach(table -> job.property("hoodie.streamer.source.hudi." + table + ".path", PATHS.get(table)));
    job.arguments();
    String checkpoint = query.tables().stream().map(table -> table + "=" + FIRST_COMMITS.get(table))
        .collect(Collectors.joining(","));
    CapturedRun run = CapturedRun.of((out, err) -> ExplainCli.run(new String[] {"--props",
        job.propertiesFile().toUri().toString(), "--target-base-path", target, "--checkpoint", checkpoint,
        "--explain-mode", "simple", "--output", "json"}, out, err, CLOCK, SharedSpark::session));
    assertNotEquals(2, run.exitCode, run.toString());
    try {
      return JSON.readTree(run.output);
    } catch (IOException e) {
      throw new UncheckedIOException(run.toString(), e);
    }
  }

  private static String between(String text, String start, String end) {
    String rest = text.substring(text.indexOf(start) + start.length());
    return rest.contains(end) ? rest.substring(0, rest.indexOf(end)) : rest;
  }

  /**
   * The reason of a failure explain prints ("Cannot ... &lt;SQL file&gt; ...: reason. Nothing was committed."), or of
   * a decision, as the table shows it: without what it quotes in parentheses (plans, expressions, the supported
   * shapes; they name the batch's temp views and Spark's expression ids), up to its first colon.
   */
  static String reason(String message) {
    String text = message.contains(SQL_FILE) ? between(message.substring(message.indexOf(SQL_FILE)), ": ",
        NOT_COMMITTED) : message;
    StringBuilder kept = new StringBuilder();
    int depth = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      // A quote opens after a blank ("condition (...)", "Join LeftOuter, (...)"); a call's parenthesis does not.
      if (c == '(' && (depth > 0 || i == 0 || text.charAt(i - 1) == ' ')) {
        if (depth++ == 0) {
          kept.setLength(kept.toString().replaceAll(",?\\s*$", "").length());
        }
      } else if (c == ')' && depth > 0) {
        depth--;
      } else if (depth == 0) {
        kept.append(c);
      }
    }
    String shown = kept.toString().replaceAll("\\s+", " ");
    return (shown.contains(": ") ? shown.substring(0, shown.indexOf(": ")) : shown).trim();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The tables.
  // ---------------------------------------------------------------------------------------------------------------

  private static <E extends TpchEntity> void write(TpchTable<E> table) {
    String name = table.getTableName();
    StructType schema = schema(table);
    List<Row> rows = rows(table, SCALE_FACTOR);
    String path = dir.resolve(name).toUri().toString();
    SparkSession spark = SharedSpark.session();
    List<String> key = RECORD_KEYS.get(name);
    write(spark.createDataFrame(rows, schema), name, key, "bulk_insert", path);
    FIRST_COMMITS.put(name, HudiTables.lastCompletedInstant(path).get());
    // A commit that changes no value: the batch explained reads it, in which each table has one changed key.
    write(spark.createDataFrame(rows.subList(0, 1), schema), name, key, "upsert", path);
    PATHS.put(name, path);
    spark.read().format("hudi").load(path).drop(HoodieRecord.HOODIE_META_COLUMNS.toArray(new String[0]))
        .createOrReplaceTempView("tpch_" + name);
  }

  private static void write(Dataset<Row> rows, String name, List<String> key, String operation, String path) {
    rows.write().format("hudi")
        .option("hoodie.table.name", name)
        .option("hoodie.datasource.write.table.type", "COPY_ON_WRITE")
        .option("hoodie.datasource.write.operation", operation)
        .option("hoodie.datasource.write.recordkey.field", String.join(",", key))
        .option("hoodie.datasource.write.precombine.field", key.get(0))
        .option("hoodie.datasource.write.partitionpath.field", "")
        .option("hoodie.datasource.write.keygenerator.class", NonpartitionedKeyGenerator.class.getName())
        // Two commits a table: no table service is due, and none is looked for.
        .option("hoodie.metadata.enable", "false")
        .option("hoodie.clean.automatic", "false")
        .option("hoodie.archive.automatic", "false")
        .option("hoodie.embed.timeline.server", "false")
        .option("hoodie.write.markers.type", "DIRECT")
        .option("hoodie.bulkinsert.shuffle.parallelism", "2")
        .option("hoodie.upsert.shuffle.parallelism", "2")
        .mode(SaveMode.Append)
        .save(path);
  }

  /** A TPC-H table's columns, in Spark's types ({@link #sparkType}). */
  static <E extends TpchEntity> StructType schema(TpchTable<E> table) {
    StructType schema = new StructType();
    for (TpchColumn<E> column : table.getColumns()) {
      schema = schema.add(column.getColumnName(), sparkType(column), false);
    }
    return schema;
  }

  /** A TPC-H table's rows at a scale factor, as the library generates them, in the columns of {@link #schema}. */
  static <E extends TpchEntity> List<Row> rows(TpchTable<E> table, double scaleFactor) {
    List<Row> rows = new ArrayList<>();
    for (E entity : table.createGenerator(scaleFactor, 1, 1)) {
      Object[] values = table.getColumns().stream().map(column -> value(column, entity)).toArray();
      rows.add(RowFactory.create(values));
    }
    return rows;
  }

  /** TPC-H's types: identifiers as BIGINT, money and quantities DECIMAL(15,2) (the library has them as doubles). */
  private static DataType sparkType(TpchColumn<?> column) {
    switch (column.getType().getBase()) {
      case IDENTIFIER:
        return DataTypes.LongType;
      case INTEGER:
        return DataTypes.IntegerType;
      case DATE:
        return DataTypes.DateType;
      case DOUBLE:
        return DataTypes.createDecimalType(15, 2);
      case VARCHAR:
        return DataTypes.StringType;
      default:
        throw new IllegalArgumentException("no type for " + column.getColumnName());
    }
  }

  private static <E extends TpchEntity> Object value(TpchColumn<E> column, E entity) {
    switch (column.getType().getBase()) {
      case IDENTIFIER:
        return column.getIdentifier(entity);
      case INTEGER:
        return column.getInteger(entity);
      case DATE:
        return java.sql.Date.valueOf(LocalDate.ofEpochDay(column.getDate(entity)));
      case DOUBLE:
        // Cents as the generator makes them; UNNECESSARY fails on a value that is not.
        return BigDecimal.valueOf(column.getDouble(entity)).setScale(2, RoundingMode.UNNECESSARY);
      case VARCHAR:
        return column.getString(entity);
      default:
        throw new IllegalArgumentException("no value for " + column.getColumnName());
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The queries.
  // ---------------------------------------------------------------------------------------------------------------

  private static final Pattern TABLE = Pattern.compile(
      "(\\bFROM|\\bJOIN|,)(\\s+)(lineitem|orders|customer|partsupp|part|supplier|nation|region)\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern PLACEHOLDER = Pattern.compile("<TABLE:(\\w+)>");
  private static final Pattern FINAL_ORDER_BY = Pattern.compile("\\s*\\bORDER\\s+BY\\b[^()]*$",
      Pattern.CASE_INSENSITIVE);

  /** A TPC-H query of the library, in Spark's dialect, over placeholders; its view's key and expected outcome. */
  static final class Query {
    final int number;
    final String targetKey;
    private final List<String[]> edits = new ArrayList<>();
    private String expectedOutcome;

    Query(int number, String targetKey) {
      this.number = number;
      this.targetKey = targetKey;
    }

    /** An edit of the library's text, and why (empty for the second part of an edit already explained). */
    Query edit(String from, String to, String why) {
      edits.add(new String[] {from, to, why});
      return this;
    }

    /** What explain says of the query's view: its outcome, and the product's reason. */
    Query expect(String outcome, String reason) {
      expectedOutcome = outcome + " | " + reason;
      return this;
    }

    String whyEdited() {
      return edits.stream().map(edit -> edit[2]).filter(why -> !why.isEmpty()).collect(Collectors.joining("; "));
    }

    /** The row of the coverage table, with an outcome and reason. */
    String row(String outcome) {
      return "| Q" + number + " | " + targetKey.replace(",", ", ") + " | " + outcome + " |";
    }

    /** The query as Spark runs it, its tables as placeholders, with its ORDER BY and LIMIT. */
    String sql() {
      String text = resource("q" + number + ".sql");
      text = text.substring(text.indexOf('\n') + 1);
      for (String[] edit : edits) {
        if (!text.contains(edit[0])) {
          throw new IllegalStateException("Q" + number + " holds no '" + edit[0] + "'");
        }
        text = text.replace(edit[0], edit[1]);
      }
      text = TABLE.matcher(text).replaceAll("$1$2<TABLE:$3>").trim();
      return text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
    }

    /** The view's query: without the final ORDER BY and LIMIT. */
    String view() {
      return FINAL_ORDER_BY.matcher(sql()).replaceAll("");
    }

    /** The final ORDER BY and LIMIT the view drops; empty if the query has none. */
    String droppedFromView() {
      return sql().substring(view().length()).trim();
    }

    /** The tables the query reads, in the order it names them first. */
    List<String> tables() {
      Set<String> tables = new LinkedHashSet<>();
      Matcher matcher = PLACEHOLDER.matcher(sql());
      while (matcher.find()) {
        tables.add(matcher.group(1));
      }
      return new ArrayList<>(tables);
    }

    String boundTo(String prefix) {
      return PLACEHOLDER.matcher(sql()).replaceAll(prefix + "$1");
    }

    ExpectedResult libraryResult() {
      return new ExpectedResult(resource("q" + number + ".result"));
    }
  }

  private static String resource(String name) {
    try (InputStream in = TpchTable.class.getResourceAsStream("queries/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A query's result as the library ships it: a header line, then a row a line, its values separated by '|' (a
   * trailing one on some lines), in the order of the query's ORDER BY. A number is printed either whole, without a
   * decimal point (counts, years, a share of 0, and sums whose decimals are all zeros: Q1 prints one sum of
   * quantities as 380456 and the next as 8971.00), and then equals Spark's exactly; or rounded to the decimals it
   * shows (Q1's averages to 2, Q14's share to 13), and then matches Spark's when the two differ by no more than half a
   * unit of the last digit of each (Spark rounds its decimals to their scale too: Q14's to 6; a double is taken as
   * exact).
   */
  static final class ExpectedResult {
    private final List<String[]> rows = new ArrayList<>();

    ExpectedResult(String text) {
      for (String line : text.split("\n")) {
        if (line.startsWith("--") || line.trim().isEmpty()) {
          continue;
        }
        String values = line.endsWith("|") ? line.substring(0, line.length() - 1) : line;
        rows.add(values.split("\\|", -1));
      }
    }

    /** How the actual rows differ from these, in order; empty if they do not. */
    String differenceFrom(List<Row> actual) {
      if (actual.size() != rows.size()) {
        return String.format("%d rows, expected %d: %s", actual.size(), rows.size(), actual);
      }
      for (int i = 0; i < rows.size(); i++) {
        String[] expected = rows.get(i);
        Row row = actual.get(i);
        if (row.size() != expected.length) {
          return String.format("row %d has %d columns, expected %d: %s", i, row.size(), expected.length, row);
        }
        for (int c = 0; c < expected.length; c++) {
          if (!matches(expected[c], row.get(c))) {
            return String.format("row %d column %d is %s, expected %s: %s vs %s", i, c, row.get(c), expected[c], row,
                Arrays.toString(expected));
          }
        }
      }
      return "";
    }

    private static boolean matches(String expected, Object actual) {
      if (actual == null) {
        return expected.equals("null");
      }
      if (actual instanceof Number) {
        BigDecimal wanted = new BigDecimal(expected);
        BigDecimal value = actual instanceof BigDecimal ? (BigDecimal) actual : new BigDecimal(actual.toString());
        if (!expected.contains(".")) {
          return wanted.compareTo(value) == 0;
        }
        BigDecimal tolerance = halfUnit(wanted).add(actual instanceof BigDecimal ? halfUnit(value) : BigDecimal.ZERO);
        return wanted.subtract(value).abs().compareTo(tolerance) <= 0;
      }
      return expected.equals(actual.toString());
    }

    private static BigDecimal halfUnit(BigDecimal number) {
      return BigDecimal.ONE.movePointLeft(Math.max(number.scale(), 0)).divide(BigDecimal.valueOf(2));
    }
  }
}
