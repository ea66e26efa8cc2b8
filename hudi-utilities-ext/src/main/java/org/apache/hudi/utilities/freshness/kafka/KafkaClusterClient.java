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

import org.apache.hudi.utilities.freshness.CheckpointInLog;
import org.apache.hudi.utilities.freshness.KafkaCheckpoint;
import org.apache.hudi.utilities.freshness.QueueHead;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The reporter's one client of a Kafka cluster, shared by the cluster's sources and kept across rounds. A measurement
 * of many positions costs one topic listing, one request for the beginning offsets and one for the end offsets of all
 * their partitions (per leader broker), and one bounded read of the first record of every lagging partition; an
 * unreachable cluster costs one metadata timeout, whatever the number of positions. Measurements are serialized: a
 * Kafka consumer serves one thread at a time.
 */
public final class KafkaClusterClient implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaClusterClient.class);

  private final KafkaCluster cluster;
  private final Supplier<Consumer<byte[], byte[]>> consumers;
  private Consumer<byte[], byte[]> consumer;

  /** @param consumers opens this cluster's consumer, once, at the first measurement */
  KafkaClusterClient(KafkaCluster cluster, Supplier<Consumer<byte[], byte[]>> consumers) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.consumers = Objects.requireNonNull(consumers, "consumers");
  }

  /**
   * Measures positions of this cluster together.
   *
   * @param positions positions whose cluster is this one
   * @return a reading per distinct position; a position that cannot be read has its reason
   */
  public synchronized Map<KafkaSourcePosition, KafkaReading> measure(Collection<KafkaSourcePosition> positions) {
    Map<KafkaSourcePosition, KafkaReading> readings = new LinkedHashMap<>();
    Map<KafkaSourcePosition, KafkaCheckpoint> checkpoints = new LinkedHashMap<>();
    for (KafkaSourcePosition position : positions) {
      if (!position.cluster().equals(cluster)) {
        throw new IllegalArgumentException("Cannot measure " + position + " with the client of " + cluster
            + ": it belongs to another cluster");
      }
      checkpoint(position, readings, checkpoints);
    }
    if (checkpoints.isEmpty()) {
      return readings;
    }
    Duration metadataTimeout = longest(checkpoints.keySet(), KafkaSourcePosition::metadataTimeout);
    Map<KafkaSourcePosition, LogRanges> ranges = new LinkedHashMap<>();
    try {
      Consumer<byte[], byte[]> open = consumer();
      Map<String, List<PartitionInfo>> topics = open.listTopics(metadataTimeout);
      Set<TopicPartition> partitions = new HashSet<>();
      checkpoints.forEach((position, checkpoint) -> {
        List<PartitionInfo> infos = topics.get(checkpoint.topic());
        if (infos == null || infos.isEmpty()) {
          readings.put(position, KafkaReading.failed("Cannot measure topic '" + checkpoint.topic() + "': it does "
              + "not exist on cluster " + cluster.bootstrapServers() + " (the reporter never creates it; recreate "
              + "the topic or move the pipeline to the topic it reads now)"));
        } else {
          infos.forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
        }
      });
      if (partitions.isEmpty()) {
        return readings;
      }
      Map<TopicPartition, Long> beginnings = open.beginningOffsets(partitions, metadataTimeout);
      Map<TopicPartition, Long> ends = open.endOffsets(partitions, metadataTimeout);
      checkpoints.forEach((position, checkpoint) -> {
        if (!readings.containsKey(position)) {
          ranges.put(position, LogRanges.of(checkpoint, topics.get(checkpoint.topic()), beginnings, ends));
        }
      });
    } catch (KafkaException e) {
      String reason = "Cannot read the offsets of Kafka cluster " + cluster.bootstrapServers() + ": " + e
          + " (check that the cluster is up, bootstrap.servers and the security settings; raise "
          + "hoodie.streamer.freshness.kafka.metadata.timeout.ms if it is only slow)";
      LOG.warn("{}; its {} positions have no value this round", reason, checkpoints.size() - readings.size());
      checkpoints.keySet().forEach(position -> readings.putIfAbsent(position,
          KafkaReading.clusterUnreachable(reason)));
      return readings;
    }
    Map<TopicPartition, NavigableSet<Long>> starts = new HashMap<>();
    ranges.values().forEach(range -> range.lagging().forEach((partition, start) ->
        starts.computeIfAbsent(partition, key -> new TreeSet<>()).add(start)));
    Map<TopicPartition, NavigableMap<Long, Long>> firstTimestamps;
    try {
      firstTimestamps = starts.isEmpty() ? Map.of()
          : FirstRecords.timestamps(consumer, starts, longest(ranges.keySet(), KafkaSourcePosition::pollTimeout));
    } catch (KafkaException e) {
      String reason = "Cannot read the first waiting records from Kafka cluster " + cluster.bootstrapServers() + ": "
          + e + " (check that the reporter's principal may read the topics)";
      LOG.warn("{}; the positions with data waiting have no value this round", reason);
      ranges.forEach((position, range) -> readings.put(position, range.lagging().isEmpty()
          ? KafkaReading.of(head(position, range, Map.of())) : KafkaReading.failed(reason)));
      return readings;
    }
    ranges.forEach((position, range) -> readings.put(position, KafkaReading.of(head(position, range,
        firstTimestamps))));
    return readings;
  }

  /** Parses the position's checkpoint, or records why it cannot be measured. */
  private static void checkpoint(KafkaSourcePosition position, Map<KafkaSourcePosition, KafkaReading> readings,
                                 Map<KafkaSourcePosition, KafkaCheckpoint> checkpoints) {
    KafkaCheckpoint checkpoint;
    try {
      checkpoint = KafkaCheckpoint.parse(position.checkpoint());
    } catch (IllegalArgumentException e) {
      readings.put(position, KafkaReading.failed(e.getMessage()));
      return;
    }
    if (!checkpoint.topic().equals(position.topic())) {
      readings.put(position, KafkaReading.failed("Cannot measure topic '" + position.topic() + "' against the "
          + "checkpoint of topic '" + checkpoint.topic() + "': its offsets are no position in the topic read now "
          + "(the pipeline's topic changed since its last commit; its next commit stores a checkpoint of '"
          + position.topic() + "', or set hoodie.streamer.source.kafka.topic back)"));
      return;
    }
    checkpoints.put(position, checkpoint);
  }

  /**
   * The queue head from the first records of the lagging partitions: no lag when the checkpoint is past the log's
   * end, when a first record has no timestamp, or when any lagging partition gave no record in time (the age of the
   * others would only be a lower bound).
   */
  private static QueueHead head(KafkaSourcePosition position, LogRanges range,
                                Map<TopicPartition, NavigableMap<Long, Long>> firstTimestamps) {
    CheckpointInLog inLog = range.checkpointInLog();
    if (inLog.offsetsAheadOfLog() > 0) {
      return QueueHead.aheadOfLog(range.offsetLag(), inLog, "Cannot measure the lag of topic '" + position.topic()
          + "': the checkpoint is past the log's end by " + inLog.offsetsAheadOfLog() + " offsets in partitions "
          + range.aheadPartitions() + " (the topic was recreated or truncated; the Streamer reads nothing below "
          + "its checkpoint: move the pipeline's checkpoint back into the log)");
    }
    if (range.lagging().isEmpty()) {
      return QueueHead.caughtUp().withCheckpointInLog(inLog);
    }
    List<Long> timestamps = new ArrayList<>();
    int unanswered = 0;
    for (Map.Entry<TopicPartition, Long> lagging : range.lagging().entrySet()) {
      Long timestamp = firstTimestamps.getOrDefault(lagging.getKey(), new TreeMap<>()).get(lagging.getValue());
      if (timestamp == null) {
        unanswered++;
      } else {
        timestamps.add(timestamp);
      }
    }
    if (unanswered > 0) {
      return QueueHead.unreadable(range.offsetLag(), "Cannot measure the lag of topic '" + position.topic() + "': "
          + unanswered + " of " + range.lagging().size() + " lagging partitions gave no record within "
          + position.pollTimeout().toMillis() + " ms (the age of the others is only a lower bound; raise "
          + "hoodie.streamer.freshness.kafka.poll.timeout.ms)").withCheckpointInLog(inLog);
    }
    if (timestamps.stream().anyMatch(timestamp -> timestamp < 0)) {
      return QueueHead.withoutTimestamp(range.offsetLag()).withCheckpointInLog(inLog);
    }
    long earliest = timestamps.stream().mapToLong(Long::longValue).min().getAsLong();
    return QueueHead.waitingSince(Instant.ofEpochMilli(earliest), range.offsetLag()).withCheckpointInLog(inLog);
  }

  private static Duration longest(Collection<KafkaSourcePosition> positions,
                                  Function<KafkaSourcePosition, Duration> timeout) {
    return positions.stream().map(timeout).max(Comparator.naturalOrder()).get();
  }

  private Consumer<byte[], byte[]> consumer() {
    if (consumer == null) {
      consumer = consumers.get();
    }
    return consumer;
  }

  @Override
  public synchronized void close() {
    if (consumer != null) {
      consumer.close();
      consumer = null;
    }
  }

  @Override
  public String toString() {
    return "KafkaClusterClient{" + cluster + "}";
  }
}
