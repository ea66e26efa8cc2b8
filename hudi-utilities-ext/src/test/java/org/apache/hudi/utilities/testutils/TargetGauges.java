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

package org.apache.hudi.utilities.testutils;

import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.metrics.Metrics;

import java.util.concurrent.atomic.AtomicReference;

/** The gauges the Streamer's in-memory metrics reporter ({@code hoodie.metrics.reporter.type=INMEMORY}) holds. */
public final class TargetGauges {

  private TargetGauges() {
  }

  /** The value of the gauge of a target whose name ends with the suffix; -1 if there is none. */
  public static long value(String targetPath, String nameSuffix) {
    return (long) doubleValue(targetPath, nameSuffix);
  }

  /** The value of the gauge of a target whose name ends with the suffix, as a double; -1 if there is none. */
  public static double doubleValue(String targetPath, String nameSuffix) {
    AtomicReference<Double> value = new AtomicReference<>(-1.0);
    Metrics.getInstance(HoodieWriteConfig.newBuilder().withPath(targetPath).build()).getRegistry().getGauges()
        .forEach((name, gauge) -> {
          if (name.endsWith(nameSuffix)) {
            value.set(((Number) gauge.getValue()).doubleValue());
          }
        });
    return value.get();
  }
}
