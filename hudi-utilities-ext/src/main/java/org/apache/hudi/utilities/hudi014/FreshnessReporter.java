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

import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.freshness.LabelledFreshnessMetrics;
import org.apache.hudi.utilities.freshness.LabelledMetricsPush;
import org.apache.hudi.utilities.freshness.Observer;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.kafka.KafkaClusters;
import org.apache.hudi.utilities.freshness.kafka.KafkaSourcePosition;

import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The external observer, on Hudi 0.14: finds each pipeline's checkpoint in its target's timeline
 * ({@link StoredCheckpointReader}, bounded by {@code --max-commit-depth}) and records the freshness of its sources. It
 * needs nothing from the pipelines, so it still reports when a pipeline is stuck and commits nothing. The command
 * line is {@code FreshnessReporterCli}.
 */
public final class FreshnessReporter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FreshnessReporter.class);

  private final StoredCheckpointReader checkpoints;
  private final FreshnessRecorder recorder;
  private final Map<String, String> metricsProperties;
  private final Map<String, FreshnessMetrics> metrics = new HashMap<>();
  private final LabelledFreshnessMetrics labelled = new LabelledFreshnessMetrics();
  private final KafkaClusters kafka;
  private final int maxCommitDepth;

  /**
   * @param metricsProperties the {@code hoodie.metrics.*} settings of every pipeline's metrics
   * @param maxCommitDepth    the most target commits looked at to find a checkpoint
   * @throws IllegalArgumentException if {@code maxCommitDepth} is below 1
   */
  public FreshnessReporter(Clock clock, Configuration hadoopConf, Map<String, String> metricsProperties,
                           int maxCommitDepth) {
    this(clock, hadoopConf, metricsProperties, maxCommitDepth, KafkaClusters.withKafkaConsumers());
  }

  /**
   * @param kafka the clients of the Kafka sources' clusters, kept across rounds; closed with this reporter
   */
  public FreshnessReporter(Clock clock, Configuration hadoopConf, Map<String, String> metricsProperties,
                           int maxCommitDepth, KafkaClusters kafka) {
    if (maxCommitDepth < 1) {
      throw new IllegalArgumentException("Cannot search " + maxCommitDepth + " commits for a checkpoint: search at "
          + "least 1 (--max-commit-depth)");
    }
    this.checkpoints = new StoredCheckpointReader(hadoopConf);
    this.kafka = Objects.requireNonNull(kafka, "kafka");
    this.recorder = new FreshnessRecorder(clock, hadoopConf, labelled, kafka);
    this.metricsProperties = Objects.requireNonNull(metricsProperties, "metricsProperties");
    this.maxCommitDepth = maxCommitDepth;
  }

  /** The labelled metrics of the pipelines this reporter measured. */
  public LabelledFreshnessMetrics labelledMetrics() {
    return labelled;
  }

  /**
   * Measures every pipeline once. A pipeline that fails is logged and counted in its metrics; the others go on.
   *
   * @return the measurements of the pipelines that did not fail, in order
   */
  public List<PipelineFreshness> reportOnce(List<PipelineSpec> pipelines) {
    Map<PipelineSpec, StoredCheckpoint> stored = new LinkedHashMap<>();
    for (PipelineSpec pipeline : pipelines) {
      try {
        stored.put(pipeline, checkpoints.newest(pipeline.basePath(), maxCommitDepth));
      } catch (Exception e) {
        fail(pipeline, e);
      }
    }
    // The Kafka sources of the round, one batch per cluster, before any pipeline is recorded.
    kafka.measureRound(KafkaSourcePosition.ofRound(stored));
    List<PipelineFreshness> measured = new ArrayList<>();
    stored.forEach((pipeline, found) -> {
      try {
        if (!found.checkpoint().isPresent()) {
          LOG.warn("Found no checkpoint in the newest {} commits of pipeline '{}' at {}: its sources have no value",
              found.commitsSearched(), pipeline.name(), pipeline.basePath());
        }
        measured.add(recorder.record(pipeline, found, Observer.REPORTER, metricsOf(pipeline)));
      } catch (Exception e) {
        fail(pipeline, e);
      }
    });
    return measured;
  }

  private FreshnessMetrics metricsOf(PipelineSpec pipeline) {
    return metrics.computeIfAbsent(pipeline.name(), name -> FreshnessMetrics.ofReporter(pipeline, metricsProperties));
  }

  private void fail(PipelineSpec pipeline, Exception e) {
    LOG.error("Cannot report the freshness of pipeline '{}' at {}", pipeline.name(), pipeline.basePath(), e);
    metricsOf(pipeline).countFailure(pipeline.name());
    labelled.countFailure(pipeline.name());
    LabelledMetricsPush.push(pipeline, Observer.REPORTER, labelled);
  }

  /** Closes the Kafka clients. */
  @Override
  public void close() {
    kafka.close();
  }
}
