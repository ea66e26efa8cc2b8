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

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a file of Spark SQL statements on a local Hudi-enabled Spark session: the demo's way to write and read Hudi
 * tables without a Spark distribution.
 *
 * <pre>
 * java &lt;Java 17 --add-opens flags&gt; -cp &lt;Spark + Hudi classpath&gt; demo/RunSparkSql.java file.sql [KEY=VALUE]...
 * </pre>
 *
 * <p>Every {@code ${KEY}} of the file is replaced by its VALUE (an unknown {@code ${UPPER_CASE}} token is an error);
 * statements are separated by {@code ;} outside quotes and comments and run in order; the rows of each query are
 * printed with {@code show(100, false)}. If {@code DEMO_DIR} is given, the Spark warehouse is
 * {@code ${DEMO_DIR}/spark-warehouse}. Exits with status 1 at the first failing statement.
 */
public class RunSparkSql {

  private static final Pattern TOKEN = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Pattern QUERY = Pattern.compile("^(SELECT|WITH|SHOW|DESC|DESCRIBE|VALUES|TABLE)\\b",
      Pattern.CASE_INSENSITIVE);

  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println("Usage: RunSparkSql.java <file.sql> [KEY=VALUE]...");
      System.exit(2);
    }
    Map<String, String> variables = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq <= 0) {
        System.err.println("Not a KEY=VALUE argument: " + args[i]);
        System.exit(2);
      }
      variables.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }

    Path file = Paths.get(args[0]);
    List<String> statements;
    try {
      statements = split(substitute(Files.readString(file, StandardCharsets.UTF_8), variables));
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("Cannot read SQL file " + file + ": " + e.getMessage());
      System.exit(1);
      return;
    }

    SparkSession spark = null;
    String failing = null;
    int status = 0;
    try {
      spark = session(variables.get("DEMO_DIR"));
      for (String statement : statements) {
        failing = statement;
        String code = withoutLeadingComments(statement);
        System.out.println("spark-sql> " + abbreviate(code));
        Dataset<Row> result = spark.sql(statement);
        if (QUERY.matcher(code).find()) {
          result.show(100, false);
        }
      }
    } catch (Throwable e) {
      e.printStackTrace();
      System.err.println("FAILED: " + file + (failing == null ? "" : ", statement: " + abbreviate(
          withoutLeadingComments(failing))));
      status = 1;
    } finally {
      if (spark != null) {
        spark.stop();
      }
    }
    System.exit(status);
  }

  private static SparkSession session(String demoDir) {
    SparkSession.Builder builder = SparkSession.builder()
        .master("local[2]")
        .appName("hudi-utilities-ext-demo-sql")
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
        .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.hudi.catalog.HoodieCatalog")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.driver.host", "127.0.0.1");
    if (demoDir != null) {
      builder.config("spark.sql.warehouse.dir", Paths.get(demoDir, "spark-warehouse").toUri().toString());
    }
    return builder.getOrCreate();
  }

  /** Replaces every {@code ${KEY}}; fails on a token without a value, so that no path is silently left out. */
  static String substitute(String sql, Map<String, String> variables) {
    Matcher matcher = TOKEN.matcher(sql);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String value = variables.get(matcher.group(1));
      if (value == null) {
        throw new IllegalArgumentException("no value for " + matcher.group() + " (pass " + matcher.group(1)
            + "=... after the file name)");
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    matcher.appendTail(out);
    return out.toString();
  }

  /** Splits on ';' outside quotes, backquotes and comments; drops statements that hold only comments. */
  static List<String> split(String sql) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int end = i + 1;
      if (c == '\'' || c == '"' || c == '`') {
        end = i + 1;
        while (end < sql.length() && sql.charAt(end) != c) {
          end += (sql.charAt(end) == '\\' && c != '`') ? 2 : 1;
        }
        end = Math.min(end + 1, sql.length());
      } else if (sql.startsWith("--", i)) {
        int newline = sql.indexOf('\n', i);
        end = newline < 0 ? sql.length() : newline + 1;
      } else if (sql.startsWith("/*", i)) {
        int close = sql.indexOf("*/", i + 2);
        end = close < 0 ? sql.length() : close + 2;
      } else if (c == ';') {
        add(statements, current.toString());
        current.setLength(0);
        i++;
        continue;
      }
      current.append(sql, i, end);
      i = end;
    }
    add(statements, current.toString());
    return statements;
  }

  private static void add(List<String> statements, String statement) {
    if (!withoutLeadingComments(statement).isEmpty()) {
      statements.add(statement.trim());
    }
  }

  private static String withoutLeadingComments(String statement) {
    String rest = statement.trim();
    while (rest.startsWith("--") || rest.startsWith("/*")) {
      boolean line = rest.startsWith("--");
      int end = line ? rest.indexOf('\n') : rest.indexOf("*/");
      rest = end < 0 ? "" : rest.substring(end + (line ? 1 : 2)).trim();
    }
    return rest;
  }

  /** The statement on one line, shortened: enough to follow the output. */
  private static String abbreviate(String code) {
    String oneLine = code.replaceAll("\\s+", " ").trim();
    return oneLine.length() <= 150 ? oneLine : oneLine.substring(0, 147) + "...";
  }
}
