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

package org.apache.hudi.utilities.docs;

import org.apache.hudi.utilities.testutils.Deployment;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.SparkSubmitLauncher;

import org.apache.spark.deploy.SparkSubmit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's "Use it in your pipeline" section works as a user copies it: its spark-submit command, its properties
 * file and its SQL file, read from README.md, run the stock HoodieStreamer in a JVM of its own over two Hudi tables,
 * and the target then holds exactly the rows of the README's query over those tables, after a first run and after a
 * run over updates and deletes. Only what a user must change is changed: the README's {@code /data/} and
 * {@code /jobs/} folders become a temporary folder, its jar names the jars of this build.
 */
class TestReadmePipeline {

  private static final String SECTION = "## Use it in your pipeline";
  private static final Pattern PLACEHOLDER = Pattern.compile("<TABLE:(\\w+)>");
  private static final String[] TARGET_COLUMNS = {"order_id", "user_id", "amount", "user_name", "ts"};
  private static final long RUN_TIMEOUT_SECONDS = 600;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void theReadmesPipelineKeepsTheTargetEqualToItsQueryThroughInsertsUpdatesAndDeletes() throws Exception {
    String readme = new String(Files.readAllBytes(MarkdownLinkChecker.repositoryRoot().resolve("README.md")),
        StandardCharsets.UTF_8);
    String section = readme.substring(readme.indexOf(SECTION));
    String command = codeBlock(section, "bash");
    String properties = codeBlock(section, "properties");
    String query = codeBlock(section, "sql");
    Path data = Files.createDirectories(dir.resolve("data"));
    Path jobs = Files.createDirectories(dir.resolve("jobs"));
    Files.write(dir.resolve("multi-table.properties"), local(properties).getBytes(StandardCharsets.UTF_8));
    Files.write(jobs.resolve("join.sql"), query.getBytes(StandardCharsets.UTF_8));
    String orders = data.resolve("orders").toUri().toString();
    String users = data.resolve("users").toUri().toString();
    String target = data.resolve("joined").toUri().toString();

    String firstOrders = HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L), order("o3", "u9", 30.0, 1L));
    String firstUsers = HudiTables.upsert(users, "users", "MERGE_ON_READ", "user_id", USERS,
        user("u1", "alice", 1L), user("u2", "bob", 1L));
    submit(command, "first");

    assertCheckpoint("orders=" + firstOrders + ",users=" + firstUsers, target);
    assertEquals(queryOver(query, orders, users), targetRows(target));
    assertEquals(3, targetRows(target).size(), "o3's user u9 does not exist: the LEFT JOIN keeps it");

    HudiTables.upsert(users, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alicia", 2L),
        user("u9", "zoe", 2L));
    HudiTables.delete(users, "users", "MERGE_ON_READ", "user_id", USERS, user("u2", "bob", 1L));
    HudiTables.delete(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 10.0, 1L));
    String lastOrders = HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o4", "u1", 40.0, 2L), order("o2", "u2", 25.0, 2L));
    String lastUsers = HudiTables.lastCompletedInstant(users).get();
    submit(command, "second");

    assertCheckpoint("orders=" + lastOrders + ",users=" + lastUsers, target);
    assertEquals(Arrays.asList("[o2,u2,25.0,null,2]", "[o3,u9,30.0,zoe,1]", "[o4,u1,40.0,alicia,2]"),
        targetRows(target));
    assertEquals(queryOver(query, orders, users), targetRows(target));
  }

  /** The target's checkpoint holds these positions and, the README's SQL being a view, its definition's fingerprint. */
  private static void assertCheckpoint(String positions, String target) {
    String checkpoint = HudiTables.lastCheckpoint(target);
    assertTrue(checkpoint.matches(Pattern.quote(positions) + ",@view=[0-9a-f]{16}"), checkpoint);
  }

  /** The first fenced block of the given language after the section heading, without its fences. */
  private static String codeBlock(String section, String language) {
    String fence = "```" + language + "\n";
    int start = section.indexOf(fence);
    assertTrue(start >= 0, "README.md's section '" + SECTION + "' has no ```" + language + " block");
    return section.substring(start + fence.length(), section.indexOf("```", start + fence.length()));
  }

  /** The README's folders, in this test's temporary folder. */
  private String local(String text) {
    String data = dir.resolve("data").toUri().toString().replaceAll("/$", "");
    return text.replace("/data/", data + "/").replace("/jobs/", dir.resolve("jobs") + "/");
  }

  /**
   * Runs the README's spark-submit command as the spark-submit script would ({@code java ... SparkSubmit} with a Spark
   * distribution's jars on the classpath, the Hudi bundles and the plugin coming from the command), from this test's
   * folder, and waits for it to succeed.
   */
  private void submit(String command, String run) throws Exception {
    List<String> words = Arrays.stream(command.replace("\\\n", " ").trim().split("\\s+")).collect(Collectors.toList());
    assertEquals("spark-submit", words.get(0), "the README's pipeline command is not a spark-submit command");
    List<String> launch = new ArrayList<>(Arrays.asList(Deployment.java(), "-Xmx1g"));
    launch.addAll(Deployment.java17Options());
    launch.addAll(Arrays.asList("-cp", Deployment.sparkDistribution().stream().map(Path::toString)
        .collect(Collectors.joining(File.pathSeparator)), SparkSubmit.class.getName()));
    // Two cores: the default of 200 shuffle partitions only slows a few rows down.
    launch.addAll(Arrays.asList("--master", "local[2]", "--conf", "spark.sql.shuffle.partitions=2"));
    words.stream().skip(1).map(this::deployed).forEach(launch::add);
    Path log = dir.resolve(run + "-run.log");
    Process process = new ProcessBuilder(launch).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    assertTrue(process.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS), "the " + run + " run did not end in "
        + RUN_TIMEOUT_SECONDS + " s; last output:\n" + SparkSubmitLauncher.tail(log, 60));
    assertEquals(0, process.exitValue(), "the " + run + " run failed; last output:\n" + SparkSubmitLauncher.tail(log, 60));
  }

  /** A word of the command with the README's jar names as the jars of this build and its folders in this test's. */
  private String deployed(String word) {
    String jars = Arrays.stream(word.split(",")).map(name -> {
      if (name.startsWith("hudi-spark3.4-bundle_")) {
        return Deployment.sparkBundle().toString();
      } else if (name.startsWith("hudi-utilities-ext_")) {
        return Deployment.pluginJar().toString();
      } else if (name.startsWith("hudi-utilities-slim-bundle_")) {
        return Deployment.utilitiesBundle().toString();
      }
      return name;
    }).collect(Collectors.joining(","));
    return local(jars);
  }

  /** The README's query over the tables as they are now, run by Spark itself: what the target must hold. */
  private static List<String> queryOver(String query, String orders, String users) {
    SparkSession spark = SharedSpark.session();
    Matcher placeholder = PLACEHOLDER.matcher(query);
    StringBuffer sql = new StringBuffer();
    while (placeholder.find()) {
      String table = placeholder.group(1);
      String view = "readme_" + table;
      spark.read().format("hudi").load(table.equals("orders") ? orders : users).createOrReplaceTempView(view);
      placeholder.appendReplacement(sql, view);
    }
    placeholder.appendTail(sql);
    return sorted(spark.sql(sql.toString()).selectExpr(TARGET_COLUMNS).collectAsList());
  }

  private static List<String> targetRows(String target) {
    return sorted(SharedSpark.session().read().format("hudi").load(target).selectExpr(TARGET_COLUMNS).collectAsList());
  }

  private static List<String> sorted(List<Row> rows) {
    return rows.stream().map(Row::toString).sorted().collect(Collectors.toList());
  }
}
