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

import org.apache.hudi.utilities.freshness.testutils.Promtool;
import org.apache.hudi.utilities.reporter.ReporterMetrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped Grafana dashboards (one pipeline's, the fleet's) each import into any Grafana as its importer reads it: the data source is chosen at
 * import (input {@code DS_PROMETHEUS}) or, where nothing resolves inputs (file provisioning, as in docker-demo/), by
 * the dashboard's own data source variable; no panel names a data source's uid; every query is PromQL over metrics the
 * freshness observers export, without the alert rules' recording rules.
 */
class TestFreshnessDashboard {

  private static final Path FOLDER = Paths.get("..", "docs", "freshness", "prometheus");
  private static final String PIPELINE = "freshness-dashboard.json";
  private static final String FLEET = "freshness-fleet-dashboard.json";
  private static final String INPUT = "DS_PROMETHEUS";
  private static final String VARIABLE = "datasource";
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{(\\w+)}");

  @TempDir
  Path dir;

  private static JsonNode dashboard(String file) throws Exception {
    return new ObjectMapper().readTree(FOLDER.resolve(file).toFile());
  }

  private static List<JsonNode> panels(JsonNode dashboard) {
    List<JsonNode> panels = new ArrayList<>();
    dashboard.path("panels").forEach(panels::add);
    return panels;
  }

