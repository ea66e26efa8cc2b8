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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The freshness reporter's one-shot measurement as JSON, and its errors on the error stream. */
class TestFreshnessReporterCli extends OrdersAndUsersPipeline {

  private static final ObjectMapper JSON = new ObjectMapper();

  TestFreshnessReporterCli() {
    super("read_log");
  }

  @BeforeEach
  void readLog() {
    logReads();
  }

  @Test
  void oneMeasurementAsJsonNamesThePipelineItsCheckpointAndEachSourcesStateAndLagInSeconds() throws Exception {
    tables.orders(order("o1", "u1", 1.0, 1L));
    tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    Path config = config();

    CapturedRun measured = run("--config", config.toString(), "--output", "json");
    assertEquals(0, measured.exitCode, measured.toString());
    JsonNode pipeline = JSON.readTree(measured.output).get("pipelines").get(0);
    assertEquals("read_log", pipeline.get("pipeline").asText());
    assertEquals(tables.targetPath, pipeline.get("base_path").asText());
    assertEquals("REPORTER", pipeline.get("observer").asText());
    assertTrue(pipeline.get("measured_at").asText().matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), pipeline.toString());
    assertEquals(HudiTables.lastCompletedInstant(tables.targetPath).get(), pipeline.get("commit").asText());
    assertEquals(HudiTables.lastCheckpoint(tables.targetPath), pipeline.get("checkpoint").asText());
    assertEquals(0.0, pipeline.get("max_lag_seconds").asDouble());
    assertEquals(2, pipeline.get("sources").size());
    JsonNode orders = pipeline.get("sources").get(0);
    assertEquals("orders", orders.get("source").asText());
    assertEquals("CAUGHT_UP", orders.get("state").asText());
    assertEquals("IDLE", orders.get("status").asText());
    assertEquals(HudiTables.lastCompletedInstant(tables.ordersPath).get(), orders.get("position").asText());
    assertTrue(orders.get("lag_seconds").isNumber(), orders.toString());
    assertEquals(0, orders.get("pending").asLong());
    assertTrue(orders.has("kind"), orders.toString());
    // orders was never cleaned nor archived: its retention bounds no position.
    assertTrue(orders.get("retention_headroom_commits").isNull(), orders.toString());
    assertTrue(orders.get("retention_headroom_seconds").isNull(), orders.toString());

    CapturedRun badOutput = run("--config", config.toString(), "--output", "yaml");
    assertEquals(2, badOutput.exitCode, badOutput.toString());
    assertEquals("", badOutput.output);
    assertEquals("Cannot start the freshness reporter: --output is 'yaml' (use --output text or --output json)\n",
        badOutput.errors);

    CapturedRun noConfig = run("--config", dir.resolve("absent.yaml").toString());
    assertEquals(2, noConfig.exitCode, noConfig.toString());
    assertEquals("", noConfig.output);
    assertTrue(noConfig.errors.startsWith("Cannot start the freshness reporter: cannot read --config "
        + dir.resolve("absent.yaml") + " ("), noConfig.errors);
  }

  private Path config() throws IOException {
    return Files.writeString(dir.resolve("pipelines.yaml"), "pipelines:\n"
        + "  - name: read_log\n"
        + "    basePath: " + tables.targetPath + "\n"
        + "    properties:\n"
        + "      hoodie.streamer.source.multi.hudi.tables: orders,users\n"
        + "      hoodie.streamer.source.hudi.orders.path: " + tables.ordersPath + "\n"
        + "      hoodie.streamer.source.hudi.users.path: " + tables.usersPath + "\n", StandardCharsets.UTF_8);
  }

  private static CapturedRun run(String... args) {
    return CapturedRun.of((out, err) -> {
      try {
        return FreshnessReporterCli.run(args, out, err, Clock.systemUTC(), SharedSpark.jsc().hadoopConfiguration());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }
}
