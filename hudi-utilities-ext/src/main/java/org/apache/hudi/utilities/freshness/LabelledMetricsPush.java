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

import io.prometheus.metrics.exporter.pushgateway.Format;
import io.prometheus.metrics.exporter.pushgateway.PushGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;

/**
 * Pushes a pipeline's labelled metrics to the pushgateway its settings name, in the group {@code job}, {@code pipeline},
 * {@code observer}: the commit callback and the reporter of one pipeline, and different pipelines, never replace
 * each other's series. A push that fails is logged, never thrown: a pushgateway outage must not fail a commit.
 */
public final class LabelledMetricsPush {

  private static final Logger LOG = LoggerFactory.getLogger(LabelledMetricsPush.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private LabelledMetricsPush() {
  }

  /** @return whether the metrics were pushed (false without a pushgateway or when the push failed) */
  public static boolean push(PipelineSpec pipeline, Observer observer, LabelledFreshnessMetrics metrics) {
    if (!pipeline.pushgatewayAddress().isPresent()) {
      return false;
    }
    String address = pipeline.pushgatewayAddress().get();
    try {
      // The text format: the protobuf one needs the client's protobuf module, left out of the plugin jar.
      PushGateway.builder().address(address).format(Format.PROMETHEUS_TEXT).job(pipeline.pushgatewayJob())
          .groupingKey("pipeline", pipeline.name()).groupingKey("observer", observer.name().toLowerCase(Locale.ROOT))
          .connectionTimeout(TIMEOUT).readTimeout(TIMEOUT).build().push(metrics.of(pipeline.name()));
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot push the freshness metrics of pipeline '{}' to the pushgateway at {} (they stay in Hudi's "
          + "metrics and the history)", pipeline.name(), address, e);
      return false;
    }
  }
}
