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

import org.apache.hudi.utilities.freshness.Secrets;
import org.apache.hudi.utilities.freshness.SourceSpec;

import org.apache.kafka.clients.consumer.ConsumerConfig;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A Kafka cluster as the reporter connects to it: the consumer settings of a source (bootstrap servers, security,
 * client tuning), credentials included. Sources with equal settings share one client: their cluster is the same, and
 * so is the way to reach it. Settings that are no consumer setting (a schema registry's, say) and those the reporter
 * sets itself are left out, so that they cannot split a cluster.
 */
public final class KafkaCluster {

  /** The consumer group of freshness consumers, unless the source's properties name one; it never commits. */
  public static final String DEFAULT_GROUP_ID = "hudi-utilities-ext-freshness";
  /**
   * Bytes fetched per partition at most: the first record past a checkpoint is all the reporter reads of a partition,
   * and Kafka returns a first batch larger than this all the same.
   */
  static final int MAX_PARTITION_FETCH_BYTES = 64 * 1024;
  /** Bytes of one fetch response at most, whatever the number of partitions lagging. */
  static final int FETCH_MAX_BYTES = 4 * 1024 * 1024;
  static final int MAX_POLL_RECORDS = 500;

  /** Set by the reporter whatever the source says: a read-only observer of raw bytes, with bounded fetches. */
  private static final Map<String, String> OBSERVER_SETTINGS = Map.of(
      ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
      ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
      // A read-only observer must never create the topic a stale checkpoint names.
      ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false",
      ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(MAX_PARTITION_FETCH_BYTES),
      ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(FETCH_MAX_BYTES),
      ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(MAX_POLL_RECORDS));

  private final SortedMap<String, String> settings;

  private KafkaCluster(SortedMap<String, String> settings) {
    this.settings = Collections.unmodifiableSortedMap(settings);
  }

  /** The cluster of a Kafka source. */
  public static KafkaCluster of(SourceSpec source) {
    SortedMap<String, String> settings = new TreeMap<>();
    source.kafkaProperties().forEach((key, value) -> {
      boolean consumerSetting = ConsumerConfig.configNames().contains(key) || key.startsWith("config.providers");
      boolean observerSetting = OBSERVER_SETTINGS.containsKey(key)
          || key.equals(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG)
          || key.equals(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);
      if (consumerSetting && !observerSetting) {
        settings.put(key, value);
      }
    });
    settings.putIfAbsent(ConsumerConfig.GROUP_ID_CONFIG, DEFAULT_GROUP_ID);
    return new KafkaCluster(settings);
  }

  public String bootstrapServers() {
    return settings.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
  }

  /** The properties of this cluster's consumer: its settings and the observer's. */
  public Map<String, Object> consumerProperties() {
    Map<String, Object> properties = new HashMap<>(settings);
    properties.putAll(OBSERVER_SETTINGS);
    return properties;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof KafkaCluster && settings.equals(((KafkaCluster) other).settings);
  }

  @Override
  public int hashCode() {
    return settings.hashCode();
  }

  /** The bootstrap servers and the settings, credentials redacted. */
  @Override
  public String toString() {
    return "KafkaCluster{" + bootstrapServers() + " " + Secrets.describe(settings) + "}";
  }
}
