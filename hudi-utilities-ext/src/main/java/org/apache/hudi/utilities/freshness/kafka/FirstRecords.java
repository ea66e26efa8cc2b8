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

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the timestamp of the first record at or after start offsets, all partitions of a cluster together: one
 * assignment per wave (a partition that several pipelines read from different offsets takes one wave per offset), a
 * partition dropped from the assignment once it answered, so that nothing more of it is fetched or kept.
 */
final class FirstRecords {

  private FirstRecords() {
  }

  /**
   * @param starts  each partition's start offsets
   * @param timeout the most time spent polling, over all waves
   * @return each partition's start offsets to the timestamp of their first record, for those answered in time
   */
  static Map<TopicPartition, NavigableMap<Long, Long>> timestamps(Consumer<byte[], byte[]> consumer,
                                                                  Map<TopicPartition, NavigableSet<Long>> starts,
                                                                  Duration timeout) {
    Map<TopicPartition, NavigableMap<Long, Long>> answered = new HashMap<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      for (Map<TopicPartition, Long> wave : waves(starts)) {
        readWave(consumer, wave, deadline, answered);
      }
    } finally {
      // Drops what was fetched and not read: nothing is held between rounds.
      consumer.assign(Collections.emptyList());
    }
    return answered;
  }

  private static void readWave(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> wave, long deadline,
                               Map<TopicPartition, NavigableMap<Long, Long>> answered) {
    Set<TopicPartition> waiting = new HashSet<>(wave.keySet());
    consumer.assign(waiting);
    wave.forEach(consumer::seek);
    while (!waiting.isEmpty()) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        return;
      }
      boolean anyAnswered = false;
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofNanos(remaining))) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        Long start = wave.get(partition);
        if (waiting.contains(partition) && record.offset() >= start) {
          answered.computeIfAbsent(partition, key -> new TreeMap<>()).put(start, record.timestamp());
          waiting.remove(partition);
          anyAnswered = true;
        }
      }
      if (anyAnswered) {
        consumer.assign(waiting);
      }
    }
  }

  /** The i-th wave holds the i-th smallest start offset of every partition that has one. */
  private static List<Map<TopicPartition, Long>> waves(Map<TopicPartition, NavigableSet<Long>> starts) {
    List<Map<TopicPartition, Long>> waves = new ArrayList<>();
    starts.forEach((partition, offsets) -> {
      int i = 0;
      for (Long offset : new TreeSet<>(offsets)) {
        if (waves.size() == i) {
          waves.add(new HashMap<>());
        }
        waves.get(i++).put(partition, offset);
      }
    });
    return waves;
  }
}
