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

package org.apache.hudi.utilities.cli;

import org.apache.hudi.utilities.testutils.CapturedRun;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsersPipeline;
import org.apache.hudi.utilities.testutils.SharedSpark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Explain over a real pipeline: the windows, alignment, placeholder bindings and Spark plan of the next batch, from the
 * stored checkpoint or a {@code --checkpoint} override, with nothing written to the target.
 */
class TestExplainCli extends OrdersAndUsersPipeline {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String SQL =
      "SELECT o.order_id, o.user_id, o.amount, u.user_name, o.ts FROM <SRC:orders> o JOIN <SNAP:users> u\n"
      + "ON o.user_id = u.user_id\n"
      + "UNION ALL\n"
      + "SELECT o.order_id, o.user_id, o.amount, u.user_name, o.ts FROM <SNAP:orders> o JOIN <SRC_1> u\n"
      + "ON o.user_id = u.user_id\n"
      + "UNION ALL\n"
      + "-- orders deleted since the previous batch\n"
      + "SELECT p.order_id, p.user_id, p.amount, CAST(NULL AS STRING), p.ts\n"
      + "FROM <PREV:orders> p LEFT ANTI JOIN <SNAP:orders> s ON p.order_id = s.order_id";

  TestExplainCli() {
    super("joined");
  }

  @BeforeEach
  void explainedJob() {
    job.sql(SQL);
  }

