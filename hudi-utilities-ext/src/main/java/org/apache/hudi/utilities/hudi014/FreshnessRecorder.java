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

import java.io.IOException;
import java.time.Clock;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.callback.common.HoodieWriteCommitCallbackMessage;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.freshness.FreshnessMeter;
import org.apache.hudi.utilities.freshness.KafkaQueueProbe;
import org.apache.hudi.utilities.freshness.Observer;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.QueueProbe;
import org.apache.hudi.utilities.freshness.SourceSpec;
import org.apache.hudi.utilities.freshness.StreamerPipelineSpec;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures a pipeline on Hudi 0.14 and records the result where operators look: its metrics and its history. Hudi
 * sources are probed through their timeline ({@link HudiTimelineProbe}), Kafka sources through a Kafka consumer
 * (loaded only for Kafka sources, so that pipelines without Kafka need no Kafka client).
 */
public final class FreshnessRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(FreshnessRecorder.class);

  private final FreshnessMeter meter;
  private final Configuration hadoopConf;

  public FreshnessRecorder(Clock clock, Configuration hadoopConf) {
    this.hadoopConf = Objects.requireNonNull(hadoopConf, "hadoopConf");
    this.meter = new FreshnessMeter(clock, this::probe);
  }

  /**
   * The recording of the commit callback: measures every source against the checkpoint the commit just stored.
   * Never throws: the commit is durable, and Hudi would fail the Streamer round all the same. Every failure is logged
   * and counted in {@code failures_total}.
   *
   * @param config  the writer's config, with the Streamer's properties
   * @param message the commit Hudi calls back for
   * @return the measurement; empty if it failed
   */
  public static Option<PipelineFreshness> recordCommit(HoodieWriteConfig config, HoodieWriteCommitCallbackMessage message,
                                                       Clock clock) {
    FreshnessMetrics metrics = FreshnessMetrics.NONE;
    String pipeline = message.getTableName();
    try {
      metrics = FreshnessMetrics.ofWriter(config);
      PipelineSpec spec = StreamerPipelineSpec.from(config.getProps(), message.getBasePath(), message.getTableName());
      pipeline = spec.name();
      Configuration hadoopConf = jobHadoopConf();
      StoredCheckpoint stored = new StoredCheckpointReader(hadoopConf).atCommit(message.getBasePath(),
          message.getCommitTime());
      return Option.of(new FreshnessRecorder(clock, hadoopConf).record(spec, stored, Observer.CALLBACK, metrics));
    } catch (Exception | LinkageError e) {
      LOG.error("Cannot record the source freshness of commit {} of {} (the commit itself succeeded)",
          message.getCommitTime(), message.getBasePath(), e);
      countFailure(metrics, pipeline);
      return Option.empty();
    }
  }

  /**
   * Measures the pipeline, publishes the measurement, then writes it to the pipeline's history.
   *
   * @return the measurement, already published and written to history
   * @throws IOException if the history cannot be written (the metrics are published before)
   */
  public PipelineFreshness record(PipelineSpec pipeline, StoredCheckpoint stored, Observer observer,
                                  FreshnessMetrics metrics) throws IOException {
    PipelineFreshness freshness = meter.measure(pipeline, stored, observer);
    metrics.publish(freshness);
    if (pipeline.historyPath().isPresent()) {
      FreshnessHistory.open(pipeline.historyPath().get(), pipeline.historyMaxEntries(), hadoopConf).append(freshness);
    }
    LOG.info("Freshness of pipeline '{}' at commit {}: max lag {}, SLA ratio {}, sources {}", pipeline.name(),
        stored.commit().orElse("(none)"), freshness.maxLag().map(Object::toString).orElse("unknown"),
        freshness.maxSlaRatio().isPresent() ? String.format("%.3f", freshness.maxSlaRatio().getAsDouble()) : "unknown",
        freshness.sources());
    return freshness;
  }

  private QueueProbe probe(PipelineSpec pipeline, SourceSpec source) {
    switch (source.kind()) {
      case HUDI:
        return new HudiTimelineProbe(hadoopConf, source.hudiPath().get());
      case KAFKA:
        return KafkaQueueProbe.forSource(source, pipeline.kafkaPollTimeout(), pipeline.kafkaMetadataTimeout());
      default:
        throw new IllegalArgumentException("Cannot probe source " + source + ": kind " + source.kind()
            + " is not supported");
    }
  }

  private static void countFailure(FreshnessMetrics metrics, String pipeline) {
    try {
      metrics.countFailure(pipeline);
    } catch (RuntimeException e) {
      LOG.error("Cannot count the freshness failure of {} in metrics", pipeline, e);
    }
  }

  /** The job's Hadoop settings when it runs in Spark (as the Streamer does), else those of the classpath. */
  private static Configuration jobHadoopConf() {
    return SparkSession.getDefaultSession().isDefined()
        ? new Configuration(SparkSession.getDefaultSession().get().sparkContext().hadoopConfiguration())
        : new Configuration();
  }
}
