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

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.freshness.kafka.KafkaCluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  private static final String CLUSTERS = String.join("\n",
      "kafkaClusters:",
      "  - name: main",
      "    properties:",
      "      bootstrap.servers: broker:9092",
      "      security.protocol: SASL_SSL",
      "      sasl.jaas.config: ${env:KAFKA_JAAS}",
      "pipelines:",
      "  - name: clicks",
      "    basePath: /data/clicks",
      "    kafkaCluster: main",
      "    properties:",
      "      hoodie.streamer.source.kafka.topic: clicks",
      "  - name: views",
      "    basePath: /data/views",
      "    kafkaCluster: main",
      "    properties:",
      "      hoodie.streamer.source.kafka.topic: views",
      "      hoodie.streamer.freshness.kafka.poll.timeout.ms: 250",
      "  - name: inline",
      "    basePath: /data/inline",
      "    properties:",
      "      hoodie.streamer.source.kafka.topic: inline",
      "      bootstrap.servers: broker:9092",
      "      security.protocol: SASL_SSL",
      "      sasl.jaas.config: jaas-from-the-environment",
      "");

  @Test
  void pipelinesShareAConnectionBlockDefinedOnceAndMatchTheInlineForm() throws Exception {
    ReporterConfig config = ReporterConfig.parse(CLUSTERS, "clusters.yaml",
        Map.of("KAFKA_JAAS", "jaas-from-the-environment")::get);

    Map<String, String> connection = Map.of("bootstrap.servers", "broker:9092", "security.protocol", "SASL_SSL",
        "sasl.jaas.config", "jaas-from-the-environment");
    for (PipelineSpec pipeline : config.pipelines()) {
      assertEquals(List.of(SourceSpec.kafka(pipeline.name(), connection)), pipeline.sources(), pipeline.name());
    }
    // One cluster, so one client: the block's pipelines and the one that repeats its settings inline.
    assertEquals(1, config.pipelines().stream().map(pipeline -> KafkaCluster.of(pipeline.sources().get(0)))
        .distinct().count());
    assertEquals(Duration.ofMillis(250), config.pipelines().get(1).kafkaPollTimeout());
  }

  @Test
  void secretsComeFromTheEnvironmentAndFromFilesAndKafkasOwnReferencesAreLeftToKafka(@TempDir Path dir)
      throws Exception {
    Path password = Files.writeString(dir.resolve("truststore-password"), "from-a-file\n");
    String yaml = String.join("\n",
        "pipelines:",
        "  - name: clicks",
        "    basePath: /data/clicks",
        "    properties:",
        "      hoodie.streamer.source.kafka.topic: clicks",
        "      bootstrap.servers: ${env:BROKERS}",
        "      sasl.jaas.config: 'PlainLoginModule required username=\"u\" password=\"${env:KAFKA_PASSWORD}\";'",
        "      ssl.truststore.password: ${file:" + password + "}",
        "      ssl.keystore.password: ${file:/etc/kafka/secrets.properties:keystore}",
        "");

    Map<String, String> properties = ReporterConfig.parse(yaml, "secrets.yaml",
        Map.of("BROKERS", "b1:9092,b2:9092", "KAFKA_PASSWORD", "p4ss")::get).pipelines().get(0).sources().get(0)
        .kafkaProperties();

    assertEquals("b1:9092,b2:9092", properties.get("bootstrap.servers"));
    assertEquals("PlainLoginModule required username=\"u\" password=\"p4ss\";", properties.get("sasl.jaas.config"));
    assertEquals("from-a-file", properties.get("ssl.truststore.password"));
    assertEquals("${file:/etc/kafka/secrets.properties:keystore}", properties.get("ssl.keystore.password"));

    IllegalArgumentException unset = assertThrows(IllegalArgumentException.class,
        () -> ReporterConfig.parse(yaml, "secrets.yaml", Map.of("BROKERS", "b:9092")::get));
    assertEquals("Cannot read 'sasl.jaas.config' of 'properties' of pipelines[0] of secrets.yaml: environment "
        + "variable KAFKA_PASSWORD is not set (export it before starting the reporter, or write the value in place "
        + "of ${env:KAFKA_PASSWORD})", unset.getMessage());
  }

  @Test
  void rejectsAnUnknownClusterAndASettingMadeTwice() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        CLUSTERS.replace("kafkaCluster: main\n    properties:\n      hoodie.streamer.source.kafka.topic: views",
            "kafkaCluster: backup\n    properties:\n      hoodie.streamer.source.kafka.topic: views"),
        "clusters.yaml", Map.of("KAFKA_JAAS", "j")::get));
    assertEquals("Cannot read pipelines[1] of clusters.yaml: 'kafkaCluster' names cluster 'backup', which no "
        + "kafkaClusters block defines (defined: [main])", unknown.getMessage());

    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        CLUSTERS.replace("      hoodie.streamer.source.kafka.topic: clicks",
            "      hoodie.streamer.source.kafka.topic: clicks\n      bootstrap.servers: other:9092"),
        "clusters.yaml", Map.of("KAFKA_JAAS", "j")::get));
    assertEquals("Cannot read pipelines[0] of clusters.yaml: [bootstrap.servers] are set both in its properties and "
        + "in Kafka cluster 'main' (set each in one place)", twice.getMessage());
  }

  @Test
  void kafkaClusterOfAPipelineIsNamedByItsBlockElseByItsBrokers() throws Exception {
    ReporterConfig config = ReporterConfig.parse(CLUSTERS, "clusters.yaml", Map.of("KAFKA_JAAS", "j")::get);

    assertEquals(Option.of("main"), config.pipelines().get(0).kafkaCluster());
    assertEquals(Option.of("broker:9092"), config.pipelines().get(2).kafkaCluster());
    assertEquals(Option.empty(), ReporterConfig.parse(YAML, "reporter.yaml").pipelines().get(0).kafkaCluster());
  }

  @Test
  void extraLabelsArePerPipelineAndAPipelineWithoutHasNone() throws Exception {
    ReporterConfig config = ReporterConfig.parse(YAML.replace("  - name: nightly\n",
        "  - name: nightly\n    labels:\n      team: payments\n      tier: gold\n"), "reporter.yaml");

    assertEquals(Map.of("team", "payments", "tier", "gold"), config.pipelines().get(1).labels().asMap());
    assertEquals(PipelineLabels.NONE, config.pipelines().get(0).labels());
  }

  @Test
  void labelsOfAPipelinesPropertiesAreKeptAndItsYamlLabelsAddToThemAndWin() throws Exception {
    ReporterConfig config = ReporterConfig.parse(YAML.replace("      hoodie.streamer.freshness.mode: batch\n",
        "      hoodie.streamer.freshness.mode: batch\n      hoodie.streamer.freshness.labels: team=orders,tier=gold\n")
        .replace("  - name: nightly\n", "  - name: nightly\n    labels:\n      tier: silver\n      region: eu\n"),
        "reporter.yaml");

    // The commit callback of the same job publishes team=orders and tier=gold: the reporter keeps team, and its YAML
    // moves the pipeline to tier silver and adds a region.
    assertEquals(Map.of("team", "orders", "tier", "silver", "region", "eu"),
        config.pipelines().get(1).labels().asMap());
  }

  @Test
  void rejectsALabelThatIsNoPrometheusLabelNameOrOneTheReporterSetsNamingThePipelineAndTheKey() {
    IllegalArgumentException invalid = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        YAML.replace("  - name: nightly\n", "  - name: nightly\n    labels:\n      cost-center: 42\n"),
        "reporter.yaml"));
    assertEquals("Cannot read pipelines[1] of reporter.yaml: Cannot label the metrics of pipeline 'nightly' with "
        + "'cost-center': it is no Prometheus label name (use letters, digits and '_', not starting with a digit or "
        + "'__', e.g. team)", invalid.getMessage());

    IllegalArgumentException reserved = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        YAML.replace("  - name: nightly\n", "  - name: nightly\n    labels:\n      source: erp\n"),
        "reporter.yaml"));
    assertEquals("Cannot read pipelines[1] of reporter.yaml: Cannot label the metrics of pipeline 'nightly' with "
        + "'source': the reporter sets that label itself (rename it; reserved: [cluster, instance, job, observer, "
        + "pipeline, reporter, source, source_kind, status])", reserved.getMessage());

    for (String name : List.of("__name__", "9lives", "instance")) {
      assertThrows(IllegalArgumentException.class, () -> PipelineLabels.of(Map.of(name, "x"), "p"), name);
    }
    assertThrows(IllegalArgumentException.class, () -> PipelineLabels.of(Map.of("team", ""), "p"));
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
    assertEquals("Cannot read pipelines[0] of x.yaml: unknown keys [sources] (allowed: [basePath, kafkaCluster, labels, name, "
        + "properties])", sources.getMessage());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> ReporterConfig.parse(
        "pipelines:\n  - {name: a, basePath: /a, properties: {hoodie.streamer.freshness.sla.minutes: 5}}\n", "x.yaml"));
    assertTrue(none.getMessage().startsWith("Cannot read pipelines[0] of x.yaml: Cannot measure the freshness of "
        + "pipeline 'a': its properties name no supported source"), none.getMessage());
  }
}