  /** Every PromQL query of the dashboard, by where it is: variable queries, then panel targets. */
  private static Map<String, String> queries(JsonNode dashboard) {
    Map<String, String> queries = new LinkedHashMap<>();
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      if ("query".equals(variable.path("type").asText())) {
        JsonNode query = variable.path("query");
        queries.put("variable " + variable.path("name").asText(),
            query.isObject() ? query.path("query").asText() : query.asText());
      }
    }
    for (JsonNode panel : panels(dashboard)) {
      for (JsonNode target : panel.path("targets")) {
        queries.put("panel " + panel.path("id").asInt() + " (" + panel.path("title").asText() + ") target "
            + target.path("refId").asText(), target.path("expr").asText());
      }
    }
    return queries;
  }

  /** Every "datasource" value anywhere in the dashboard, by its JSON path. */
  private static void dataSources(JsonNode node, String path, Map<String, JsonNode> found) {
    if (node.isObject()) {
      node.fields().forEachRemaining(field -> {
        if ("datasource".equals(field.getKey())) {
          found.put(path + "/datasource", field.getValue());
        } else {
          dataSources(field.getValue(), path + "/" + field.getKey(), found);
        }
      });
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        dataSources(node.get(i), path + "/" + i, found);
      }
    }
  }

  private static void strings(JsonNode node, List<String> found) {
    if (node.isTextual()) {
      found.add(node.asText());
    }
    node.forEach(child -> strings(child, found));
  }

  @ParameterizedTest
  @ValueSource(strings = {PIPELINE, FLEET})
  void theImporterIsAskedForThePrometheusDataSourceAndEveryInputUsedIsDeclared(String file) throws Exception {
    JsonNode dashboard = dashboard(file);
    JsonNode inputs = dashboard.path("__inputs");
    assertEquals(1, inputs.size(), inputs.toString());
    assertEquals(INPUT, inputs.get(0).path("name").asText());
    assertEquals("datasource", inputs.get(0).path("type").asText());
    assertEquals("prometheus", inputs.get(0).path("pluginId").asText());

    Set<String> variables = new HashSet<>();
    dashboard.path("templating").path("list").forEach(variable -> variables.add(variable.path("name").asText()));
    List<String> strings = new ArrayList<>();
    strings(dashboard, strings);
    Set<String> referenced = new TreeSet<>();
    for (String value : strings) {
      Matcher reference = REFERENCE.matcher(value);
      while (reference.find()) {
        if (!variables.contains(reference.group(1))) {
          referenced.add(reference.group(1));
        }
      }
    }
    // The input is used (by the data source variable's initial value), and it is the only one.
    assertEquals(Set.of(INPUT), referenced);

    Set<String> required = new HashSet<>();
    dashboard.path("__requires").forEach(entry -> required.add(entry.path("type").asText() + ":"
        + entry.path("id").asText()));
    assertTrue(required.containsAll(Set.of("grafana:grafana", "datasource:prometheus")), required.toString());
    for (JsonNode panel : panels(dashboard)) {
      assertTrue(required.contains("panel:" + panel.path("type").asText()), "__requires lacks the panel type of "
          + panel.path("title").asText() + ": " + required);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {PIPELINE, FLEET})
  void everyQueryRunsOnTheDataSourceOfTheVariableWhichStartsAsTheImportedOne(String file) throws Exception {
    JsonNode dashboard = dashboard(file);
    JsonNode variable = null;
    for (JsonNode candidate : dashboard.path("templating").path("list")) {
      if (VARIABLE.equals(candidate.path("name").asText())) {
        variable = candidate;
      }
    }
    assertNotNull(variable, "no templating variable " + VARIABLE);
    assertEquals("datasource", variable.path("type").asText());
    assertEquals("prometheus", variable.path("query").asText());
    assertEquals("${" + INPUT + "}", variable.path("current").path("value").asText());

    Map<String, JsonNode> dataSources = new LinkedHashMap<>();
    dataSources(dashboard, "", dataSources);
    // The variable itself, every other variable, every panel and every target.
    long targets = panels(dashboard).stream().mapToLong(panel -> panel.path("targets").size()).sum();
    assertEquals(dashboard.path("templating").path("list").size() - 1 + panels(dashboard).size() + targets,
        dataSources.size(), dataSources.keySet().toString());
    dataSources.forEach((path, dataSource) -> {
      assertEquals("prometheus", dataSource.path("type").asText(), path);
      assertEquals("${" + VARIABLE + "}", dataSource.path("uid").asText(), path);
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {PIPELINE, FLEET})
  void panelsHaveUniqueIdsAndNonOverlappingPlacesOnTheGrid(String file) throws Exception {
    List<JsonNode> panels = panels(dashboard(file));
    Set<Integer> ids = new HashSet<>();
    List<int[]> placed = new ArrayList<>();
    for (JsonNode panel : panels) {
      String title = panel.path("title").asText();
      assertTrue(panel.path("id").isInt() && ids.add(panel.path("id").asInt()), "id of " + title);
      JsonNode grid = panel.path("gridPos");
      for (String field : List.of("x", "y", "w", "h")) {
        assertTrue(grid.path(field).isInt(), "gridPos." + field + " of " + title);
      }
      int[] box = {grid.path("x").asInt(), grid.path("y").asInt(), grid.path("w").asInt(), grid.path("h").asInt()};
      assertTrue(box[0] >= 0 && box[2] > 0 && box[0] + box[2] <= 24 && box[3] > 0, "gridPos of " + title);
      for (int[] other : placed) {
        boolean apart = box[0] + box[2] <= other[0] || other[0] + other[2] <= box[0]
            || box[1] + box[3] <= other[1] || other[1] + other[3] <= box[1];
        assertTrue(apart, title + " overlaps another panel");
      }
      placed.add(box);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {PIPELINE, FLEET})
  void everyQueryIsPromqlOverExportedMetricsWithoutTheRecordingRules(String file) throws Exception {
    Map<String, String> queries = queries(dashboard(file));
    Set<String> exported = FreshnessMetricNames.exported();
    StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
    int index = 0;
    Set<String> missing = new TreeSet<>();
    for (Map.Entry<String, String> query : queries.entrySet()) {
      Set<String> used = FreshnessMetricNames.used(query.getValue());
      assertFalse(used.isEmpty(), query.getKey() + " selects no metric: " + query.getValue());
      for (String name : used) {
        assertFalse(name.contains(":"), query.getKey() + " needs the recording rule " + name);
        if (!exported.contains(name)) {
          missing.add(name);
        }
      }
      // Grafana's variables replaced by values, as Grafana does before sending the query.
      String promql = query.getValue().startsWith("label_values(") ? String.join(" or ", used)
          : query.getValue().replace("$pipeline", "joined");
      rules.append("      - record: dashboard_query_").append(index++).append("\n        expr: ")
          .append(new ObjectMapper().writeValueAsString(promql)).append('\n');
    }
    // promtool parses each query as Prometheus does (it checks a rule file; each query is one rule's expression).
    Path ruleFile = dir.resolve("dashboard-queries.yml");
    Files.write(ruleFile, rules.toString().getBytes(StandardCharsets.UTF_8));
    Promtool.Result checked = Promtool.run(List.of("check", "rules"), ruleFile);
    assertEquals(0, checked.exitCode, checked.output + "\n" + rules);
    assertTrue(checked.output.contains("SUCCESS: " + queries.size() + " rules found"), checked.output);
    assertEquals(Set.of(), missing, "queried by the dashboard, exported by nothing: " + missing + "; exported: "
        + exported);
  }

  @ParameterizedTest
  @ValueSource(strings = {PIPELINE, FLEET})
  void theSlaRatioPanelWarnsAt70PercentAndPagesAtTheSla(String file) throws Exception {
    List<JsonNode> slaPanels = new ArrayList<>();
    for (JsonNode panel : panels(dashboard(file))) {
      for (JsonNode target : panel.path("targets")) {
        if (FreshnessMetricNames.used(target.path("expr").asText()).contains(LabelledFreshnessMetrics.SLA_RATIO)) {
          slaPanels.add(panel);
        }
      }
    }
    assertEquals(1, slaPanels.size());
    JsonNode steps = slaPanels.get(0).path("fieldConfig").path("defaults").path("thresholds").path("steps");
    assertEquals(3, steps.size(), steps.toString());
    assertTrue(steps.get(0).path("value").isNull(), steps.toString());
    assertEquals(0.7, steps.get(1).path("value").asDouble(-1));
    assertEquals(1.0, steps.get(2).path("value").asDouble(-1));
    assertEquals("absolute", slaPanels.get(0).path("fieldConfig").path("defaults").path("thresholds").path("mode")
        .asText());
  }

  @Test
  void retentionHeadroomAndUnreadableSourcesHavePanels() throws Exception {
    Set<String> charted = new HashSet<>();
    for (String query : queries(dashboard(PIPELINE)).values()) {
      charted.addAll(FreshnessMetricNames.used(query));
    }
    assertTrue(charted.containsAll(Set.of(LabelledFreshnessMetrics.RETENTION_HEADROOM_COMMITS,
        LabelledFreshnessMetrics.UNREADABLE_SOURCES, LabelledFreshnessMetrics.FAILURES + "_total",
        LabelledFreshnessMetrics.LAST_MEASUREMENT)), charted.toString());
  }

  @Test
  void theFleetShowsItsWorstPipelinesByTopkItsStatusCountsTheReportersRoundsAndItsKafkaClusters() throws Exception {
    Set<String> charted = new HashSet<>();
    boolean worstByTopk = false;
    for (String query : queries(dashboard(FLEET)).values()) {
      Set<String> used = FreshnessMetricNames.used(query);
      charted.addAll(used);
      worstByTopk |= query.startsWith("topk(") && used.contains(LabelledFreshnessMetrics.SLA_RATIO);
    }
    assertTrue(worstByTopk, "no topk of " + LabelledFreshnessMetrics.SLA_RATIO);
    assertTrue(charted.containsAll(Set.of(LabelledFreshnessMetrics.STATUS, ReporterMetrics.ROUND_DURATION,
        ReporterMetrics.INTERVAL, ReporterMetrics.ROUND_PIPELINES, ReporterMetrics.OVERRUNS + "_total",
        ReporterMetrics.LAST_COMPLETE_ROUND, ReporterMetrics.STUCK_WORKERS, ReporterMetrics.KAFKA_CLUSTER_REACHABLE,
        LabelledFreshnessMetrics.UNREADABLE_SOURCES, LabelledFreshnessMetrics.FAILURES + "_total")), charted.toString());
  }

  @Test
  void theMetricNameReaderSeesSelectorsNotFunctionsLabelsOrKeywords() {
    assertEquals(Set.of("hudi_freshness_sla_ratio", "hudi_freshness:measurement_age_seconds"),
        FreshnessMetricNames.used("max by (pipeline, source) (hudi_freshness_sla_ratio{status=\"on\", p=~\"a|b\"}\n"
            + "  and on (pipeline, observer) group_left (x) (hudi_freshness:measurement_age_seconds < 900)) >= bool 1"));
    assertEquals(Set.of("hudi_freshness_failures_total"),
        FreshnessMetricNames.used("sum(increase(hudi_freshness_failures_total{pipeline=\"$pipeline\"}[15m] offset 5m))"));
    assertEquals(Set.of("hudi_freshness_last_measurement_timestamp_seconds"),
        FreshnessMetricNames.used("label_values(hudi_freshness_last_measurement_timestamp_seconds, pipeline)"));
    assertEquals(Set.of("up"), FreshnessMetricNames.used("absent(up{job=\"x\"}) or time() - up > 1e3"));
  }
}
