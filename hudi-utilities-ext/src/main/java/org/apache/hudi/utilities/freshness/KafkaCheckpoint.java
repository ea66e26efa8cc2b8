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

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A Kafka checkpoint as the Hudi Streamer stores it: {@code topic,0:1200,1:980}, the <em>next</em> offset to read of
 * each partition (everything before it has been committed to the target).
 */
public final class KafkaCheckpoint {

  private final String topic;
  private final SortedMap<Integer, Long> nextOffsets;

  private KafkaCheckpoint(String topic, SortedMap<Integer, Long> nextOffsets) {
    this.topic = topic;
    this.nextOffsets = Collections.unmodifiableSortedMap(nextOffsets);
  }

  /**
   * @throws IllegalArgumentException if the text is not {@code topic,partition:offset,...} with at least one
   *     partition, non-negative numbers and no repeated partition
   */
  public static KafkaCheckpoint parse(String text) {
    if (text == null || text.trim().isEmpty()) {
      throw malformed(text, "it is empty");
    }
    String[] parts = text.trim().split(",", -1);
    String topic = parts[0].trim();
    if (topic.isEmpty() || topic.contains(":")) {
      throw malformed(text, "it does not start with a topic name");
    }
    if (parts.length < 2) {
      throw malformed(text, "it names no partition");
    }
    SortedMap<Integer, Long> offsets = new TreeMap<>();
    for (int i = 1; i < parts.length; i++) {
      String entry = parts[i].trim();
      String[] partitionAndOffset = entry.split(":", -1);
      if (partitionAndOffset.length != 2) {
        throw malformed(text, "entry '" + entry + "' is not <partition>:<offset>");
      }
      int partition;
      long offset;
      try {
        partition = Integer.parseInt(partitionAndOffset[0].trim());
        offset = Long.parseLong(partitionAndOffset[1].trim());
      } catch (NumberFormatException e) {
        throw malformed(text, "entry '" + entry + "' is not <partition>:<offset> in digits");
      }
      if (partition < 0 || offset < 0) {
        throw malformed(text, "entry '" + entry + "' is negative");
      }
      if (offsets.put(partition, offset) != null) {
        throw malformed(text, "partition " + partition + " is repeated");
      }
    }
    return new KafkaCheckpoint(topic, offsets);
  }

  public String topic() {
    return topic;
  }

  /** Partition to the next offset to read, in partition order. */
  public SortedMap<Integer, Long> nextOffsets() {
    return nextOffsets;
  }

  private static IllegalArgumentException malformed(String text, String why) {
    return new IllegalArgumentException("Cannot read the Kafka checkpoint '" + text + "': " + why
        + " (the Streamer stores topic,<partition>:<next offset>,...; check which source wrote this target)");
  }

  @Override
  public String toString() {
    return "KafkaCheckpoint{" + topic + " " + nextOffsets + "}";
  }
}