  @Test
  void explainNamesEachTablesWindowTheBindingsAndThePlanAndWritesNothing() throws Exception {
    String orders1 = tables.orders(order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    String orders2 = tables.orders(order("o2", "u1", 2.0, 2L));
    String users2 = tables.users(user("u2", "bob", 2L));
    String orders3 = tables.orders(order("o3", "u2", 3.0, 3L));
    List<String> targetInstants = HudiTables.allInstants(tables.targetPath);
    List<String> targetFiles = files(tables.targetPath);

    CapturedRun stored = run("--props", props, "--target-base-path", tables.targetPath);
    assertEquals(0, stored.exitCode, stored.output);
    assertContains(stored, "the batch resumes from the stored checkpoint 'orders=" + orders1 + ",users=" + users1 + "'");
    assertContains(stored, "Alignment: NONE");
    assertContains(stored, "Table orders (" + tables.ordersPath + "): position " + orders1 + "\n  window (" + orders1
        + ", " + orders3 + "], 2 instants: [" + orders2 + ", " + orders3 + "]; 2 files, ");
    assertContains(stored, "Table users (" + tables.usersPath + "): position " + users1 + "\n  window (" + users1
        + ", " + users2 + "], 1 instants: [" + users2 + "]; ");
    assertContains(stored, "Next checkpoint: 'orders=" + orders3 + ",users=" + users2 + "'");
    assertContains(stored, "  <SRC:orders>  -> rows of orders read in (" + orders1 + ", " + orders3 + "]\n"
        + "  <SNAP:users>  -> users as of " + users2 + " (its position after this batch)\n"
        + "  <SNAP:orders> -> orders as of " + orders3 + " (its position after this batch)\n"
        + "  <SRC_1>       -> rows of users read in (" + users1 + ", " + users2 + "]\n"
        + "  <PREV:orders> -> orders as of " + orders1 + " (its position before this batch)\n");
    assertContains(stored, "Spark plan of its last statement (explain mode extended):\n== Parsed Logical Plan ==");
    assertContains(stored, "== Physical Plan ==");
    assertTrue(stored.output.matches("(?s).*== Physical Plan ==.*Join.*"), stored.output);
    assertEquals("", stored.errors);

    // The same explanation as one JSON document, field by field.
    CapturedRun asJson = run("--props", props, "--target-base-path", tables.targetPath, "--output", "json");
    assertEquals(0, asJson.exitCode, asJson.toString());
    assertEquals("", asJson.errors);
    JsonNode json = JSON.readTree(asJson.output);
    assertEquals(tables.targetPath, json.get("target_base_path").asText());
    assertEquals("orders=" + orders1 + ",users=" + users1, json.get("stored_checkpoint").asText());
    assertEquals(HudiTables.lastCompletedInstant(tables.targetPath).get(), json.get("stored_commit").asText());
    assertEquals("stored_checkpoint", json.get("resumes_from").asText());
    assertEquals("orders=" + orders1 + ",users=" + users1, json.get("resume_checkpoint").asText());
    assertEquals("NONE", json.get("alignment").get("mode").asText());
    JsonNode orders = json.get("tables").get(0);
    assertEquals("orders", orders.get("table").asText());
    assertEquals(tables.ordersPath, orders.get("path").asText());
    assertTrue(orders.get("hudi_table").asBoolean());
    assertEquals(orders1, orders.get("position").asText());
    assertEquals(orders1, orders.get("window").get("from_exclusive").asText());
    assertEquals(orders3, orders.get("window").get("to_inclusive").asText());
    assertEquals(List.of(orders2, orders3), strings(orders.get("window").get("instants")));
    assertEquals(2, orders.get("window").get("files").asInt());
    assertTrue(orders.get("window").get("bytes").asLong() > 0, orders.toString());
    assertTrue(orders.get("planned_window").isNull(), orders.toString());
    assertEquals(List.of(users2), strings(json.get("tables").get(1).get("window").get("instants")));
    assertFalse(json.get("caught_up").asBoolean());
    assertEquals("orders=" + orders3 + ",users=" + users2, json.get("next_checkpoint").asText());
    assertTrue(json.get("sql_file").asText().endsWith(".sql"), json.get("sql_file").asText());
    JsonNode firstBinding = json.get("bindings").get(0);
    assertEquals("<SRC:orders>", firstBinding.get("placeholder").asText());
    assertEquals("orders", firstBinding.get("table").asText());
    assertEquals("SRC", firstBinding.get("kind").asText());
    assertEquals("rows of orders read in (" + orders1 + ", " + orders3 + "]", firstBinding.get("binding").asText());
    assertEquals(5, json.get("bindings").size());
    assertTrue(json.get("view").isNull());
    assertEquals("extended", json.get("explain_mode").asText());
    assertTrue(json.get("plan").asText().contains("== Physical Plan =="), json.get("plan").asText());
    assertTrue(json.get("error").isNull());

    // The Streamer's --checkpoint: orders moved back one commit, users to its latest commit.
    CapturedRun override = run("--props", props, "--target-base-path", tables.targetPath,
        "--checkpoint", "orders=" + orders2 + ",users=LATEST", "--explain-mode", "simple");
    assertEquals(0, override.exitCode, override.output);
    assertContains(override, "the batch resumes from --checkpoint 'orders=" + orders2 + ",users=LATEST'");
    assertContains(override, "position " + orders2 + "\n  window (" + orders2 + ", " + orders3 + "], 1 instants: ["
        + orders3 + "]; 1 files, ");
    assertContains(override, "position " + users2 + "\n  window: nothing new after " + users2 + "\n");
    assertContains(override, "  <SRC_1>       -> rows of users: none (nothing new after " + users2 + ")\n"
        + "  <PREV:orders> -> orders as of " + orders2 + " (its position before this batch)\n");
    assertContains(override, "Next checkpoint: 'orders=" + orders3 + ",users=" + users2 + "'");
    assertContains(override, "Spark plan of its last statement (explain mode simple):\n== Physical Plan ==");

    // Aligned on commit time, orders stops at users' newest commit and reads orders3 in a later batch.
    job.property("hoodie.streamer.source.multi.hudi.alignment", "COMMIT_TIME_CEILING").arguments();
    CapturedRun aligned = run("--props", props, "--target-base-path", tables.targetPath);
    assertEquals(0, aligned.exitCode, aligned.output);
    assertContains(aligned, "Alignment: COMMIT_TIME_CEILING, ceiling " + users2 + "; tables cut at the ceiling (the "
        + "rest in a later batch): [orders]; idle tables");
    assertContains(aligned, "position " + orders1 + "\n  planned window (" + orders1 + ", " + orders3 + "], 2 instants, "
        + "cut at the alignment ceiling\n  window (" + orders1 + ", " + orders2 + "], 1 instants: [" + orders2 + "]");
    assertContains(aligned, "Next checkpoint: 'orders=" + orders2 + ",users=" + users2 + "'");
    JsonNode alignedJson = JSON.readTree(run("--props", props, "--target-base-path", tables.targetPath, "--output",
        "json").output);
    assertEquals("COMMIT_TIME_CEILING", alignedJson.get("alignment").get("mode").asText());
    assertEquals(users2, alignedJson.get("alignment").get("ceiling").asText());
    assertEquals(List.of("orders"), strings(alignedJson.get("alignment").get("cut_tables")));
    assertTrue(alignedJson.get("alignment").get("idle_timeout_seconds").isNumber(), alignedJson.toString());
    JsonNode cut = alignedJson.get("tables").get(0);
    assertEquals(List.of(orders2), strings(cut.get("window").get("instants")));
    assertEquals(orders3, cut.get("planned_window").get("to_inclusive").asText());
    assertEquals(List.of(orders2, orders3), strings(cut.get("planned_window").get("instants")));

    assertEquals(targetInstants, HudiTables.allInstants(tables.targetPath), "no instant was started");
    assertEquals(targetFiles, files(tables.targetPath), "no file was written, changed or removed");

    // The Streamer run with that --checkpoint commits what explain said; explained again, the override is spent.
    job.withoutProperty("hoodie.streamer.source.multi.hudi.alignment").checkpoint("orders=" + orders2 + ",users=LATEST")
        .syncInProcess();
    assertEquals("orders=" + orders3 + ",users=" + users2, HudiTables.lastCheckpoint(tables.targetPath));
    CapturedRun spent = run("--props", props, "--target-base-path", tables.targetPath,
        "--checkpoint", "orders=" + orders2 + ",users=LATEST");
    assertContains(spent, "the batch resumes from the stored checkpoint, as commit "
        + HudiTables.lastCompletedInstant(tables.targetPath).get() + " applied this --checkpoint already 'orders="
        + orders3 + ",users=" + users2 + "'");
    assertContains(spent, "Next checkpoint: none; every table is caught up, so the Streamer skips the round");
    JsonNode spentJson = JSON.readTree(run("--props", props, "--target-base-path", tables.targetPath, "--checkpoint",
        "orders=" + orders2 + ",users=LATEST", "--output", "json").output);
    assertEquals("stored_checkpoint_override_applied", spentJson.get("resumes_from").asText());
    assertTrue(spentJson.get("caught_up").asBoolean());
    assertTrue(spentJson.get("next_checkpoint").isNull());
  }

  @Test
  void helpAndBadArgumentsAnswerWithoutStartingSpark() {
    Supplier<SparkSession> noSpark = () -> {
      throw new AssertionError("Spark was started");
    };
    CapturedRun help = CapturedRun.of((out, err) -> ExplainCli.run(new String[] {"--help"}, out, err,
        Clock.systemUTC(), noSpark));
    assertEquals(0, help.exitCode, help.toString());
    assertTrue(help.output.contains("Usage: explain") && help.output.contains("--explain-mode")
        && help.output.contains("--output"), help.output);
    assertEquals("", help.errors);

    // No --target-base-path, an unknown explain mode, an unknown output format.
    for (List<String> bad : List.of(List.of("--props", props), List.of("--props", props, "--target-base-path",
        tables.targetPath, "--explain-mode", "verbose"), List.of("--props", props, "--target-base-path",
        tables.targetPath, "--output", "xml"))) {
      CapturedRun refused = CapturedRun.of((out, err) -> ExplainCli.run(bad.toArray(new String[0]), out, err,
          Clock.systemUTC(), noSpark));
      assertEquals(2, refused.exitCode, bad + ": " + refused);
      assertEquals("", refused.output, bad.toString());
      assertTrue(refused.errors.startsWith("Cannot explain the batch: ") && refused.errors.endsWith(")\n")
          && refused.errors.indexOf("Cannot") == refused.errors.lastIndexOf("Cannot"), bad + ": " + refused.errors);
    }
  }

  @Test
  void explainOfAViewNamesTheTablesStatesTheStrategyAndTheStepsOfItsPlan() throws Exception {
    job.sql("SELECT o.order_id, o.amount, u.user_name FROM <TABLE:orders> o JOIN <TABLE:users> u "
            + "ON o.user_id = u.user_id")
        .orderingField("commit_order")
        .property("hoodie.streamer.transformer.view.strategy", "STRICT");
    String orders1 = tables.orders(order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    String orders2 = tables.orders(order("o2", "u1", 2.0, 2L));

    CapturedRun explained = run("--props", props, "--target-base-path", tables.targetPath);
    assertEquals(0, explained.exitCode, explained.output);
    assertContains(explained, "  <TABLE:orders> -> orders, the whole table: as of " + orders1 + " before this batch and "
        + orders2 + " after it\n"
        + "  <TABLE:users>  -> users, the whole table: as of " + users1 + " before this batch and " + users1
        + " after it\n");
    assertContains(explained, "It is a view; this batch: strategy STRICT: incremental, because "
        + "hoodie.streamer.transformer.view.strategy=STRICT (estimated cost: incremental ~");
    assertContains(explained, "(orders: 1 changed of ~");
    assertContains(explained, "steps: the changed rows of orders meet users only where users.user_id is one of their "
        + "1 values of user_id: those rows of users read once, as of the new state; as of the old state, derived from "
        + "them; rows made of the changed keys (1 of orders), a pass per changed table over its "
        + "changed rows, at the previous state; rows made of the changed keys (1 of orders), a pass per changed table "
        + "over its changed rows, at the current state; upsert those rows as of the new state; delete the keys they "
        + "had only in the old state");
  }

  @Test
  void badPropertiesAndUnknownTablesFailWithTheFix() throws Exception {
    CapturedRun missing = run("--props", dir.resolve("absent.properties").toUri().toString(), "--target-base-path",
        tables.targetPath);
    assertEquals(2, missing.exitCode, missing.toString());
    assertEquals("", missing.output);
    assertTrue(missing.errors.startsWith("Cannot explain the batch: cannot read --props "
        + dir.resolve("absent.properties").toUri()), missing.errors);

    job.withoutProperty("hoodie.streamer.source.multi.hudi.tables").arguments();
    CapturedRun noTables = run("--props", props, "--target-base-path", tables.targetPath);
    assertEquals(2, noTables.exitCode, noTables.toString());
    assertTrue(noTables.errors.contains("Cannot read multiple Hudi tables: hoodie.streamer.source.multi.hudi.tables is "
        + "not set"), noTables.errors);

    // The Streamer's --hoodie-conf overrides --props, a value with commas included.
    CapturedRun unknown = run("--props", props, "--hoodie-conf", "hoodie.streamer.source.multi.hudi.tables=orders,users",
        "--target-base-path", tables.targetPath, "--checkpoint", "items=LATEST");
    assertEquals(2, unknown.exitCode, unknown.toString());
    assertTrue(unknown.errors.contains("Cannot explain --checkpoint 'items=LATEST': table 'items' is not one of the "
        + "configured tables [orders, users]"), unknown.errors);

    CapturedRun notATable = run("--props", props, "--hoodie-conf", "hoodie.streamer.source.multi.hudi.tables=orders,users",
        "--target-base-path", tables.targetPath);
    assertEquals(1, notATable.exitCode, notATable.toString());
    // What was explained before the failure is the output; the failure is the error.
    assertContains(notATable, "window: none, " + tables.ordersPath + " is not a Hudi table");
    String failure = "The batch would fail: Cannot read table 'orders': " + tables.ordersPath + " is not a Hudi table";
    assertTrue(notATable.errors.startsWith(failure), notATable.errors);
    assertFalse(notATable.output.contains("The batch would fail"), notATable.output);

    CapturedRun notATableJson = run("--props", props, "--hoodie-conf",
        "hoodie.streamer.source.multi.hudi.tables=orders,users", "--target-base-path", tables.targetPath, "--output",
        "json");
    assertEquals(1, notATableJson.exitCode, notATableJson.toString());
    JsonNode json = JSON.readTree(notATableJson.output);
    assertTrue(json.get("error").asText().startsWith(failure), json.toString());
    assertFalse(json.get("tables").get(0).get("hudi_table").asBoolean());
    assertTrue(json.get("tables").get(0).get("window").isNull());
    assertTrue(notATableJson.errors.startsWith(failure), notATableJson.errors);
  }

  private static void assertContains(CapturedRun result, String expected) {
    assertTrue(result.output.contains(expected), "expected: " + expected + "\nin:\n" + result.output);
  }

  /** Every file under a local table, with its size and modification time. */
  private static List<String> files(String basePath) {
    try (Stream<Path> walk = Files.walk(Paths.get(URI.create(basePath)))) {
      return walk.filter(Files::isRegularFile).map(file -> {
        try {
          return file + " " + Files.size(file) + " " + Files.getLastModifiedTime(file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asText()));
    return values;
  }

  private static CapturedRun run(String... args) {
    return CapturedRun.of((out, err) -> ExplainCli.run(args, out, err, Clock.systemUTC(), SharedSpark::session));
  }
}
