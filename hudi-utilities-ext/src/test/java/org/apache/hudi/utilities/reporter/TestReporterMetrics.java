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

package org.apache.hudi.utilities.reporter;

import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.freshness.Observer;
import org.apache.hudi.utilities.freshness.PipelineFreshness;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reporter observed: each round's outcome counts, its duration and end, the cadence, the overruns and whether each
 * Kafka cluster answered.
 */
class TestReporterMetrics {

  private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

  @Test
  void roundsPublishTheirOutcomesTheCadenceAndTheOverruns() {
    try (MeasurementRound round = new MeasurementRound(pipeline -> {
      if (pipeline.name().equals("broken")) {
        throw new IllegalStateException("no timeline");
      }
      return new PipelineFreshness(pipeline.name(), pipeline.basePath(), Observer.REPORTER, NOW,
          StoredCheckpoint.none(0), List.of());
    }, 2, Duration.ofSeconds(30), Clock.fixed(NOW, ZoneOffset.UTC))) {
      ReporterMetrics metrics = new ReporterMetrics(Duration.ofMinutes(15), round,
          () -> Map.of("main", false, "other", true));
      metrics.roundDone(round.run(TestMeasurementRound.pipelines("a", "b", "broken")));
      metrics.overruns(1);

      Map<String, Double> values = values(metrics);

      assertEquals(900.0, values.get(ReporterMetrics.INTERVAL));
      assertEquals(2.0, values.get(ReporterMetrics.ROUND_PIPELINES + "{outcome=measured}"));
      assertEquals(1.0, values.get(ReporterMetrics.ROUND_PIPELINES + "{outcome=failed}"));
      assertEquals(0.0, values.get(ReporterMetrics.ROUND_PIPELINES + "{outcome=timed_out}"));
      assertEquals(1.0, values.get(ReporterMetrics.ROUNDS + "_total"));
      assertEquals(1.0, values.get(ReporterMetrics.OVERRUNS + "_total"));
      assertEquals(2.0, values.get(ReporterMetrics.WORKERS));
      assertEquals(0.0, values.get(ReporterMetrics.STUCK_WORKERS));
      assertEquals(0.0, values.get(ReporterMetrics.KAFKA_CLUSTER_REACHABLE + "{cluster=main}"));
      assertEquals(1.0, values.get(ReporterMetrics.KAFKA_CLUSTER_REACHABLE + "{cluster=other}"));
      // The round's clock is fixed: it started and ended at NOW, whatever it took by the system's nanoseconds.
      assertEquals(NOW.getEpochSecond(), values.get(ReporterMetrics.LAST_COMPLETE_ROUND)
          - values.get(ReporterMetrics.ROUND_DURATION), 0.001);
    }
  }

  @Test
  void reporterRunOnceHasNoCadenceToPublishAndNoRoundBeforeItsFirst() {
    try (MeasurementRound round = new MeasurementRound(pipeline -> null, 1, Duration.ofSeconds(1),
        Clock.systemUTC())) {
      Map<String, Double> values = values(new ReporterMetrics(Duration.ZERO, round, Map::of));

      assertEquals(Map.of(ReporterMetrics.WORKERS, 1.0, ReporterMetrics.STUCK_WORKERS, 0.0,
          ReporterMetrics.ROUNDS + "_total", 0.0, ReporterMetrics.OVERRUNS + "_total", 0.0), values);
    }
  }

  /** Every data point, named as Prometheus names it, with its labels. */
  static Map<String, Double> values(ReporterMetrics metrics) {
    Map<String, Double> values = new TreeMap<>();
    for (MetricSnapshot snapshot : metrics.collect()) {
      String name = snapshot.getMetadata().getPrometheusName() + (snapshot instanceof CounterSnapshot ? "_total" : "");
      for (DataPointSnapshot point : snapshot.getDataPoints()) {
        String labels = point.getLabels().isEmpty() ? "" : "{" + point.getLabels().getName(0) + "="
            + point.getLabels().getValue(0) + "}";
        double value = point instanceof GaugeSnapshot.GaugeDataPointSnapshot
            ? ((GaugeSnapshot.GaugeDataPointSnapshot) point).getValue()
            : ((CounterSnapshot.CounterDataPointSnapshot) point).getValue();
        values.put(name + labels, value);
      }
    }
    return values;
  }
}
