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

package org.apache.hudi.utilities.freshness.testutils;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Prometheus server (Debian package prometheus) on a free 127.0.0.1 port that scrapes the given targets every
 * second, optionally with rule files, queried over its HTTP API. Started by the test and stopped after it.
 */
public final class Prometheus implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LocalServer server;

  private Prometheus(LocalServer server) {
    this.server = server;
  }

  /**
   * @param targets   {@code host:port} of each endpoint to scrape at {@code /metrics}, with honor_labels (a pushgateway
   *                  keeps the labels of the pushed series)
   * @param ruleFiles rule files to load and evaluate every second
   */
  public static Prometheus start(Path dir, List<String> targets, List<Path> ruleFiles)
      throws IOException, InterruptedException {
    String binary = LocalServer.binary("prometheus", "/usr/bin/prometheus", "/usr/local/bin/prometheus");
    StringBuilder config = new StringBuilder("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n");
    if (!ruleFiles.isEmpty()) {
      config.append("rule_files:\n");
      ruleFiles.forEach(file -> config.append("  - '").append(file.toAbsolutePath()).append("'\n"));
    }
    config.append("scrape_configs:\n  - job_name: freshness\n    honor_labels: true\n    static_configs:\n")
        .append("      - targets: [").append(targets.stream().map(target -> "'" + target + "'")
            .collect(Collectors.joining(", "))).append("]\n");
    Path configFile = Files.writeString(dir.resolve("prometheus.yml"), config.toString());
    int port = LocalServer.freePort();
    return new Prometheus(LocalServer.start(List.of(binary, "--config.file=" + configFile,
        "--storage.tsdb.path=" + Files.createDirectories(dir.resolve("prometheus-data")),
        "--web.listen-address=127.0.0.1:" + port), port, "/-/ready", dir.resolve("prometheus.log")));
  }

  /** The {@code data.result} of an instant query, evaluated now. */
  public JsonNode query(String promql) throws IOException {
    JsonNode response = JSON.readTree(server.get("/api/v1/query?query="
        + URLEncoder.encode(promql, StandardCharsets.UTF_8)));
    if (!"success".equals(response.path("status").asText())) {
      throw new IllegalStateException("Prometheus cannot evaluate " + promql + ": " + response);
    }
    return response.path("data").path("result");
  }

  /**
   * Queries until the result is not empty (a scrape or a rule evaluation has happened).
   *
   * @throws IllegalStateException if the result stays empty for the whole timeout
   */
  public JsonNode awaitResult(String promql, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      JsonNode result = query(promql);
      if (result.size() > 0) {
        return result;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Prometheus has no result for " + promql + " after " + timeout
            + "; targets: " + server.get("/api/v1/targets"));
      }
      TimeUnit.MILLISECONDS.sleep(250);
    }
  }

  /**
   * Waits until every rule group has been evaluated at or after {@code instant}: such an evaluation sees every sample
   * a query saw before {@code instant}, so its alerts are those that data raise, whenever the machine lets it run.
   *
   * @throws IllegalStateException if no evaluation that late happens within the timeout
   */
  public void awaitRulesEvaluatedAfter(Instant instant, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      JsonNode groups = JSON.readTree(server.get("/api/v1/rules")).path("data").path("groups");
      boolean evaluated = groups.size() > 0;
      for (JsonNode group : groups) {
        evaluated &= !OffsetDateTime.parse(group.path("lastEvaluation").asText()).toInstant().isBefore(instant);
      }
      if (evaluated) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Prometheus has not evaluated its rules since " + instant + " after "
            + timeout + ": " + groups);
      }
      TimeUnit.MILLISECONDS.sleep(250);
    }
  }

  /** The value of each series of a result as "label=value,... -> value", labels sorted, __name__ and job left out. */
  public static List<String> series(JsonNode result, String... labels) {
    List<String> series = new ArrayList<>();
    for (JsonNode sample : result) {
      List<String> parts = new ArrayList<>();
      for (String label : labels) {
        parts.add(label + "=" + sample.path("metric").path(label).asText());
      }
      series.add(String.join(",", parts) + " -> " + sample.path("value").get(1).asText());
    }
    series.sort(null);
    return series;
  }

  @Override
  public void close() throws InterruptedException {
    server.close();
  }
}
