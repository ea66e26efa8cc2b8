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

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Metric names and the values of a measurement: Prometheus-style names, per-source name parts, no value for the
 * unknown.
 */
class TestMetricNames {

  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

  @Test
  void namesCarryPipelineAndSourceAsSanitizedNameParts() {
    MetricNames names = new MetricNames("db.joined-v2");
    assertEquals("hudi_freshness.db_joined_v2.source.db_orders.lag_seconds",
        names.source("db.orders", MetricNames.LAG_SECONDS));
    assertEquals("hudi_freshness.db_joined_v2.sla_ratio", names.pipeline(MetricNames.SLA_RATIO));
  }

  @Test
  void valuesHoldEveryKnownNumberAndNothingForTheUnknown() {
    FreshnessPolicy policy = FreshnessPolicy.of(Duration.ofMinutes(10), Duration.ofDays(7));
    PipelineFreshness freshness = new PipelineFreshness("joined", "/data/joined", Observer.REPORTER, NOW,
        StoredCheckpoint.found("c2", "orders=1,clicks=2", 2), List.of(
            SourceFreshness.measure("orders", SourceKind.HUDI, "1",
                QueueHead.waitingSince(NOW.minusMillis(150_500), 2)
                    .withHeadroom(RetentionHeadroom.of(5, Duration.ofHours(1))), NOW, policy),
            SourceFreshness.measure("clicks", SourceKind.KAFKA, "clicks,0:1", QueueHead.withoutTimestamp(40), NOW,
                policy),
            SourceFreshness.noCheckpoint("users", SourceKind.HUDI)));
    Map<String, Double> expected = new TreeMap<>();
    expected.put("hudi_freshness.joined.source.orders.lag_seconds", 150.5);
    expected.put("hudi_freshness.joined.source.orders.raw_lag_seconds", 150.5);
    expected.put("hudi_freshness.joined.source.orders.sla_ratio", 150.5 / 600);
    expected.put("hudi_freshness.joined.source.orders.pending_instants", 2.0);
    expected.put("hudi_freshness.joined.source.orders.retention_headroom_commits", 5.0);
    expected.put("hudi_freshness.joined.source.orders.retention_headroom_seconds", 3600.0);
    expected.put("hudi_freshness.joined.source.clicks.offset_lag", 40.0);
    expected.put("hudi_freshness.joined.lag_seconds", 150.5);
    expected.put("hudi_freshness.joined.sla_ratio", 150.5 / 600);
    expected.put("hudi_freshness.joined.unreadable_sources", 0.0);
    expected.put("hudi_freshness.joined.checkpoint_search_depth", 2.0);
    assertEquals(expected, new MetricNames("joined").values(freshness));
  }
}
