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

import org.apache.hudi.utilities.docs.MarkdownLinkChecker;
import org.apache.hudi.utilities.freshness.testutils.Promtool;
import org.apache.hudi.utilities.reporter.ReporterMetrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped alert rules are valid and do what their unit tests (series over time, expected alerts) say:
 * {@code promtool check rules} and {@code promtool test rules}, run as CI runs them. Every alert links to its section
 * of the operations page and is described in docs/freshness.md; every metric a rule reads is one the observers export.
 */
class TestFreshnessAlertRules {

  private static final Path FOLDER = Paths.get("..", "docs", "freshness", "prometheus");
  private static final Path OPERATIONS = Paths.get("..", "docs", "operations.md");
  private static final Path FRESHNESS = Paths.get("..", "docs", "freshness.md");
  /** The base of every runbook URL: docs/freshness.md tells operators to replace it with their copy's. */
  private static final String RUNBOOK_BASE = "https://github.com/YOUR-ORG/hudi-utilities-ext/blob/main/";

  /** The rules of every group of the rule file. */
  private static List<JsonNode> rules() throws Exception {
    List<JsonNode> rules = new ArrayList<>();
    for (JsonNode group : new ObjectMapper(new YAMLFactory()).readTree(FOLDER.resolve("freshness-rules.yml").toFile())
        .path("groups")) {
      group.path("rules").forEach(rules::add);
    }
    return rules;
  }

  @Test
  void theRuleFileIsValid() throws Exception {
    Promtool.Result checked = Promtool.run(List.of("check", "rules"), FOLDER.resolve("freshness-rules.yml"));

    assertEquals(0, checked.exitCode, checked.output);
    assertTrue(checked.output.contains("SUCCESS: 22 rules found"), checked.output);
  }

  @Test
  void theRulesPassTheirUnitTests() throws Exception {
    Promtool.Result tested = Promtool.run(List.of("test", "rules"), FOLDER.resolve("freshness-rules-test.yml"));

    assertEquals(0, tested.exitCode, tested.output);
    assertTrue(tested.output.contains("SUCCESS"), tested.output);
  }

  /**
   * The promtool tests (run by {@link #theRulesPassTheirUnitTests}, which compares every expected alert exactly) hold a
   * dead Kafka cluster read by 5 pipelines at a 1-minute and at a 15-minute cadence, each expecting one alert for the
   * cluster and no unreadable or unknown-lag alert for its pipelines.
   */
  @Test
  void deadKafkaClusterReadByFivePipelinesRaisesOneAlertAtBothCadences() throws Exception {
    JsonNode tests = new ObjectMapper(new YAMLFactory()).readTree(FOLDER.resolve("freshness-rules-test.yml").toFile())
        .path("tests");
    Set<String> cadences = new TreeSet<>();
    for (JsonNode test : tests) {
      String dead = null;
      String cadence = null;
      Set<String> pipelinesOfDead = new TreeSet<>();
      for (JsonNode input : test.path("input_series")) {
        String series = input.path("series").asText();
        String values = input.path("values").asText();
        if (series.startsWith(ReporterMetrics.KAFKA_CLUSTER_REACHABLE + "{") && values.matches(".*\\b0x\\d+$")) {
          dead = label(series, LabelledFreshnessMetrics.CLUSTER_LABEL);
        } else if (series.startsWith(ReporterMetrics.INTERVAL + "{")) {
          cadence = values.substring(0, values.indexOf('x'));
        }
      }
      if (dead == null) {
        continue;
      }
      for (JsonNode input : test.path("input_series")) {
        String series = input.path("series").asText();
        if (series.startsWith(LabelledFreshnessMetrics.STATUS + "{") && dead.equals(label(series,
            LabelledFreshnessMetrics.CLUSTER_LABEL))) {
          pipelinesOfDead.add(label(series, LabelledFreshnessMetrics.PIPELINE_LABEL));
        }
      }
      assertEquals(5, pipelinesOfDead.size(), pipelinesOfDead.toString());
      int clusterAlertsExpected = 0;
      for (JsonNode expectation : test.path("alert_rule_test")) {
        String alert = expectation.path("alertname").asText();
        for (JsonNode expected : expectation.path("exp_alerts")) {
          JsonNode labels = expected.path("exp_labels");
          if (alert.equals("HudiFreshnessKafkaClusterUnreachable")) {
            assertEquals(dead, labels.path(LabelledFreshnessMetrics.CLUSTER_LABEL).asText());
            assertEquals(1, expectation.path("exp_alerts").size(), "one alert for the cluster at " + expectation);
            clusterAlertsExpected++;
          }
          assertFalse(pipelinesOfDead.contains(labels.path(LabelledFreshnessMetrics.PIPELINE_LABEL).asText()),
              "an alert of its own for a pipeline of the dead cluster: " + expectation);
        }
      }
      assertTrue(clusterAlertsExpected > 0, "no alert expected for the dead cluster " + dead);
      cadences.add(cadence);
    }
    assertEquals(Set.of("60", "900"), cadences);
  }

