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

package org.apache.hudi.utilities.freshness.hudi014;

import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.metrics.HoodieGauge;
import org.apache.hudi.metrics.Metrics;
import org.apache.hudi.utilities.freshness.FreshnessSink;
import org.apache.hudi.utilities.freshness.MetricNames;
import org.apache.hudi.utilities.freshness.PipelineFreshness;

// The Hudi 0.14 bundles relocate Dropwizard metrics: Hudi's registry is of the relocated type.
import org.apache.hudi.com.codahale.metrics.Gauge;
import org.apache.hudi.com.codahale.metrics.MetricRegistry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes freshness through Hudi 0.14's metrics system ({@code hoodie.metrics.*}), into the registry of the target's
 * {@link Metrics} instance, so that every configured Hudi reporter carries it. Gauges hold doubles (seconds with
 * millisecond precision, ratios); a value that is not known is removed from the registry, not set to 0.
 */
public final class HudiMetricsSink implements FreshnessSink {

  /** Failures per metric name, process-wide: the write client (and so the callback) may be re-created. */
  private static final ConcurrentMap<String, AtomicLong> FAILURES = new ConcurrentHashMap<>();

  private final Metrics metrics;
  private final boolean reportNow;

  private HudiMetricsSink(Metrics metrics, boolean reportNow) {
    this.metrics = metrics;
    this.reportNow = reportNow;
  }

  /**
   * @param config    a config with {@code hoodie.metrics.*} settings and the target's base path, which keys the
   *                  {@link Metrics} instance (the writer's own, inside a Streamer)
   * @param reportNow true to push to the reporters after each publish (the standalone reporter); false to leave it to
   *                  the reporters' schedule and shutdown (the commit callback, which must not flush the writer's
   *                  metrics)
   * @return {@link FreshnessSink#NONE} when {@code hoodie.metrics.on} is false
   */
  public static FreshnessSink of(HoodieWriteConfig config, boolean reportNow) {
    return config.isMetricsOn()
        ? new HudiMetricsSink(Metrics.getInstance(config), reportNow)
        : NONE;
  }

  @Override
  public synchronized void publish(PipelineFreshness freshness) {
    MetricNames names = new MetricNames(freshness.pipeline());
    Map<String, Double> values = names.values(freshness);
    MetricRegistry registry = metrics.getRegistry();
    String failuresName = names.pipeline(MetricNames.FAILURES_TOTAL);
    registry.removeMatching((name, metric) -> name.startsWith(names.pipelinePrefix()) && !values.containsKey(name)
        && !name.equals(failuresName));
    values.forEach((name, value) -> set(registry, name, value));
    set(registry, failuresName, failures(failuresName).get());
    report();
  }

  @Override
  public synchronized void countFailure(String pipeline) {
    String failuresName = new MetricNames(pipeline).pipeline(MetricNames.FAILURES_TOTAL);
    set(metrics.getRegistry(), failuresName, failures(failuresName).incrementAndGet());
    report();
  }

  private static AtomicLong failures(String name) {
    return FAILURES.computeIfAbsent(name, key -> new AtomicLong());
  }

  private void report() {
    if (reportNow) {
      metrics.flush();
    }
  }

  @SuppressWarnings("unchecked")
  private static void set(MetricRegistry registry, String name, double value) {
    Gauge<?> gauge = registry.gauge(name, () -> new HoodieGauge<>(value));
    ((HoodieGauge<Double>) gauge).setValue(value);
  }
}
