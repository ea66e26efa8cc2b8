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

// The Hudi 0.14 bundles relocate Dropwizard metrics: Hudi's registry is of the relocated type.
import org.apache.hudi.com.codahale.metrics.Counter;
import org.apache.hudi.com.codahale.metrics.MetricRegistry;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.metrics.Metrics;
import org.apache.hudi.utilities.freshness.MetricNames;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes freshness through Hudi 0.14's metrics system ({@code hoodie.metrics.*}), into the registry of the target's
 * {@link Metrics} instance, so that every configured Hudi reporter carries it. Gauges hold doubles (seconds with
 * millisecond precision, ratios); a value that is not known is removed from the registry, not set to 0. Failed
 * measurements are a counter.
 */
public final class FreshnessMetrics {

  /** Publishes nothing: for pipelines without metrics ({@code hoodie.metrics.on} false). */
  public static final FreshnessMetrics NONE = new FreshnessMetrics(null, false);

  /** Failures per metric name, process-wide: the write client (and so the callback) may be re-created. */
  private static final ConcurrentMap<String, AtomicLong> FAILURES = new ConcurrentHashMap<>();

  private final Metrics metrics;
  private final boolean reportNow;

  private FreshnessMetrics(Metrics metrics, boolean reportNow) {
    this.metrics = metrics;
    this.reportNow = reportNow;
  }

  /**
   * The metrics of a writer, for the commit callback: published on the reporters' schedule and at shutdown, never
   * flushed here, which would flush the writer's own metrics.
   *
   * @param config the writer's config, with its {@code hoodie.metrics.*} settings and the target's base path, which
   *               keys the {@link Metrics} instance
   * @return {@link #NONE} when {@code hoodie.metrics.on} is false
   */
  public static FreshnessMetrics ofWriter(HoodieWriteConfig config) {
    return of(config, false);
  }

  /**
   * The metrics of a pipeline watched by the reporter: pushed to the reporters after each publish.
   *
   * @param metricsProperties the {@code hoodie.metrics.*} settings shared by all pipelines
   * @return {@link #NONE} when {@code hoodie.metrics.on} is not true
   */
  public static FreshnessMetrics ofReporter(PipelineSpec pipeline, Map<String, String> metricsProperties) {
    return of(HoodieWriteConfig.newBuilder().withPath(pipeline.basePath()).forTable(pipeline.name())
        .withProps(metricsProperties).build(), true);
  }

  private static FreshnessMetrics of(HoodieWriteConfig config, boolean reportNow) {
    return config.isMetricsOn() ? new FreshnessMetrics(Metrics.getInstance(config), reportNow) : NONE;
  }

  /** Replaces the pipeline's previous values with these; a value that is absent is removed, never zeroed. */
  public synchronized void publish(PipelineFreshness freshness) {
    if (metrics == null) {
      return;
    }
    MetricNames names = new MetricNames(freshness.pipeline());
    Map<String, Double> values = names.values(freshness);
    MetricRegistry registry = metrics.getRegistry();
    String failuresName = names.pipeline(MetricNames.FAILURES);
    registry.removeMatching((name, metric) -> name.startsWith(names.pipelinePrefix()) && !values.containsKey(name)
        && !name.equals(failuresName));
    values.forEach((name, value) -> DoubleGauges.set(registry, name, value));
    countFailures(registry, failuresName, failures(failuresName).get());
    report();
  }

  /** Counts a measurement of the pipeline that failed as a whole. */
  public synchronized void countFailure(String pipeline) {
    if (metrics == null) {
      return;
    }
    String failuresName = new MetricNames(pipeline).pipeline(MetricNames.FAILURES);
    countFailures(metrics.getRegistry(), failuresName, failures(failuresName).incrementAndGet());
    report();
  }

  /** Brings the registry's counter to the process's count: a registry re-created with its writer starts at 0. */
  private static void countFailures(MetricRegistry registry, String name, long total) {
    Counter counter = registry.counter(name);
    counter.inc(total - counter.getCount());
  }

  private static AtomicLong failures(String name) {
    return FAILURES.computeIfAbsent(name, key -> new AtomicLong());
  }

  private void report() {
    if (reportNow) {
      metrics.flush();
    }
  }
}
