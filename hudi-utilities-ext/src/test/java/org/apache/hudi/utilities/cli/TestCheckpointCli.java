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
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checkpoint tools over a real pipeline: {@code show} reads the target's stored checkpoint and each source's
 * retention, {@code override} builds the {@code --checkpoint} that the Streamer then applies.
 */
class TestCheckpointCli extends OrdersAndUsersPipeline {

  private static final ObjectMapper JSON = new ObjectMapper();

  TestCheckpointCli() {
    super("read_log");
  }

  @BeforeEach
  void readLog() {
    logReads();
  }

  @Test
  void showPrintsEachTablesPositionAndWhetherItsNextBatchIsStillReadable() throws Exception {
    String orders1 = tables.ordersKeepingCommits(1, order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.syncInProcess();

    CapturedRun readable = run("show", "--props", props, "--target-base-path", tables.targetPath);
    assertEquals(0, readable.exitCode, readable.toString());
    assertEquals("", readable.errors);
    assertTrue(readable.output.startsWith("Target " + tables.targetPath + ": checkpoint 'orders=" + orders1 + ",users="
        + users1 + "' stored by commit " + HudiTables.lastCompletedInstant(tables.targetPath).get()
        + " (1 commits searched)"), readable.output);
    assertTrue(readable.output.matches("(?s).*\\norders +" + orders1 + " +[0-9hms.]+ +yes +yes +unbounded \\(never "
        + "cleaned or archived\\)\\n.*"), readable.output);
    assertTrue(readable.output.matches("(?s).*\\nusers +" + users1 + " +[0-9hms.]+ +yes +yes +unbounded.*"),
        readable.output);

    // --hoodie-conf overrides --props, as the Streamer's does (the demo passes the source paths this way).
    String elsewhere = dir.resolve("elsewhere").toUri().toString();
    CapturedRun overridden = run("show", "--props", props, "--hoodie-conf",
        "hoodie.streamer.source.hudi.users.path=" + elsewhere, "--target-base-path", tables.targetPath);
    assertEquals(0, overridden.exitCode, overridden.output);
    assertTrue(overridden.output.contains("\nusers            <none>               not a Hudi table: " + elsewhere),
        overridden.output);

    // Each orders commit rewrites o1's file; keeping one commit, the cleaner removes what the next batch would read.
    String orders2 = tables.ordersKeepingCommits(1, order("o1", "u1", 2.0, 2L));
    tables.ordersKeepingCommits(1, order("o1", "u1", 3.0, 3L));
    String orders4 = tables.ordersKeepingCommits(1, order("o1", "u1", 4.0, 4L));
    CapturedRun cleaned = run("show", "--props", props, "--target-base-path", tables.targetPath);
    assertEquals(1, cleaned.exitCode, cleaned.output);
    // Both durations in one form: whole seconds, as 4m12s.
    assertTrue(cleaned.output.matches("(?s).*\\norders +" + orders1 + " +[0-9hms]+ +yes +no: \\[" + orders2
        + ".*\\] +0 commits, [0-9]+[hms][0-9hms]* after " + orders4 + "\\n.*"), cleaned.output);
  }

  @Test
  void showAsJsonGivesTheSameFactsFieldByFieldWithDurationsInSeconds() throws Exception {
    String orders1 = tables.ordersKeepingCommits(1, order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    String orders2 = tables.ordersKeepingCommits(1, order("o1", "u1", 2.0, 2L));
    tables.ordersKeepingCommits(1, order("o1", "u1", 3.0, 3L));
    String orders4 = tables.ordersKeepingCommits(1, order("o1", "u1", 4.0, 4L));
    String elsewhere = dir.resolve("elsewhere").toUri().toString();

    CapturedRun shown = run("show", "--props", props, "--hoodie-conf", "hoodie.streamer.source.hudi.users.path="
        + elsewhere, "--target-base-path", tables.targetPath, "--output", "json");
    assertEquals(1, shown.exitCode, shown.toString());
    assertEquals("", shown.errors);
    JsonNode json = JSON.readTree(shown.output);
    assertEquals(tables.targetPath, json.get("target_base_path").asText());
    assertEquals("orders=" + orders1 + ",users=" + users1, json.get("checkpoint").asText());
    assertEquals(HudiTables.lastCompletedInstant(tables.targetPath).get(), json.get("commit").asText());
    assertEquals(1, json.get("commits_searched").asInt());
    assertFalse(json.get("readable_incrementally").asBoolean());
    assertEquals(2, json.get("tables").size());

    JsonNode orders = json.get("tables").get(0);
    assertEquals("orders", orders.get("table").asText());
    assertEquals(tables.ordersPath, orders.get("path").asText());
    assertTrue(orders.get("hudi_table").asBoolean());
    assertEquals(orders1, orders.get("position").asText());
    assertEquals(orders4, orders.get("latest_instant").asText());
    assertTrue(orders.get("age_seconds").isNumber() && orders.get("age_seconds").asDouble() >= 0, orders.toString());
    assertTrue(orders.get("on_active_timeline").asBoolean());
    assertEquals(List.of(orders2), strings(orders.get("cleaned_commits")));
    assertFalse(orders.get("readable_incrementally").asBoolean());
    assertEquals(0, orders.get("headroom_commits").asInt());
    assertTrue(orders.get("headroom_seconds").isNumber(), orders.toString());
    assertEquals(orders4, orders.get("earliest_retained_instant").asText());

    // A table that is not there: the same fields, null where there is nothing to measure.
    JsonNode users = json.get("tables").get(1);
    assertEquals("users", users.get("table").asText());
    assertEquals(elsewhere, users.get("path").asText());
    assertFalse(users.get("hudi_table").asBoolean());
    assertEquals(users1, users.get("position").asText());
    for (String field : List.of("latest_instant", "age_seconds", "on_active_timeline", "cleaned_commits", "readable_incrementally",
        "headroom_commits", "headroom_seconds", "earliest_retained_instant")) {
      assertTrue(users.get(field).isNull(), field + " in " + users);
    }
  }

  /** docs/tools.md, "Reading the checkpoint with Hudi's own tools": Hudi's procedure finds the same string. */
  @Test
  void hudisShowCommitExtraMetadataProcedureReadsTheCheckpointThatShowFinds() throws Exception {
    tables.orders(order("o1", "u1", 1.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    JsonNode shown = JSON.readTree(run("show", "--props", props, "--target-base-path", tables.targetPath, "--output",
        "json").output);
    String commit = shown.get("commit").asText();

    // The procedure takes a table of the catalog, not a path.
    SparkSession spark = SharedSpark.session();
    spark.sql("CREATE TABLE checkpoint_cli_target USING hudi LOCATION '" + tables.targetPath + "'");
    try {
      List<Row> rows = spark.sql("CALL show_commit_extra_metadata(table => 'checkpoint_cli_target', instant_time => '"
          + commit + "', metadata_key => 'deltastreamer.checkpoint.key')").collectAsList();
      assertEquals(1, rows.size(), rows.toString());
      assertEquals(commit, rows.get(0).getAs("instant_time"));
      assertEquals("deltastreamer.checkpoint.key", rows.get(0).getAs("metadata_key"));
      assertEquals(shown.get("checkpoint").asText(), rows.get(0).getAs("metadata_value"));
    } finally {
      spark.sql("DROP TABLE IF EXISTS checkpoint_cli_target");
    }
  }

  @Test
  void helpIsAResultAndBadArgumentsAreErrorsWithExitStatusTwo() {
    CapturedRun help = run("--help");
    assertEquals(0, help.exitCode, help.toString());
    assertTrue(help.output.contains("Usage: checkpoint-tool") && help.output.contains("--output"), help.output);
    assertEquals("", help.errors);

    CapturedRun unknownOption = run("show", "--props", props, "--target-base-path", tables.targetPath, "--verbose");
    assertEquals(2, unknownOption.exitCode, unknownOption.toString());
    assertEquals("", unknownOption.output);
    assertTrue(unknownOption.errors.startsWith("Cannot run the checkpoint tool: ") && unknownOption.errors.contains(
        "--verbose") && unknownOption.errors.endsWith("(see --help)\n"), unknownOption.errors);

    CapturedRun badOutput = run("show", "--props", props, "--target-base-path", tables.targetPath, "--output", "xml");
    assertEquals(2, badOutput.exitCode, badOutput.toString());
    assertEquals("", badOutput.output);
    assertEquals("Cannot run the checkpoint tool: --output is 'xml' (use --output text or --output json)\n",
        badOutput.errors);
  }

  @Test
  void overrideMovesTheNamedTablesKeepsTheOthersAndTheStreamerAppliesIt() throws Exception {
    String orders1 = tables.ordersKeepingCommits(1, order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    String users2 = tables.users(user("u2", "bob", 2L));

    CapturedRun latest = run("override", "--props", props, "--target-base-path", tables.targetPath, "--set", "users=LATEST");
    assertEquals(0, latest.exitCode, latest.toString());
    assertEquals("--checkpoint 'orders=" + orders1 + ",users=LATEST'\n", latest.output);
    CapturedRun latestJson = run("override", "--props", props, "--target-base-path", tables.targetPath,
        "--set", "users=LATEST", "--output", "json");
    assertEquals(0, latestJson.exitCode, latestJson.toString());
    assertEquals("orders=" + orders1 + ",users=LATEST", JSON.readTree(latestJson.output).get("checkpoint").asText());
    assertEquals(0, JSON.readTree(latestJson.output).get("notes").size());
    job.checkpoint("orders=" + orders1 + ",users=LATEST").syncInProcess();
    assertEquals("orders=" + orders1 + ",users=" + users2, HudiTables.lastCheckpoint(tables.targetPath));

    // users moved to an instant of orders (a mistake, or a time): allowed, and the tool says where users resumes.
    CapturedRun earliest = run("override", "--props", props, "--target-base-path", tables.targetPath,
        "--set", "orders=EARLIEST", "--set", "users=" + orders1);
    assertEquals(0, earliest.exitCode, earliest.output);
    assertEquals("--checkpoint 'users=" + orders1 + ",orders=EARLIEST'\nNote: users=" + orders1 + " is not a commit of "
        + "users: it resumes with the 2 commits of users after it (" + users1 + " to " + users2 + ")\n",
        earliest.output);

    CapturedRun unknown = run("override", "--props", props, "--target-base-path", tables.targetPath, "--set", "items=LATEST");
    assertEquals(2, unknown.exitCode, unknown.toString());
    assertEquals("", unknown.output);
    assertTrue(unknown.errors.contains("Cannot move table 'items': it is not one of the configured tables [orders, "
        + "users]"), unknown.errors);
    CapturedRun noCommand = run("--props", props, "--target-base-path", tables.targetPath);
    assertEquals(2, noCommand.exitCode, noCommand.toString());
    assertEquals("", noCommand.output);
    assertTrue(noCommand.errors.startsWith("Cannot run the checkpoint tool: ") && noCommand.errors.contains("show | "
        + "override"), noCommand.errors);
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asText()));
    return values;
  }

  private static CapturedRun run(String... args) {
    return CapturedRun.of((out, err) -> CheckpointCli.run(args, out, err, Clock.systemUTC(),
        SharedSpark.jsc().hadoopConfiguration()));
  }
}
