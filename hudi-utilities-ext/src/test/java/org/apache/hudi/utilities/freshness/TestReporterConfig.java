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

package org.apache.hudi.utilities.freshness;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reporter's YAML file: many pipelines, each with the properties of its Streamer job (sources, SLAs, Kafka
 * connection properties), read by the same parser as the commit callback; and files of the earlier form.
 */
class TestReporterConfig {

  private static final String YAML = String.join("\n",
      "metrics:",
      "  hoodie.metrics.on: true",
      "  hoodie.metrics.reporter.type: PROMETHEUS_PUSHGATEWAY",
      "pipelines:",
      "  - name: joined",
      "    basePath: /data/joined/",
      "    properties:",
      "      hoodie.streamer.freshness.sla.minutes: 30",
      "      hoodie.streamer.freshness.history.max.entries: 50",
      "      hoodie.streamer.source.multi.hudi.tables: orders,users",
      "      hoodie.streamer.source.hudi.orders.path: /data/orders",
      "      hoodie.streamer.source.hudi.users.path: /data/users",
      "      hoodie.streamer.source.multi.hudi.checkpoint.legacy.table: users",
      "  - name: nightly",
      "    basePath: /data/nightly",
      "    properties:",
      "      hoodie.streamer.freshness.mode: batch",
      "      hoodie.streamer.freshness.lag.cap.minutes: 60",
      "      hoodie.streamer.freshness.history.enable: false",
      "      hoodie.streamer.source.hoodieincr.path: /data/orders",
      "  - name: clicks",
      "    basePath: /data/clicks",
      "    properties:",
      "      hoodie.streamer.freshness.kafka.poll.timeout.ms: 250",
      "      hoodie.streamer.source.kafka.topic: clicks",
      "      bootstrap.servers: broker:9092",
      "      sasl.jaas.config: secret-jaas",
      "");

  @Test
  void readsPipelinesWithTheStreamersPropertiesThroughTheCallbacksParser() throws Exception {
    ReporterConfig config = ReporterConfig.parse(YAML, "test.yaml");
    assertEquals(Map.of("hoodie.metrics.on", "true", "hoodie.metrics.reporter.type", "PROMETHEUS_PUSHGATEWAY"),
        config.metricsProperties());
    assertEquals(3, config.pipelines().size());

    PipelineSpec joined = config.pipelines().get(0);
    assertEquals("/data/joined", joined.basePath());
    assertEquals(Duration.ofMinutes(30), joined.policy().sla());
    assertEquals(Duration.ofDays(7), joined.policy().lagCap());
    assertEquals("/data/joined/.hoodie/.aux/freshness", joined.historyPath().get());
    assertEquals(50, joined.historyMaxEntries());
    assertEquals(List.of(SourceSpec.hudi("orders", "/data/orders"), SourceSpec.hudi("users", "/data/users")),
        joined.sources());
    // The legacy table is named: a bare checkpoint is the position of users, not of the first listed source.
    assertEquals(Map.of("users", "20261129110000003"), FreshnessMeter.positions(joined, "20261129110000003"));

    PipelineSpec nightly = config.pipelines().get(1);
    assertEquals(Duration.ofMinutes(1440), nightly.policy().sla());
    assertEquals(Duration.ofMinutes(60), nightly.policy().lagCap());
    assertFalse(nightly.historyPath().isPresent());
    assertEquals(List.of(SourceSpec.hudi("orders", "/data/orders")), nightly.sources());

    PipelineSpec clicks = config.pipelines().get(2);
    assertEquals(Duration.ofMinutes(60), clicks.policy().sla());
    assertEquals(Duration.ofMillis(250), clicks.kafkaPollTimeout());
    assertEquals(List.of(SourceSpec.kafka("clicks", Map.of("bootstrap.servers", "broker:9092",
        "sasl.jaas.config", "secret-jaas"))), clicks.sources());
  }

  @Test
  void theExampleOfTheDocsIsValid() throws Exception {
    Path example = Paths.get("..", "docs", "freshness", "reporter-example.yaml");
    ReporterConfig config = ReporterConfig.parse(Files.readString(example), example.toString());
    assertEquals(List.of("joined", "orders_copy", "clicks"), config.pipelines().stream().map(PipelineSpec::name)
        .collect(Collectors.toList()));
  }

  @Test
  void credentialsNeverShowInDescriptions() throws Exception {
    String description = ReporterConfig.parse(YAML, "test.yaml").pipelines().get(2).toString();
    assertFalse(description.contains("secret-jaas"), description);
    assertTrue(description.contains("sasl.jaas.config=" + Secrets.REDACTED), description);
  }

  @Test
  void rejectsAMisspeltKeyNamingIt() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        "pipelines:\n  - {name: a, basePath: /a, slaMinutes: 5, properties: {hoodie.streamer.source.hoodieincr.path: /t}}\n",
        "typo.yaml"));
    assertTrue(error.getMessage().startsWith("Cannot read pipelines[0] of typo.yaml: unknown keys [slaMinutes]"),
        error.getMessage());
    IllegalArgumentException property = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        "pipelines:\n  - {name: a, basePath: /a, properties: {hoodie.streamer.freshness.sla.minute: 5, "
            + "hoodie.streamer.source.hoodieincr.path: /t}}\n", "typo.yaml"));
    assertTrue(property.getMessage().startsWith("Cannot read 'properties' of pipelines[0] of typo.yaml: unknown "
        + "freshness settings [hoodie.streamer.freshness.sla.minute]"), property.getMessage());
  }

  @Test
  void rejectsAnUnknownKeyAndAPipelineWithoutSource() {
    IllegalArgumentException sources = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        "pipelines:\n  - {name: a, basePath: /a, sources: [{name: t, type: hudi, path: /t}]}\n", "x.yaml"));
    assertEquals("Cannot read pipelines[0] of x.yaml: unknown keys [sources] (allowed: [basePath, name, properties])",
        sources.getMessage());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        "pipelines:\n  - {name: a, basePath: /a, properties: {hoodie.streamer.freshness.sla.minutes: 5}}\n", "x.yaml"));
    assertTrue(none.getMessage().startsWith("Cannot read pipelines[0] of x.yaml: Cannot measure the freshness of "
        + "pipeline 'a': its properties name no supported source"), none.getMessage());
  }
}
