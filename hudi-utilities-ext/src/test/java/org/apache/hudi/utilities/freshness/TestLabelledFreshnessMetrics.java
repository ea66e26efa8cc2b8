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

import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.freshness.testutils.Pushgateway;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The labelled series, as the Prometheus text format writes them: one name per measure, pipeline and source as
 * labels, 0 reported when it is the value, and no series for a value that is not known.
 */
class TestLabelledFreshnessMetrics {

  private static final Instant NOW = Instant.parse("2026-11-30T08:00:00Z");
  private static final FreshnessPolicy POLICY = FreshnessPolicy.of(Duration.ofMinutes(60), Duration.ofDays(7));

  private static PipelineSpec pipeline(String name) {
    return PipelineSpec.builder(name, "/data/" + name).policy(POLICY).source(SourceSpec.hudi("orders", "/data/o"))
        .build();
  }

  private static PipelineFreshness measured(String pipeline, SourceFreshness... sources) {
    return new PipelineFreshness(pipeline, "/data/" + pipeline, Observer.CALLBACK, NOW,
        StoredCheckpoint.found("20261130070000000", "orders=1", 1), List.of(sources));
  }

  /** Every sample line of the text exposition, by series (name and labels). */
  private static Map<String, Double> samples(MultiCollector collector) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, collector.collect());
    Map<String, Double> samples = new TreeMap<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.startsWith("#") && !line.isEmpty()) {
        samples.put(line.substring(0, line.lastIndexOf(' ')), Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    return samples;
  }

  @Test
  void caughtUpSourceReportsZeroesAndIdle() throws Exception {
    LabelledFreshnessMetrics metrics = new LabelledFreshnessMetrics();
    metrics.update(pipeline("joined"), measured("joined",
        SourceFreshness.measure("orders", SourceKind.HUDI, "1", QueueHead.caughtUp(), NOW, POLICY)));

    Map<String, Double> samples = samples(metrics);

    String source = "{pipeline=\"joined\",source=\"orders\",source_kind=\"hudi\"";
    assertEquals(0.0, samples.get("hudi_freshness_lag_seconds" + source + "}"));
    assertEquals(0.0, samples.get("hudi_freshness_raw_lag_seconds" + source + "}"));
    assertEquals(0.0, samples.get("hudi_freshness_sla_ratio" + source + "}"));
    assertEquals(0.0, samples.get("hudi_freshness_pending_instants" + source + "}"));
    assertEquals(1.0, samples.get("hudi_freshness_status" + source + ",status=\"IDLE\"}"));
    assertEquals(0.0, samples.get("hudi_freshness_status" + source + ",status=\"OK\"}"));
    assertEquals(3600.0, samples.get("hudi_freshness_sla_seconds{pipeline=\"joined\"}"));
    assertEquals(NOW.getEpochSecond(), samples.get("hudi_freshness_last_measurement_timestamp_seconds"
        + "{pipeline=\"joined\"}"));
    assertEquals(1.0, samples.get("hudi_freshness_measurements_total{pipeline=\"joined\"}"));
  }

  @Test
  void waitingSourceReportsItsLagAndAnUnknownOneHasNoSeries() throws Exception {
    LabelledFreshnessMetrics metrics = new LabelledFreshnessMetrics();
    metrics.update(pipeline("joined"), measured("joined",
        SourceFreshness.measure("orders", SourceKind.HUDI, "1",
            QueueHead.waitingSince(NOW.minus(Duration.ofMinutes(15)), 2)
                .withHeadroom(RetentionHeadroom.of(3, Duration.ofMinutes(-2))), NOW, POLICY),
        SourceFreshness.noCheckpoint("users", SourceKind.HUDI)));
    metrics.countFailure(pipeline("joined"));

    Map<String, Double> samples = samples(metrics);

    String orders = "{pipeline=\"joined\",source=\"orders\",source_kind=\"hudi\"";
    assertEquals(900.0, samples.get("hudi_freshness_lag_seconds" + orders + "}"));
    assertEquals(0.25, samples.get("hudi_freshness_sla_ratio" + orders + "}"));
    assertEquals(2.0, samples.get("hudi_freshness_pending_instants" + orders + "}"));
    assertEquals(3.0, samples.get("hudi_freshness_retention_headroom_commits" + orders + "}"));
    assertEquals(-120.0, samples.get("hudi_freshness_retention_headroom_seconds" + orders + "}"));
    String users = "{pipeline=\"joined\",source=\"users\",source_kind=\"hudi\"";
    assertEquals(1.0, samples.get("hudi_freshness_status" + users + ",status=\"NO_DATA\"}"));
    assertFalse(samples.containsKey("hudi_freshness_lag_seconds" + users + "}"), samples.toString());
    assertFalse(samples.containsKey("hudi_freshness_pending_instants" + users + "}"), samples.toString());
    assertFalse(samples.containsKey("hudi_freshness_retention_headroom_commits" + users + "}"), samples.toString());
    assertEquals(1.0, samples.get("hudi_freshness_failures_total{pipeline=\"joined\"}"));
  }

  @Test
  void pipelineViewHoldsThatPipelineOnly() throws Exception {
    LabelledFreshnessMetrics metrics = new LabelledFreshnessMetrics();
    metrics.update(pipeline("a"), measured("a",
        SourceFreshness.measure("orders", SourceKind.HUDI, "1", QueueHead.caughtUp(), NOW, POLICY)));
    metrics.update(pipeline("b"), measured("b",
        SourceFreshness.measure("orders", SourceKind.HUDI, "1", QueueHead.caughtUp(), NOW, POLICY)));
    metrics.countFailure(pipeline("b"));

    Map<String, Double> onlyA = samples(metrics.of("a"));

    assertTrue(onlyA.containsKey("hudi_freshness_lag_seconds{pipeline=\"a\",source=\"orders\",source_kind=\"hudi\"}"));
    assertTrue(onlyA.keySet().stream().noneMatch(series -> series.contains("pipeline=\"b\"")), onlyA.toString());
    assertTrue(samples(metrics).keySet().stream().anyMatch(series -> series.contains("pipeline=\"b\"")));
  }

  private static PipelineSpec kafkaPipeline(String name, String pushgateway, PipelineLabels labels) {
    return PipelineSpec.builder(name, "/data/" + name).policy(POLICY)
        .source(SourceSpec.kafka("clicks", Map.of("bootstrap.servers", "broker-1:9092")))
        .pushgatewayAddress(pushgateway).labels(labels).build();
  }

  @Test
  void extraLabelsAndTheKafkaClusterAreOnEverySeriesOfThePipelineAndPipelinesWithoutKeepTheirSeries()
      throws Exception {
    LabelledFreshnessMetrics metrics = new LabelledFreshnessMetrics();
    metrics.update(pipeline("joined"), measured("joined",
        SourceFreshness.measure("orders", SourceKind.HUDI, "1", QueueHead.caughtUp(), NOW, POLICY)));
    metrics.update(kafkaPipeline("clicks", null, PipelineLabels.of(Map.of("team", "payments", "tier", "gold"),
        "clicks")), measured("clicks",
        SourceFreshness.measure("clicks", SourceKind.KAFKA, "clicks,0:1", QueueHead.caughtUp(), NOW, POLICY)));

    Map<String, Double> samples = samples(metrics);

    Map<String, Double> ofClicks = samples.entrySet().stream().filter(e -> e.getKey().contains("pipeline=\"clicks\""))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    assertTrue(ofClicks.size() > 10, ofClicks.toString());
    ofClicks.keySet().forEach(series -> assertTrue(series.contains("team=\"payments\"")
        && series.contains("tier=\"gold\""), series));
    assertEquals(0.0, samples.get("hudi_freshness_offset_lag{cluster=\"broker-1:9092\",pipeline=\"clicks\","
        + "source=\"clicks\",source_kind=\"kafka\",team=\"payments\",tier=\"gold\"}"));
    assertEquals(1.0, samples.get("hudi_freshness_measurements_total{pipeline=\"clicks\",team=\"payments\","
        + "tier=\"gold\"}"));
    // The pipeline without labels publishes what it did before any pipeline had labels.
    assertEquals(0.0, samples.get("hudi_freshness_lag_seconds{pipeline=\"joined\",source=\"orders\","
        + "source_kind=\"hudi\"}"));
    assertEquals(3600.0, samples.get("hudi_freshness_sla_seconds{pipeline=\"joined\"}"));
  }

  @Test
  void pushgatewayTakesAFleetWhosePipelinesHaveDifferentLabelSets(@TempDir Path dir) throws Exception {
    try (Pushgateway pushgateway = Pushgateway.start(dir.resolve("pushgateway.log"))) {
      String address = "127.0.0.1:" + pushgateway.port();
      PipelineSpec gold = kafkaPipeline("gold", address, PipelineLabels.of(Map.of("team", "payments", "tier",
          "gold"), "gold"));
      PipelineSpec plain = kafkaPipeline("plain", address, PipelineLabels.NONE);
      PipelineSpec team = kafkaPipeline("team", address, PipelineLabels.of(Map.of("team", "search"), "team"));
      LabelledFreshnessMetrics metrics = new LabelledFreshnessMetrics();
      for (PipelineSpec pipeline : List.of(gold, plain, team)) {
        metrics.update(pipeline, measured(pipeline.name(), SourceFreshness.measure("clicks", SourceKind.KAFKA,
            "clicks,0:1", QueueHead.caughtUp(), NOW, POLICY)));
        assertTrue(LabelledMetricsPush.push(pipeline, Observer.REPORTER, metrics), pipeline.name());
      }

      String exposed = pushgateway.scrapeText();

      assertTrue(exposed.contains("hudi_freshness_sla_seconds{instance=\"\",job=\"hudi_freshness\","
          + "observer=\"reporter\",pipeline=\"gold\",team=\"payments\",tier=\"gold\"} 3600"), exposed);
      assertTrue(exposed.contains("hudi_freshness_sla_seconds{instance=\"\",job=\"hudi_freshness\","
          + "observer=\"reporter\",pipeline=\"plain\"} 3600"), exposed);
      assertTrue(exposed.contains("hudi_freshness_sla_seconds{instance=\"\",job=\"hudi_freshness\","
          + "observer=\"reporter\",pipeline=\"team\",team=\"search\"} 3600"), exposed);
    }
  }
}
