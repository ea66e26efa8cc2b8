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

import org.apache.hudi.utilities.freshness.testutils.EmbeddedKafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What waits in Kafka after a Streamer checkpoint, read from a real KRaft broker by a consumer that never commits.
 */
class TestKafkaQueueProbe {

  private static final Duration POLL = Duration.ofMillis(500);
  private static final Duration METADATA = Duration.ofSeconds(10);

  @TempDir
  static Path dir;

  private static EmbeddedKafka kafka;
  private static long base;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = EmbeddedKafka.start(dir);
    base = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
  }

  @AfterAll
  static void stopKafka() {
    if (kafka != null) {
      kafka.close();
    }
  }

  private static KafkaQueueProbe probe() {
    return KafkaQueueProbe.forSource(SourceSpec.kafka("clicks", Map.of("bootstrap.servers",
        kafka.bootstrapServers())), POLL, METADATA);
  }

  @Test
  void theOldestWaitingRecordIsTheEarliestFirstRecordAcrossPartitions() throws Exception {
    kafka.createTopic("earliest", 3);
    kafka.send("earliest", 0, base + 1_000, "p0-consumed");
    kafka.send("earliest", 0, base + 5_000, "p0-waiting");
    kafka.send("earliest", 1, base + 3_000, "p1-waiting-first");
    kafka.send("earliest", 1, base + 200, "p1-waiting-second-stamped-earlier");
    kafka.send("earliest", 2, base + 100, "p2-consumed");

    QueueHead head = probe().headAfter("earliest,0:1,1:0,2:1");

    // The first waiting records are p0@5000 and p1@3000: the earliest, not their average (4000) nor the latest.
    assertEquals(FreshnessState.WAITING, head.state());
    assertEquals(Instant.ofEpochMilli(base + 3_000), head.oldestVisibleAt().get());
    assertEquals(3, head.pending());
  }

  @Test
  void nothingAfterTheCheckpointIsCaughtUp() throws Exception {
    kafka.createTopic("caught-up", 2);
    kafka.send("caught-up", 0, base, "a");
    kafka.send("caught-up", 0, base, "b");

    QueueHead head = probe().headAfter("caught-up,0:2,1:0");

    assertEquals(FreshnessState.CAUGHT_UP, head.state());
    assertEquals(0, head.pending());
  }

  @Test
  void partitionMissingFromTheCheckpointWaitsFromItsBeginning() throws Exception {
    kafka.createTopic("grown", 2);
    kafka.send("grown", 0, base + 9_000, "consumed");
    kafka.send("grown", 1, base + 7_000, "never read: the partition was added after the checkpoint");

    QueueHead head = probe().headAfter("grown,0:1");

    assertEquals(Instant.ofEpochMilli(base + 7_000), head.oldestVisibleAt().get());
    assertEquals(1, head.pending());
  }

  @Test
  void theProbeNeverCommitsOffsets() throws Exception {
    kafka.createTopic("uncommitted", 1);
    kafka.send("uncommitted", 0, base, "waiting");

    assertEquals(FreshnessState.WAITING, probe().headAfter("uncommitted,0:0").state());

    assertTrue(kafka.admin().listConsumerGroupOffsets(KafkaQueueProbe.DEFAULT_GROUP_ID)
        .partitionsToOffsetAndMetadata().get().isEmpty());
  }

  @Test
  void firstRecordWithoutTimestampSuppressesTheLag() {
    MockConsumer<byte[], byte[]> consumer = mockConsumerWithWaitingRecord(10L);
    consumer.schedulePollTask(() -> consumer.addRecord(record(5L, -1L, TimestampType.NO_TIMESTAMP_TYPE)));

    QueueHead head = new KafkaQueueProbe(() -> consumer, POLL, METADATA).headAfter("legacy,0:5");

    assertEquals(FreshnessState.NO_TIMESTAMP, head.state());
    assertFalse(head.oldestVisibleAt().isPresent());
    assertEquals(5, head.pending());
  }

  @Test
  void noRecordWithinThePollTimeoutLeavesTheLagUnknown() {
    MockConsumer<byte[], byte[]> consumer = mockConsumerWithWaitingRecord(8L);

    QueueHead head = new KafkaQueueProbe(() -> consumer, Duration.ofMillis(50), METADATA).headAfter("legacy,0:5");

    assertEquals(FreshnessState.UNREADABLE, head.state());
    assertEquals(3, head.pending());
  }

  @Test
  void consumerPropertiesKeepCredentialsAndForceAReadOnlyObserver() {
    Map<String, Object> properties = KafkaQueueProbe.consumerProperties(Map.of("bootstrap.servers", "b:9092",
        "sasl.jaas.config", "jaas", "enable.auto.commit", "true", "value.deserializer", "x.Avro"));
    assertEquals("jaas", properties.get("sasl.jaas.config"));
    assertEquals("false", properties.get("enable.auto.commit"));
    assertEquals(KafkaQueueProbe.DEFAULT_GROUP_ID, properties.get("group.id"));
    assertEquals("earliest", properties.get("auto.offset.reset"));
    assertFalse(properties.containsKey("value.deserializer"));
  }

  private static MockConsumer<byte[], byte[]> mockConsumerWithWaitingRecord(long end) {
    MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    TopicPartition partition = new TopicPartition("legacy", 0);
    consumer.updatePartitions("legacy", List.of(new PartitionInfo("legacy", 0, Node.noNode(), new Node[0],
        new Node[0])));
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.updateEndOffsets(Map.of(partition, end));
    return consumer;
  }

  private static ConsumerRecord<byte[], byte[]> record(long offset, long timestamp, TimestampType type) {
    return new ConsumerRecord<>("legacy", 0, offset, timestamp, type, 0, 1, null, new byte[] {1}, new RecordHeaders(),
        // Kafka's constructor takes the leader epoch as a java.util.Optional.
        java.util.Optional.empty());
  }
}
