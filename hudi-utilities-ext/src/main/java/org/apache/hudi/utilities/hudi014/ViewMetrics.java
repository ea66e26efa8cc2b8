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

import org.apache.hudi.com.codahale.metrics.MetricRegistry;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.metrics.Metrics;
import org.apache.hudi.utilities.transform.view.ViewCost;

/**
 * Publishes a view's decision per batch through Hudi 0.14's metrics system ({@code hoodie.metrics.*}), into the
 * registry of the target's {@link Metrics} instance, next to the Streamer's own {@code deltastreamer} metrics:
 * {@value #INCREMENTAL} is 1 for a batch maintained incrementally and 0 for a full recompute,
 * {@value #ESTIMATED_CHANGE} the change the decision estimated (the summed fraction of the tables' rows the batch's
 * commits wrote), {@value #ESTIMATED_INCREMENTAL_MS} and {@value #ESTIMATED_FULL_MS} the cost model's estimates of
 * both strategies (see {@link ViewCost}).
 */
public final class ViewMetrics {

  public static final String INCREMENTAL = "view_incremental";
  public static final String ESTIMATED_CHANGE = "view_estimated_change_fraction";
  public static final String ESTIMATED_INCREMENTAL_MS = "view_estimated_incremental_ms";
  public static final String ESTIMATED_FULL_MS = "view_estimated_full_ms";

  private ViewMetrics() {
  }

  /**
   * @param targetBasePath the target's base path, which keys its {@link Metrics} instance (the Streamer's, when it runs)
   * @param properties     the job's properties, with its {@code hoodie.metrics.*} settings; nothing is published when
   *                       {@code hoodie.metrics.on} is not true
   */
  public static void publish(String targetBasePath, TypedProperties properties, boolean incremental,
                             ViewCost cost) {
    HoodieWriteConfig config = HoodieWriteConfig.newBuilder().withPath(targetBasePath).withProps(properties).build();
    if (!config.isMetricsOn()) {
      return;
    }
    MetricRegistry registry = Metrics.getInstance(config).getRegistry();
    String prefix = config.getMetricReporterMetricsNamePrefix() + ".deltastreamer.";
    DoubleGauges.set(registry, prefix + INCREMENTAL, incremental ? 1 : 0);
    DoubleGauges.set(registry, prefix + ESTIMATED_CHANGE, cost.changeFraction());
    DoubleGauges.set(registry, prefix + ESTIMATED_INCREMENTAL_MS, cost.incrementalMillis());
    DoubleGauges.set(registry, prefix + ESTIMATED_FULL_MS, cost.fullMillis());
  }
}
