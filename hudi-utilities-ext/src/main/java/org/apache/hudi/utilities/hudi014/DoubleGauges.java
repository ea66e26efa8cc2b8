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
import org.apache.hudi.com.codahale.metrics.Gauge;
import org.apache.hudi.com.codahale.metrics.MetricRegistry;
import org.apache.hudi.metrics.HoodieGauge;

/** Gauges of doubles in a Hudi metrics registry, set in place (Hudi's own {@code registerGauge} holds longs). */
final class DoubleGauges {

  private DoubleGauges() {
  }

  @SuppressWarnings("unchecked")
  static void set(MetricRegistry registry, String name, double value) {
    Gauge<?> gauge = registry.gauge(name, () -> new HoodieGauge<>(value));
    ((HoodieGauge<Double>) gauge).setValue(value);
  }
}
