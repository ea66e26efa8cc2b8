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

package org.apache.hudi.utilities.docs;

import org.apache.hudi.utilities.freshness.FreshnessMetricNames;
import org.apache.hudi.utilities.hudi014.RetentionGuard;
import org.apache.hudi.utilities.hudi014.ViewMetrics;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every metric name the pages give exists, spelled as the code publishes it, and every metric the code publishes is
 * on its page: the labelled freshness metrics on {@code docs/freshness.md}, the Streamer's gauges on
 * {@code docs/operations.md} (multi-table) and {@code docs/views.md} (views). Names change in the code only.
 */
class TestMetricNamesInDocs {

  private static final Pattern LABELLED = Pattern.compile("\\bhudi_freshness_[a-z][a-z0-9_]*");
  /** Names of that form that are no metric: the scrape job the alert rules expect the reporter under. */
  private static final Set<String> NOT_METRICS = Set.of("hudi_freshness_reporter");
  private static final Pattern MULTI_TABLE = Pattern.compile("\\bmulti_table_[a-z0-9_]+");
  private static final Pattern VIEW = Pattern.compile("\\bview_(?:incremental|estimated_[a-z_]+)\\b");
  private static final List<String> PAGES = Arrays.asList("README.md", "docs/freshness.md", "docs/operations.md",
      "docs/views.md", "docs/tools.md", "docs/deployment.md", "rfc/rfc-108/rfc-108.md",
      "rfc/rfc-freshness/rfc-freshness.md");

  @Test
  void everyLabelledFreshnessMetricIsOnTheFreshnessPageUnderTheNameItIsExportedBy() throws IOException {
    Set<String> exported = FreshnessMetricNames.exported();

    assertEquals(exported, namesIn(LABELLED, "docs/freshness.md"), "docs/freshness.md's labelled metrics");
    assertNamedOnlyFrom(exported, LABELLED);
  }

  @Test
  void everyStreamerGaugeIsOnItsPageUnderTheNameItIsPublishedBy() throws IOException {
    Set<String> multiTable = new TreeSet<>(Arrays.asList(HoodieIncrMultiSource.MALFORMED_ENTRIES_METRIC,
        HoodieIncrMultiSource.SCHEMA_SKIPPED_TABLES_METRIC, RetentionGuard.MIN_HEADROOM_COMMITS_METRIC,
        RetentionGuard.MIN_HEADROOM_SECONDS_METRIC));
    Set<String> views = new TreeSet<>(Arrays.asList(ViewMetrics.INCREMENTAL, ViewMetrics.ESTIMATED_CHANGE,
        ViewMetrics.ESTIMATED_INCREMENTAL_MS, ViewMetrics.ESTIMATED_FULL_MS));

    assertEquals(multiTable, namesIn(MULTI_TABLE, "docs/operations.md"), "docs/operations.md's multi-table gauges");
    assertEquals(views, namesIn(VIEW, "docs/views.md"), "docs/views.md's view gauges");
    assertNamedOnlyFrom(multiTable, MULTI_TABLE);
    assertNamedOnlyFrom(views, VIEW);
  }

  /** No page names a metric of this kind that the code does not publish. */
  private static void assertNamedOnlyFrom(Set<String> published, Pattern kind) throws IOException {
    for (String page : PAGES) {
      Set<String> unknown = namesIn(kind, page);
      unknown.removeAll(published);
      assertEquals(Set.of(), unknown, page + " names metrics that are not published (published: " + published + ")");
    }
  }

  private static Set<String> namesIn(Pattern kind, String page) throws IOException {
    Path file = MarkdownLinkChecker.repositoryRoot().resolve(page);
    Matcher names = kind.matcher(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
    return names.results().map(MatchResult::group).filter(name -> !NOT_METRICS.contains(name))
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
