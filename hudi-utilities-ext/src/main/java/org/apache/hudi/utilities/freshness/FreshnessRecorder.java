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

import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Objects;

/**
 * Measures a pipeline and records the result where operators look: the metrics sink and the pipeline's history.
 */
public final class FreshnessRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(FreshnessRecorder.class);

  private final FreshnessMeter meter;
  private final Configuration hadoopConf;

  public FreshnessRecorder(FreshnessMeter meter, Configuration hadoopConf) {
    this.meter = Objects.requireNonNull(meter, "meter");
    this.hadoopConf = Objects.requireNonNull(hadoopConf, "hadoopConf");
  }

  /**
   * @return the measurement, already published and written to history
   * @throws IOException if the history cannot be written (the metrics are published before)
   */
  public PipelineFreshness record(PipelineSpec pipeline, CheckpointSearch found, Observer observer, FreshnessSink sink)
      throws IOException {
    PipelineFreshness freshness = meter.measure(pipeline, found, observer);
    sink.publish(freshness);
    if (pipeline.historyPath().isPresent()) {
      FreshnessHistory.open(pipeline.historyPath().get(), pipeline.historyMaxEntries(), hadoopConf).append(freshness);
    }
    LOG.info("Freshness of pipeline '{}' at commit {}: max lag {}, SLA ratio {}, sources {}", pipeline.name(),
        found.commit().orElse("(none)"), freshness.maxLag().map(Object::toString).orElse("unknown"),
        freshness.maxSlaRatio().isPresent() ? String.format("%.3f", freshness.maxSlaRatio().getAsDouble()) : "unknown",
        freshness.sources());
    return freshness;
  }
}
