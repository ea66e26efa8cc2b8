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

import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A Kafka checkpoint against its topic's log: where each lagging partition's waiting data starts, how many records
 * wait, how many the log lost below the checkpoint and how far the checkpoint is past the log's end. A partition
 * missing from the checkpoint (added later) waits from its beginning, as the Streamer reads it; a checkpoint offset
 * below the log start (records aged out) waits from the log start, the records in between lost.
 */
final class LogRanges {

  private final Map<TopicPartition, Long> lagging;
  private final long offsetLag;
  private final CheckpointInLog checkpointInLog;
  private final SortedSet<Integer> aheadPartitions;

  private LogRanges(Map<TopicPartition, Long> lagging, long offsetLag, CheckpointInLog checkpointInLog,
                    SortedSet<Integer> aheadPartitions) {
    this.lagging = Collections.unmodifiableMap(lagging);
    this.offsetLag = offsetLag;
    this.checkpointInLog = checkpointInLog;
    this.aheadPartitions = Collections.unmodifiableSortedSet(aheadPartitions);
  }

  /**
   * @param partitions the topic's partitions
   * @param beginnings the log start offset of each partition
   * @param ends       the log end offset of each partition
   */
  static LogRanges of(KafkaCheckpoint checkpoint, List<PartitionInfo> partitions, Map<TopicPartition, Long> beginnings,
                      Map<TopicPartition, Long> ends) {
    Map<TopicPartition, Long> lagging = new HashMap<>();
    SortedSet<Integer> ahead = new TreeSet<>();
    long offsetLag = 0;
    long lost = 0;
    long aheadBy = 0;
    for (PartitionInfo info : partitions) {
      TopicPartition partition = new TopicPartition(info.topic(), info.partition());
      long beginning = beginnings.get(partition);
      long end = ends.get(partition);
      long next = checkpoint.nextOffsets().getOrDefault(partition.partition(), beginning);
      if (next < beginning) {
        lost += beginning - next;
      } else if (next > end) {
        aheadBy += next - end;
        ahead.add(partition.partition());
      }
      long start = Math.max(beginning, next);
      if (end > start) {
        lagging.put(partition, start);
        offsetLag += end - start;
      }
    }
    return new LogRanges(lagging, offsetLag, CheckpointInLog.of(lost, aheadBy), ahead);
  }

  /** Each lagging partition's first offset to read. */
  Map<TopicPartition, Long> lagging() {
    return lagging;
  }

  /** Records waiting, over the partitions. */
  long offsetLag() {
    return offsetLag;
  }

  CheckpointInLog checkpointInLog() {
    return checkpointInLog;
  }

  /** The partitions whose checkpoint offset is past the log's end. */
  SortedSet<Integer> aheadPartitions() {
    return aheadPartitions;
  }
}