  /** The value of a label in a series selector such as {@code name{a="1",b="2"}}. */
  private static String label(String series, String name) {
    Matcher value = Pattern.compile("[{,]" + name + "=\"([^\"]*)\"").matcher(series);
    return value.find() ? value.group(1) : null;
  }

  @Test
  void everyAlertHasASeverityAndLinksToItsSectionOfTheOperationsPage() throws Exception {
    Set<String> sections = MarkdownLinkChecker.anchors(Files.readAllLines(OPERATIONS, StandardCharsets.UTF_8));
    String freshness = new String(Files.readAllBytes(FRESHNESS), StandardCharsets.UTF_8);
    assertTrue(freshness.contains(RUNBOOK_BASE), "docs/freshness.md does not say what to replace " + RUNBOOK_BASE
        + " with");
    Set<String> anchors = new HashSet<>();
    int alerts = 0;
    for (JsonNode rule : rules()) {
      if (!rule.has("alert")) {
        continue;
      }
      alerts++;
      String alert = rule.path("alert").asText();
      assertTrue(Set.of("warning", "page").contains(rule.path("labels").path("severity").asText()), alert);
      String url = rule.path("annotations").path("runbook_url").asText();
      assertTrue(url.startsWith(RUNBOOK_BASE + "docs/operations.md#"), alert + ": " + url);
      String anchor = url.substring(url.indexOf('#') + 1);
      assertTrue(sections.contains(anchor), alert + ": docs/operations.md has no section #" + anchor);
      assertTrue(anchors.add(anchor), alert + " shares its runbook section #" + anchor);
      assertTrue(freshness.contains("`" + alert + "`"), "docs/freshness.md does not describe " + alert);
    }
    assertEquals(18, alerts);
  }

  @Test
  void everyMetricTheRulesReadIsExported() throws Exception {
    Set<String> exported = FreshnessMetricNames.exported();
    Set<String> recorded = new HashSet<>();
    rules().forEach(rule -> recorded.add(rule.path("record").asText()));
    Set<String> missing = new TreeSet<>();
    for (JsonNode rule : rules()) {
      Set<String> used = FreshnessMetricNames.used(rule.path("expr").asText());
      assertFalse(used.isEmpty(), rule.toString());
      for (String name : used) {
        if (!exported.contains(name) && !recorded.contains(name) && !FreshnessMetricNames.PROMETHEUS_OWN.contains(name)) {
          missing.add(name);
        }
      }
    }
    // Until the retention gauges are merged into LabelledFreshnessMetrics, this names
    // hudi_freshness_retention_headroom_commits (and only it).
    assertEquals(Set.of(), missing, "read by the rules, exported by nothing: " + missing + "; exported: " + exported);
  }
}
