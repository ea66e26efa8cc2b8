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
import org.apache.hudi.utilities.reporter.FreshnessReporter;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.apache.hadoop.conf.Configuration;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names on both sides of the monitoring files: those {@link LabelledFreshnessMetrics} exports, as Prometheus
 * names them, and those a PromQL expression (or a Grafana variable query) selects. The exported names are also those
 * the documentation must give (TestMetricNamesInDocs).
 */
public final class FreshnessMetricNames {

  /** Series Prometheus makes itself for every scrape target, not exported by anything of ours. */
  static final Set<String> PROMETHEUS_OWN = Set.of("up");

  private static final Pattern LABEL_VALUES = Pattern.compile("^\\s*label_values\\((.*),\\s*\\w+\\s*\\)\\s*$",
      Pattern.DOTALL);
  /** Label lists of aggregations and vector matching: names of labels, not of metrics. */
  private static final Pattern LABEL_LIST = Pattern.compile(
      "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern TOKEN = Pattern.compile(
      "\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`|\\{[^}]*}|\\[[^]]*]"
          + "|[0-9][0-9a-zA-Z_.]*|[a-zA-Z_:][a-zA-Z0-9_:]*(\\s*\\()?");
  private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan", "atan2",
      "by", "without", "on", "ignoring", "group_left", "group_right");

  private FreshnessMetricNames() {
  }

  /**
   * The names a measurement publishes, read from {@link LabelledFreshnessMetrics#collect()}, and those the reporter
   * publishes about its rounds ({@code ReporterMetrics}): every snapshot's name, counters with Prometheus'
   * {@code _total}.
   */
  public static Set<String> exported() {
    Instant now = Instant.parse("2026-11-30T08:00:00Z");
    FreshnessPolicy policy = FreshnessPolicy.of(Duration.ofMinutes(60), Duration.ofDays(7));
    PipelineSpec pipeline = PipelineSpec.builder("joined", "/data/joined").policy(policy)
        .source(SourceSpec.hudi("orders", "/data/orders")).build();
    LabelledFreshnessMetrics metrics = new LabelledFreshnessMetrics();
    metrics.update(pipeline, new PipelineFreshness("joined", "/data/joined", Observer.REPORTER, now,
        StoredCheckpoint.found("20261130070000000", "orders=1", 1), List.of(SourceFreshness.measure("orders",
        SourceKind.HUDI, "1", QueueHead.waitingSince(now.minus(Duration.ofMinutes(15)), 2), now, policy))));
    metrics.countFailure(pipeline);
    Set<String> names = new TreeSet<>();
    addNames(metrics.collect(), names);
    // The reporter's own, after a round, with a cadence.
    try (FreshnessReporter reporter = new FreshnessReporter(Clock.fixed(now, ZoneOffset.UTC), new Configuration(),
        Map.of(), 1, FreshnessReporter.Settings.defaults().workers(1).interval(Duration.ofMinutes(1)))) {
      reporter.runRound(List.of());
      addNames(reporter.reporterMetrics().collect(), names);
    }
    return names;
  }

  private static void addNames(MetricSnapshots snapshots, Set<String> names) {
    for (MetricSnapshot snapshot : snapshots) {
      String name = snapshot.getMetadata().getPrometheusName();
      names.add(snapshot instanceof CounterSnapshot ? name + "_total" : name);
    }
  }

  /**
   * The metric names an expression selects, in order of appearance: identifiers outside strings, label matchers,
   * ranges and label lists that are neither followed by '(' (functions, aggregations) nor operators. A Grafana
   * {@code label_values(selector, label)} query selects what its selector does.
   */
  static Set<String> used(String expression) {
    Matcher labelValues = LABEL_VALUES.matcher(expression);
    String promql = labelValues.matches() ? labelValues.group(1) : expression;
    Matcher tokens = TOKEN.matcher(LABEL_LIST.matcher(promql).replaceAll(" "));
    Set<String> names = new LinkedHashSet<>();
    while (tokens.find()) {
      String token = tokens.group();
      char first = token.charAt(0);
      boolean identifier = Character.isLetter(first) || first == '_' || first == ':';
      if (identifier && tokens.group(1) == null && !KEYWORDS.contains(token.toLowerCase(Locale.ROOT))) {
        names.add(token);
      }
    }
    return names;
  }
}
