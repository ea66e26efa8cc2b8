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

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.freshness.LabelledFreshnessMetrics;
import org.apache.hudi.utilities.freshness.LabelledMetricsPush;
import org.apache.hudi.utilities.freshness.Observer;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.RecentHistory;
import org.apache.hudi.utilities.freshness.SourceKind;
import org.apache.hudi.utilities.freshness.kafka.KafkaClusters;
import org.apache.hudi.utilities.freshness.kafka.KafkaSourcePosition;
import org.apache.hudi.utilities.hudi014.FreshnessMetrics;
import org.apache.hudi.utilities.hudi014.FreshnessRecorder;

import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * The reporter's measurement of a pipeline: the checkpoint its target stores ({@link HudiTableCache}, bounded by
 * {@code --max-commit-depth}), each source probed past it (Hudi sources through the same cache), the status rated from
 * the history kept in memory ({@link RecentHistory}), and the result published: Hudi's metrics, the labelled metrics
 * and their pushgateway, the history.
 */
final class TargetCheckpointMeasurement implements PipelineMeasurement {

  private static final Logger LOG = LoggerFactory.getLogger(TargetCheckpointMeasurement.class);

  private final HudiTableCache tables;
  private final KafkaClusters kafka;
  private final ExecutorService kafkaRounds;
  private final FreshnessRecorder recorder;
  private final Map<String, String> metricsProperties;
  private final Map<String, FreshnessMetrics> metrics = new ConcurrentHashMap<>();
  /** The pipelines whose target held no checkpoint at their last measurement. */
  private final Set<String> withoutCheckpoint = ConcurrentHashMap.newKeySet();
  /** The targets a preparation has tried to read, by base path. */
  private final Set<String> targetsTried = ConcurrentHashMap.newKeySet();
  private final LabelledFreshnessMetrics labelled;
  private final int maxCommitDepth;

  TargetCheckpointMeasurement(Clock clock, Configuration hadoopConf, Map<String, String> metricsProperties,
                              int maxCommitDepth, LabelledFreshnessMetrics labelled, KafkaClusters kafka) {
    this.tables = new HudiTableCache(hadoopConf);
    this.kafka = kafka;
    this.kafkaRounds = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "freshness-kafka-round");
      thread.setDaemon(true);
      return thread;
    });
    this.recorder = new FreshnessRecorder(clock, hadoopConf, labelled, kafka, tables::timeline,
        Option.of(new RecentHistory()));
    this.metricsProperties = metricsProperties;
    this.maxCommitDepth = maxCommitDepth;
    this.labelled = labelled;
  }

  @Override
  public void beginRound(List<PipelineSpec> pipelines) {
    tables.beginRound();
  }

  /**
   * The pipelines reading Kafka whose target was never tried (the first round, a pipeline just added): without their
   * checkpoints the round's Kafka batch would leave them out, and each would probe its cluster on its own, queued
   * behind the batches in progress. Tried once only: a target that hung or failed then is measured with the others
   * afterwards, so that it does not cost its deadline before every later round's measurements.
   */
  @Override
  public List<PipelineSpec> unprepared(List<PipelineSpec> pipelines) {
    return pipelines.stream()
        .filter(pipeline -> pipeline.sources().stream().anyMatch(source -> source.kind() == SourceKind.KAFKA))
        .filter(pipeline -> !tables.lastCheckpoint(pipeline.basePath()).isPresent()
            && !targetsTried.contains(pipeline.basePath()))
        .collect(Collectors.toList());
  }

  /** Reads the target's checkpoint, kept for the round's measurement. */
  @Override
  public void prepare(PipelineSpec pipeline) {
    targetsTried.add(pipeline.basePath());
    tables.checkpoint(pipeline.basePath(), maxCommitDepth);
  }

  @Override
  public void beginMeasurements(List<PipelineSpec> pipelines) {
    // The Kafka positions of the round, one batch per cluster and the clusters at once, each bounded by its client's
    // timeouts: by the checkpoints the last round (or this round's preparation) found, since reading them again needs
    // the pipelines' deadlines. Started, not awaited: a pipeline's probe waits for its own cluster's batch only, so
    // that an unreachable cluster's timeout delays neither the other clusters' pipelines nor any Hudi read. A
    // pipeline whose checkpoint moved since is measured with the others probed meanwhile when its worker probes it.
    Map<PipelineSpec, StoredCheckpoint> known = new LinkedHashMap<>();
    pipelines.forEach(pipeline -> tables.lastCheckpoint(pipeline.basePath())
        .ifPresent(stored -> known.put(pipeline, stored)));
    kafka.measureRound(KafkaSourcePosition.ofRound(known), kafkaRounds);
  }

  /** Closes the Kafka clients. */
  void close() {
    kafkaRounds.shutdownNow();
    kafka.close();
  }

  @Override
  public PipelineFreshness measure(PipelineSpec pipeline) throws Exception {
    FreshnessMetrics pipelineMetrics = metricsOf(pipeline);
    try {
      StoredCheckpoint stored = tables.checkpoint(pipeline.basePath(), maxCommitDepth);
      // Warned when a pipeline's target starts holding no checkpoint, not every round: a fleet's log would repeat it.
      if (!stored.checkpoint().isPresent() && withoutCheckpoint.add(pipeline.name())) {
        LOG.warn("Found no checkpoint in the newest {} commits of pipeline '{}' at {}: its sources have no value until "
            + "one is committed", stored.commitsSearched(), pipeline.name(), pipeline.basePath());
      } else if (stored.checkpoint().isPresent()) {
        withoutCheckpoint.remove(pipeline.name());
      }
      return recorder.record(pipeline, stored, Observer.REPORTER, pipelineMetrics);
    } catch (Exception e) {
      pipelineMetrics.countFailure(pipeline.name());
      labelled.countFailure(pipeline);
      LabelledMetricsPush.push(pipeline, Observer.REPORTER, labelled);
      throw e;
    }
  }

  private FreshnessMetrics metricsOf(PipelineSpec pipeline) {
    return metrics.computeIfAbsent(pipeline.name(), name -> FreshnessMetrics.ofReporter(pipeline, metricsProperties));
  }
}
