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

package org.apache.hudi.utilities.ingestion;

import org.apache.hudi.config.HoodieWriteConfig;

/**
 * Reads the write config that the Streamer hands to a source together with its ingestion metrics.
 *
 * <p>Hudi 0.14 gives a source no other way to learn the target table it feeds; this lives in Hudi's package only to
 * reach the protected field, and becomes a public getter upstream.
 */
public final class IngestionMetricsWriteConfig {

  private IngestionMetricsWriteConfig() {
  }

  public static HoodieWriteConfig of(HoodieIngestionMetrics metrics) {
    return metrics.writeConfig;
  }
}
