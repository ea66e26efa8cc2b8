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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.StreamerPipelineSpec;
import org.apache.hudi.utilities.freshness.testutils.Prometheus;
import org.apache.hudi.utilities.freshness.testutils.Pushgateway;
import org.apache.hudi.utilities.reporter.FreshnessReporter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The labelled metrics where operators look: a real Prometheus scrapes both the pushgateway the reporter pushes to and
 * the reporter's own /metrics endpoint, evaluates the shipped rule file, and answers every query of the shipped
 * Grafana dashboard. The lags are those the test set: the completion times of the source's instants (their files'
 * modification times) and the reporter's clock.
 */
class TestFreshnessInPrometheus {

  private static final Configuration CONF = new Configuration();
  private static final Path RULES = Paths.get("..", "docs", "freshness", "prometheus", "freshness-rules.yml");
  private static final Path DASHBOARD = Paths.get("..", "docs", "freshness", "prometheus", "freshness-dashboard.json");
  /** How long a wait for a scrape or a rule evaluation (each every second) may take: only a hung Prometheus takes it. */
  private static final Duration SCRAPED = Duration.ofMinutes(2);

  @TempDir
  Path dir;

  @Test
  void prometheusScrapesTheLabelledSeriesRaisesTheRulesAndAnswersEveryDashboardQuery() throws Exception {
    // orders: one instant the pipeline consumed, one that became readable 80 minutes ago and still waits.
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Instant visible = now.minus(Duration.ofMinutes(80));
    String orders = WrittenTimelines.table(dir, "orders", HoodieTableType.COPY_ON_WRITE);
    String consumed = WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    String waiting = WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    WrittenTimelines.completedAt(orders, waiting, HoodieTimeline.COMMIT_ACTION, visible);
    String users = WrittenTimelines.table(dir, "users", HoodieTableType.COPY_ON_WRITE);
    String usersConsumed = WrittenTimelines.complete(users, HoodieTimeline.COMMIT_ACTION, Map.of());
    String target = WrittenTimelines.table(dir, "joined", HoodieTableType.COPY_ON_WRITE);
    WrittenTimelines.complete(target, HoodieTimeline.COMMIT_ACTION, Map.of(HoodieWriteConfig.STREAMER_CHECKPOINT_KEY,
        "orders=" + consumed + ",users=" + usersConsumed));

    try (Pushgateway pushgateway = Pushgateway.start(dir.resolve("pushgateway.log"))) {
      PipelineSpec pipeline = pipeline(target, orders, users, pushgateway.port());
      // Ten minutes after the data became readable, then 70 minutes later without the pipeline moving: stalled.
      new FreshnessReporter(Clock.fixed(visible.plus(Duration.ofMinutes(10)), ZoneOffset.UTC), CONF, Map.of(), 10)
          .reportOnce(List.of(pipeline));
      FreshnessReporter reporter = new FreshnessReporter(Clock.fixed(now, ZoneOffset.UTC), CONF, Map.of(), 10);
      assertEquals(1, reporter.reportOnce(List.of(pipeline)).size());

      try (HTTPServer endpoint = reporter.labelledMetrics().serve("127.0.0.1", 0);
           Prometheus prometheus = Prometheus.start(dir, List.of("127.0.0.1:" + pushgateway.port(),
               "127.0.0.1:" + endpoint.getPort()), List.of(RULES))) {
        String pushed = "job=\"hudi_freshness\",observer=\"reporter\"";
        String scraped = "job=\"freshness\"";

        // Both ways in: the pushgateway group of the reporter, and the reporter's endpoint (no observer label).
        for (String origin : List.of(pushed, scraped)) {
          assertEquals(List.of("source=orders,source_kind=hudi -> 4800", "source=users,source_kind=hudi -> 0"),
              Prometheus.series(prometheus.awaitResult("hudi_freshness_lag_seconds{pipeline=\"joined\"," + origin
                  + "}", SCRAPED), "source", "source_kind"), origin);
          assertEquals(List.of("source=orders -> 1", "source=users -> 0"), Prometheus.series(prometheus.query(
              "hudi_freshness_sla_ratio{pipeline=\"joined\"," + origin + "}"), "source"), origin);
          assertEquals(List.of("source=orders -> 1", "source=users -> 0"), Prometheus.series(prometheus.query(
              "hudi_freshness_pending_instants{pipeline=\"joined\"," + origin + "}"), "source"), origin);
          assertEquals(List.of("source=orders,status=STALLED -> 1", "source=users,status=IDLE -> 1"),
              Prometheus.series(prometheus.query("hudi_freshness_status{pipeline=\"joined\"," + origin + "} == 1"),
                  "source", "status"), origin);
          assertEquals(List.of("pipeline=joined -> " + now.getEpochSecond()), Prometheus.series(prometheus.query(
              "hudi_freshness_last_measurement_timestamp_seconds{" + origin + "}"), "pipeline"), origin);
        }
        Instant scrapedBoth = Instant.now();
        // The pushgateway holds the counts of each reporter process; the endpoint those of the one serving it.
        assertEquals(List.of("pipeline=joined -> 1"), Prometheus.series(prometheus.query(
            "hudi_freshness_measurements_total{" + scraped + "}"), "pipeline"));

        // The rules: orders breaches its SLA and is stalled; the alerts wait out their 'for' (5-10 minutes) as pending.
        prometheus.awaitRulesEvaluatedAfter(scrapedBoth, SCRAPED);
        assertEquals(List.of("alertname=HudiFreshnessSlaAtRisk,source=orders,alertstate=pending -> 1",
                "alertname=HudiFreshnessSlaBreached,source=orders,alertstate=pending -> 1",
                "alertname=HudiFreshnessSourceStalled,source=orders,alertstate=pending -> 1"),
            Prometheus.series(prometheus.query("ALERTS{pipeline=\"joined\"}"), "alertname", "source", "alertstate"));

        // Every query of the dashboard, for this pipeline, has data; but retention headroom, which a source never
        // cleaned nor archived (as these) does not have.
        for (String query : dashboardQueries()) {
          if (query.contains("hudi_freshness_retention_headroom_")) {
            continue;
          }
          String expr = query.replace("$pipeline", "joined");
          assertTrue(prometheus.awaitResult(expr, SCRAPED).size() > 0, expr);
        }
      }
    }
  }

  /** The PromQL of every panel target of the shipped dashboard. */
  private static List<String> dashboardQueries() throws Exception {
    List<String> queries = new ArrayList<>();
    for (JsonNode panel : new ObjectMapper().readTree(DASHBOARD.toFile()).path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        queries.add(target.path("expr").asText());
      }
    }
    assertEquals(10, queries.size(), "panel targets of " + DASHBOARD);
    return queries;
  }

  private static PipelineSpec pipeline(String target, String orders, String users, int pushgatewayPort) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders,users");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", orders);
    props.setProperty("hoodie.streamer.source.hudi.users.path", users);
    props.setProperty("hoodie.streamer.freshness.sla.minutes", "60");
    props.setProperty("hoodie.streamer.freshness.prometheus.pushgateway.address", "127.0.0.1:" + pushgatewayPort);
    return StreamerPipelineSpec.from(props, target, "joined");
  }
}
