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

import org.apache.hudi.utilities.freshness.PipelineSpec;

import io.prometheus.metrics.exporter.pushgateway.Format;
import io.prometheus.metrics.exporter.pushgateway.PushGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pushes the reporter's own metrics after each round to every pushgateway its pipelines push to, in the group
 * {@code job} (the pipelines' {@code pushgateway.job}), {@code reporter} (the shard, {@code 0-of-1} alone): next to the
 * pipelines' series, one group per reporter. A push that fails is logged, never thrown.
 */
final class ReporterMetricsPush {

  private static final Logger LOG = LoggerFactory.getLogger(ReporterMetricsPush.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private ReporterMetricsPush() {
  }

  static void push(List<PipelineSpec> pipelines, PipelineShard shard, ReporterMetrics metrics) {
    Set<Map.Entry<String, String>> gateways = new LinkedHashSet<>();
    for (PipelineSpec pipeline : pipelines) {
      pipeline.pushgatewayAddress().ifPresent(address -> gateways.add(Map.entry(address, pipeline.pushgatewayJob())));
    }
    for (Map.Entry<String, String> gateway : gateways) {
      try {
        PushGateway.builder().address(gateway.getKey()).format(Format.PROMETHEUS_TEXT).job(gateway.getValue())
            .groupingKey("reporter", shard.toString()).connectionTimeout(TIMEOUT).readTimeout(TIMEOUT).build()
            .push(metrics);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Cannot push the freshness reporter's own metrics to the pushgateway at {}", gateway.getKey(), e);
      }
    }
  }
}
