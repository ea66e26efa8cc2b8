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

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What waits in a Kafka topic after a Streamer checkpoint, read by a dedicated consumer that never commits: it assigns
 * the partitions that have records past the checkpoint, seeks each to its checkpoint offset, polls within a bounded
 * time, and takes the <em>earliest</em> timestamp of the first record of each partition (the oldest data waiting,
 * not an average nor the latest). The offset lag is {@code end offset - checkpoint offset}, summed.
 *
 * <p>A partition missing from the checkpoint (added later) counts from its beginning, as the Streamer reads it; a
 * checkpoint offset below the beginning (records aged out) counts from the beginning.
 */
public final class KafkaQueueProbe implements QueueProbe {

  /** The consumer group of freshness consumers, unless the source's properties name one. */
  public static final String DEFAULT_GROUP_ID = "hudi-utilities-ext-freshness";

  private final Supplier<Consumer<byte[], byte[]>> consumers;
  private final Duration pollTimeout;
  private final Duration metadataTimeout;

  /**
   * @param consumers       opens a consumer for one probe; the probe closes it
   * @param pollTimeout     the most time spent polling for first records
   * @param metadataTimeout bound of each metadata request (partitions, offsets)
   */
  public KafkaQueueProbe(Supplier<Consumer<byte[], byte[]>> consumers, Duration pollTimeout, Duration metadataTimeout) {
    this.consumers = Objects.requireNonNull(consumers, "consumers");
    this.pollTimeout = Objects.requireNonNull(pollTimeout, "pollTimeout");
    this.metadataTimeout = Objects.requireNonNull(metadataTimeout, "metadataTimeout");
  }

  /** A probe with a real consumer built from the source's properties (see {@link #consumerProperties}). */
  public static KafkaQueueProbe forSource(SourceSpec source, Duration pollTimeout, Duration metadataTimeout) {
    Map<String, Object> properties = consumerProperties(source.kafkaProperties());
    return new KafkaQueueProbe(() -> new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
        new ByteArrayDeserializer()), pollTimeout, metadataTimeout);
  }

  /**
   * The source's properties with the settings a read-only observer needs: its own group id (unless one is given),
   * no offset commits, the earliest remaining record when a checkpoint offset has aged out, and raw bytes (records
   * are never decoded).
   */
  static Map<String, Object> consumerProperties(Map<String, String> configured) {
    Map<String, Object> properties = new HashMap<>(configured);
    properties.putIfAbsent(ConsumerConfig.GROUP_ID_CONFIG, DEFAULT_GROUP_ID);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.remove(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG);
    properties.remove(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);
    return properties;
  }

  @Override
  public QueueHead headAfter(String position) {
    KafkaCheckpoint checkpoint = KafkaCheckpoint.parse(position);
    try (Consumer<byte[], byte[]> consumer = consumers.get()) {
      List<PartitionInfo> partitions = consumer.partitionsFor(checkpoint.topic(), metadataTimeout);
      if (partitions == null || partitions.isEmpty()) {
        throw new IllegalStateException("Cannot read topic '" + checkpoint.topic() + "' of the checkpoint: the "
            + "cluster reports no partition for it (check bootstrap.servers and that the topic exists)");
      }
      Set<TopicPartition> all = partitions.stream().map(info -> new TopicPartition(info.topic(), info.partition()))
          .collect(Collectors.toSet());
      Map<TopicPartition, Long> beginnings = consumer.beginningOffsets(all, metadataTimeout);
      Map<TopicPartition, Long> ends = consumer.endOffsets(all, metadataTimeout);
      Map<TopicPartition, Long> starts = new HashMap<>();
      long offsetLag = 0;
      for (TopicPartition partition : all) {
        long beginning = beginnings.getOrDefault(partition, 0L);
        long start = Math.max(beginning, checkpoint.nextOffsets().getOrDefault(partition.partition(), beginning));
        long end = ends.getOrDefault(partition, start);
        if (end > start) {
          starts.put(partition, start);
          offsetLag += end - start;
        }
      }
      if (starts.isEmpty()) {
        return QueueHead.caughtUp();
      }
      return earliestOf(firstTimestamps(consumer, starts), offsetLag);
    }
  }

  /** The timestamp of the first record at or after each start offset, for the partitions answered in time. */
  private Map<TopicPartition, Long> firstTimestamps(Consumer<byte[], byte[]> consumer,
                                                   Map<TopicPartition, Long> starts) {
    consumer.assign(starts.keySet());
    starts.forEach(consumer::seek);
    Map<TopicPartition, Long> first = new HashMap<>();
    long deadline = System.nanoTime() + pollTimeout.toNanos();
    while (first.size() < starts.size()) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        break;
      }
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofNanos(remaining))) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        if (!first.containsKey(partition) && record.offset() >= starts.get(partition)) {
          first.put(partition, record.timestamp());
        }
      }
      // The first record past the checkpoint is the oldest waiting data of its partition: fetch no more of it.
      consumer.pause(first.keySet());
    }
    return first;
  }

  /**
   * The queue head from the first records of the lagging partitions: the earliest timestamp; no lag if any first
   * record has no timestamp (-1), since the oldest data's age is then unknown; unreadable if no partition answered.
   */
  static QueueHead earliestOf(Map<TopicPartition, Long> firstTimestamps, long offsetLag) {
    if (firstTimestamps.isEmpty()) {
      return QueueHead.unreadable(offsetLag);
    }
    if (firstTimestamps.values().stream().anyMatch(timestamp -> timestamp < 0)) {
      return QueueHead.withoutTimestamp(offsetLag);
    }
    long earliest = firstTimestamps.values().stream().mapToLong(Long::longValue).min().getAsLong();
    return QueueHead.waitingSince(Instant.ofEpochMilli(earliest), offsetLag);
  }
}
