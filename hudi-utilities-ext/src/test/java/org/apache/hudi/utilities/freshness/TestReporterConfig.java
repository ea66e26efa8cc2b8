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

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reporter's YAML file: many pipelines, their SLAs, sources and Kafka connection properties.
 */
class TestReporterConfig {

  private static final String YAML = String.join("\n",
      "metrics:",
      "  hoodie.metrics.on: true",
      "  hoodie.metrics.reporter.type: PROMETHEUS_PUSHGATEWAY",
      "pipelines:",
      "  - name: joined",
      "    basePath: /data/joined/",
      "    slaInMinutes: 30",
      "    historyMaxEntries: 50",
      "    sources:",
      "      - {name: orders, type: hudi, path: /data/orders}",
      "      - {name: users, type: hudi, path: /data/users}",
      "  - name: nightly",
      "    basePath: /data/nightly",
      "    mode: batch",
      "    lagCapInMinutes: 60",
      "    historyPath: ''",
      "    sources:",
      "      - {name: orders, type: hudi, path: /data/orders}",
      "  - name: clicks",
      "    basePath: /data/clicks",
      "    kafkaPollTimeoutMs: 250",
      "    sources:",
      "      - name: clicks",
      "        type: kafka",
      "        properties:",
      "          bootstrap.servers: broker:9092",
      "          sasl.jaas.config: secret-jaas",
      "");

  @Test
  void readsPipelinesWithTheirSlasSourcesAndMetricsSettings() throws Exception {
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
    assertEquals(SourceSpec.hudi("users", "/data/users"), joined.sources().get(1));

    PipelineSpec nightly = config.pipelines().get(1);
    assertEquals(Duration.ofMinutes(1440), nightly.policy().sla());
    assertEquals(Duration.ofMinutes(60), nightly.policy().lagCap());
    assertFalse(nightly.historyPath().isPresent());

    PipelineSpec clicks = config.pipelines().get(2);
    assertEquals(Duration.ofMinutes(60), clicks.policy().sla());
    assertEquals(Duration.ofMillis(250), clicks.kafkaPollTimeout());
    assertEquals(SourceSpec.kafka("clicks", Map.of("bootstrap.servers", "broker:9092",
        "sasl.jaas.config", "secret-jaas")), clicks.sources().get(0));
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
        "pipelines:\n  - {name: a, basePath: /a, slaMinutes: 5, sources: [{name: t, type: hudi, path: /t}]}\n",
        "typo.yaml"));
    assertTrue(error.getMessage().startsWith("Cannot read pipelines[0] of typo.yaml: unknown keys [slaMinutes]"),
        error.getMessage());
  }

  @Test
  void rejectsAnUnknownSourceTypeAndAMissingPath() {
    IllegalArgumentException type = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        "pipelines:\n  - {name: a, basePath: /a, sources: [{name: t, type: s3}]}\n", "x.yaml"));
    assertEquals("Cannot read sources[0] of pipelines[0] of x.yaml: type 's3' is not supported (use hudi or kafka)",
        type.getMessage());
    IllegalArgumentException path = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        "pipelines:\n  - {name: a, basePath: /a, sources: [{name: t, type: hudi}]}\n", "x.yaml"));
    assertEquals("Cannot read sources[0] of pipelines[0] of x.yaml: 'path' is missing (set it)", path.getMessage());
  }
}
