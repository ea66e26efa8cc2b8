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

import org.apache.hudi.callback.common.HoodieWriteCommitCallbackMessage;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.freshness.FreshnessMeter;
import org.apache.hudi.utilities.freshness.LabelledFreshnessMetrics;
import org.apache.hudi.utilities.freshness.LabelledMetricsPush;
import org.apache.hudi.utilities.freshness.Observer;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.QueueProbe;
import org.apache.hudi.utilities.freshness.RecentHistory;
import org.apache.hudi.utilities.freshness.SourceSpec;
import org.apache.hudi.utilities.freshness.StatusRules;
import org.apache.hudi.utilities.freshness.StreamerPipelineSpec;
import org.apache.hudi.utilities.freshness.kafka.KafkaClusters;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Measures a pipeline on Hudi 0.14 and records the result where operators look: its metrics and its history. Hudi
 * sources are probed through their timeline ({@link HudiTimelineProbe}), Kafka sources through their cluster's client
 * ({@link KafkaClusters}, which loads Kafka's classes only for Kafka sources).
 */
public final class FreshnessRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(FreshnessRecorder.class);

  private final FreshnessMeter meter;
  private final Configuration hadoopConf;
  private final LabelledFreshnessMetrics labelled;
  private final KafkaClusters kafka;
  private final Function<String, Option<SourceTimeline>> sourceTimelines;
  private final Option<RecentHistory> recentHistory;

  /**
   * Reads each Hudi source's timeline afresh and the status window from the stored history: the commit callback's
   * recorder, made once per commit.
   *
   * @param labelled the labelled metrics each measurement updates and pushes (to the pipeline's pushgateway, if any)
   * @param kafka    the clients of the Kafka sources' clusters; the caller closes them
   */
  public FreshnessRecorder(Clock clock, Configuration hadoopConf, LabelledFreshnessMetrics labelled,
                           KafkaClusters kafka) {
    this(clock, hadoopConf, labelled, kafka, path -> SourceTimeline.load(path, hadoopConf), Option.empty());
  }

  /**
   * @param kafka           the clients of the Kafka sources' clusters; the caller closes them
   * @param sourceTimelines the timeline of a Hudi source by base path, empty if it holds no table: a cache can keep
   *                        timelines across measurements
   * @param recentHistory   the status windows kept in memory, if the recorder lives across measurements; else read
   *                        from the stored history each time
   */
  public FreshnessRecorder(Clock clock, Configuration hadoopConf, LabelledFreshnessMetrics labelled,
                           KafkaClusters kafka, Function<String, Option<SourceTimeline>> sourceTimelines,
                           Option<RecentHistory> recentHistory) {
    this.hadoopConf = Objects.requireNonNull(hadoopConf, "hadoopConf");
    this.labelled = Objects.requireNonNull(labelled, "labelled");
    this.kafka = Objects.requireNonNull(kafka, "kafka");
    this.sourceTimelines = Objects.requireNonNull(sourceTimelines, "sourceTimelines");
    this.recentHistory = Objects.requireNonNull(recentHistory, "recentHistory");
    this.meter = new FreshnessMeter(clock, this::probe);
  }

  /**
   * The recording of the commit callback: measures every source against the checkpoint the commit just stored.
   * Never throws: the commit is durable, and Hudi would fail the Streamer round all the same. Every failure is logged
   * and counted as a failed measurement.
   *
   * @param config  the writer's config, with the Streamer's properties
   * @param message the commit Hudi calls back for
   * @return the measurement; empty if it failed
   */
  public static Option<PipelineFreshness> recordCommit(HoodieWriteConfig config, HoodieWriteCommitCallbackMessage message,
                                                       Clock clock) {
    FreshnessMetrics metrics = FreshnessMetrics.NONE;
    PipelineSpec spec = null;
    try (KafkaClusters kafka = KafkaClusters.withKafkaConsumers()) {
      metrics = FreshnessMetrics.ofWriter(config);
      spec = StreamerPipelineSpec.from(config.getProps(), message.getBasePath(), message.getTableName());
      Configuration hadoopConf = jobHadoopConf();
      StoredCheckpoint stored = new StoredCheckpointReader(hadoopConf).atCommit(message.getBasePath(),
          message.getCommitTime());
      return Option.of(new FreshnessRecorder(clock, hadoopConf, LabelledFreshnessMetrics.process(), kafka)
          .record(spec, stored, Observer.CALLBACK, metrics));
    } catch (Exception | LinkageError e) {
      LOG.error("Cannot record the source freshness of commit {} of {} (the commit itself succeeded)",
          message.getCommitTime(), message.getBasePath(), e);
      countFailure(metrics, spec == null ? message.getTableName() : spec.name());
      if (spec != null) {
        LabelledFreshnessMetrics.process().countFailure(spec);
        LabelledMetricsPush.push(spec, Observer.CALLBACK, LabelledFreshnessMetrics.process());
      }
      return Option.empty();
    }
  }

  /**
   * Measures the pipeline, rates each source's status against the pipeline's history, publishes the measurement
   * (Hudi's metrics, the labelled metrics and their pushgateway), then writes it to the history: every measurement of
   * the commit callback, those of a long-running observer that change what the history says ({@link RecentHistory}).
   *
   * @return the measurement, already published and written to history
   * @throws IOException if the history cannot be read or written (the metrics are published before writing)
   */
  public PipelineFreshness record(PipelineSpec pipeline, StoredCheckpoint stored, Observer observer,
                                  FreshnessMetrics metrics) throws IOException {
    PipelineFreshness measured = meter.measure(pipeline, stored, observer);
    Option<FreshnessHistory> history = pipeline.historyPath().isPresent()
        ? Option.of(FreshnessHistory.open(pipeline.historyPath().get(), pipeline.historyMaxEntries(), hadoopConf))
        : Option.empty();
    Duration window = pipeline.policy().statusWindow();
    PipelineFreshness freshness = StatusRules.rate(measured,
        earlier(pipeline, history, measured.measuredAt().minus(window)), window);
    metrics.publish(freshness);
    labelled.update(pipeline, freshness);
    LabelledMetricsPush.push(pipeline, observer, labelled);
    if (recentHistory.isPresent()) {
      recentHistory.get().record(freshness, window, history);
    } else if (history.isPresent()) {
      history.get().append(freshness);
    }
    LOG.info("Freshness of pipeline '{}' at commit {}: max lag {}, SLA ratio {}, sources {}", pipeline.name(),
        stored.commit().orElse("(none)"), freshness.maxLag().map(Object::toString).orElse("unknown"),
        freshness.maxSlaRatio().isPresent() ? String.format("%.3f", freshness.maxSlaRatio().getAsDouble()) : "unknown",
        freshness.sources());
    return freshness;
  }

  /** The entries the status is rated from: kept in memory by a long-running observer, else read from the history. */
  private List<JsonNode> earlier(PipelineSpec pipeline, Option<FreshnessHistory> stored, Instant from)
      throws IOException {
    if (recentHistory.isPresent()) {
      return recentHistory.get().since(pipeline.name(), stored, from);
    }
    return stored.isPresent() ? stored.get().since(from) : Collections.emptyList();
  }

  private QueueProbe probe(PipelineSpec pipeline, SourceSpec source) {
    switch (source.kind()) {
      case HUDI:
        return new HudiTimelineProbe(source.hudiPath().get(), sourceTimelines);
      case KAFKA:
        return kafka.probe(pipeline, source);
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
