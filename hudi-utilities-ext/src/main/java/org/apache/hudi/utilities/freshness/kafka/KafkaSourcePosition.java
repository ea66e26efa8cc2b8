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

package org.apache.hudi.utilities.freshness.kafka;

import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.freshness.FreshnessMeter;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.SourceKind;
import org.apache.hudi.utilities.freshness.SourceSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One Kafka source's checkpoint to measure: the cluster, the topic the pipeline reads, the checkpoint as the target
 * stores it, and the pipeline's time bounds. Equal positions are measured once.
 */
public final class KafkaSourcePosition {

  private final KafkaCluster cluster;
  private final String clusterName;
  private final String topic;
  private final String checkpoint;
  private final Duration pollTimeout;
  private final Duration metadataTimeout;

  private KafkaSourcePosition(KafkaCluster cluster, String clusterName, String topic, String checkpoint,
                              Duration pollTimeout, Duration metadataTimeout) {
    this.cluster = cluster;
    this.clusterName = clusterName;
    this.topic = topic;
    this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
    this.pollTimeout = pollTimeout;
    this.metadataTimeout = metadataTimeout;
  }

  /**
   * @param source     a Kafka source of the pipeline; its name is the topic it reads
   * @param checkpoint the source's position in the target's checkpoint ({@code topic,partition:offset,...})
   */
  public static KafkaSourcePosition of(PipelineSpec pipeline, SourceSpec source, String checkpoint) {
    if (source.kind() != SourceKind.KAFKA) {
      throw new IllegalArgumentException("Cannot measure source " + source + " of pipeline '" + pipeline.name()
          + "' on a Kafka cluster: it is a " + source.kind() + " source");
    }
    return new KafkaSourcePosition(KafkaCluster.of(source), pipeline.kafkaCluster().get(), source.name(), checkpoint,
        pipeline.kafkaPollTimeout(), pipeline.kafkaMetadataTimeout());
  }

  /**
   * The Kafka positions of a round: every Kafka source of the pipelines whose stored checkpoint holds a position for
   * it. A checkpoint that cannot be split into positions gives none here; measuring its pipeline reports why.
   */
  public static List<KafkaSourcePosition> ofRound(Map<PipelineSpec, StoredCheckpoint> stored) {
    List<KafkaSourcePosition> positions = new ArrayList<>();
    stored.forEach((pipeline, found) -> {
      Map<String, String> byName;
      try {
        byName = FreshnessMeter.positions(pipeline, found.checkpoint().orElse(null));
      } catch (IllegalArgumentException e) {
        return;
      }
      for (SourceSpec source : pipeline.sources()) {
        if (source.kind() == SourceKind.KAFKA && byName.containsKey(source.name())) {
          positions.add(of(pipeline, source, byName.get(source.name())));
        }
      }
    });
    return positions;
  }

  public KafkaCluster cluster() {
    return cluster;
  }

  /** The cluster's name in metrics ({@link PipelineSpec#kafkaCluster()}). */
  public String clusterName() {
    return clusterName;
  }

  /** The topic the pipeline reads now. */
  public String topic() {
    return topic;
  }

  /** The position as stored in the target's checkpoint. */
  public String checkpoint() {
    return checkpoint;
  }

  public Duration pollTimeout() {
    return pollTimeout;
  }

  public Duration metadataTimeout() {
    return metadataTimeout;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof KafkaSourcePosition)) {
      return false;
    }
    KafkaSourcePosition that = (KafkaSourcePosition) other;
    return cluster.equals(that.cluster) && clusterName.equals(that.clusterName) && topic.equals(that.topic)
        && checkpoint.equals(that.checkpoint) && pollTimeout.equals(that.pollTimeout)
        && metadataTimeout.equals(that.metadataTimeout);
  }

  @Override
  public int hashCode() {
    return Objects.hash(cluster, clusterName, topic, checkpoint, pollTimeout, metadataTimeout);
  }

  @Override
  public String toString() {
    return "KafkaSourcePosition{" + topic + " at " + checkpoint + " on " + cluster.bootstrapServers() + "}";
  }
}
