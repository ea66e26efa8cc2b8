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
import org.apache.hudi.utilities.freshness.FreshnessState;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.QueueHead;
import org.apache.hudi.utilities.freshness.SourceSpec;
import org.apache.hudi.utilities.freshness.testutils.EmbeddedKafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reporter's Kafka clients against a real broker (one for the class, a topic per test). */
class TestKafkaClusters {

  /** Only a hang reaches it: a read ends as soon as every lagging partition gave its first record. */
  private static final Duration GENEROUS = Duration.ofSeconds(60);

  @TempDir
  static Path dir;

  private static EmbeddedKafka kafka;
  private static long base;

  private final AtomicInteger clientsOpened = new AtomicInteger();
  /**
   * Calls on the reporter's consumers by cluster ({@code bootstrap.servers}) and method. Counted at the client, not
   * from the broker's request metrics: the broker counts a request once its response is sent, which may be after the
   * client has returned, and a poll that returns records sends the next fetch ahead, so the broker's counts move
   * after the call that caused them, later the more loaded the machine.
   */
  private final Map<String, Map<String, AtomicInteger>> consumerCalls = new ConcurrentHashMap<>();
  /** Holds the listing of topics on the cluster named here until opened (none when absent). */
  private final Map<String, CountDownLatch> listingsHeld = new ConcurrentHashMap<>();
  private final KafkaClusters clusters = new KafkaClusters(properties -> {
    clientsOpened.incrementAndGet();
    return counted((String) properties.get("bootstrap.servers"),
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer()));
  });

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

  @AfterEach
  void closeClients() {
    clusters.close();
  }

  @Test
  void theOldestWaitingRecordIsTheEarliestFirstRecordAcrossPartitions() throws Exception {
    kafka.createTopic("earliest", 3);
    kafka.send("earliest", 0, base + 1_000, "p0-consumed");
    kafka.send("earliest", 0, base + 5_000, "p0-waiting");
    kafka.send("earliest", 1, base + 3_000, "p1-waiting-first");
    kafka.send("earliest", 1, base + 200, "p1-waiting-second-stamped-earlier");
    kafka.send("earliest", 2, base + 100, "p2-consumed");

    QueueHead head = headAfter("earliest", "earliest,0:1,1:0,2:1");

    // The first waiting records are p0@5000 and p1@3000: the earliest, not their average (4000) nor the latest.
    assertEquals(FreshnessState.WAITING, head.state());
    assertEquals(Instant.ofEpochMilli(base + 3_000), head.oldestVisibleAt().get());
    assertEquals(3, head.pending());
    assertEquals(CheckpointInLog.of(0, 0), head.checkpointInLog().get());
  }

  @Test
  void nothingAfterTheCheckpointIsCaughtUp() throws Exception {
    kafka.createTopic("caught-up", 2);
    kafka.send("caught-up", 0, base, "a");
    kafka.send("caught-up", 0, base, "b");

    QueueHead head = headAfter("caught-up", "caught-up,0:2,1:0");

    assertEquals(FreshnessState.CAUGHT_UP, head.state());
    assertEquals(0, head.pending());
  }

  @Test
  void partitionMissingFromTheCheckpointWaitsFromItsBeginning() throws Exception {
    kafka.createTopic("grown", 2);
    kafka.send("grown", 0, base + 9_000, "consumed");
    kafka.send("grown", 1, base + 7_000, "never read: the partition was added after the checkpoint");

    QueueHead head = headAfter("grown", "grown,0:1");

    assertEquals(Instant.ofEpochMilli(base + 7_000), head.oldestVisibleAt().get());
    assertEquals(1, head.pending());
  }

  @Test
  void pipelinesReadingOnePartitionFromDifferentOffsetsEachGetTheirOwnFirstRecord() throws Exception {
    kafka.createTopic("shared", 1);
    kafka.send("shared", 0, base + 1_000, "read by the slow pipeline only");
    kafka.send("shared", 0, base + 2_000, "read by neither");
    KafkaSourcePosition slow = position("shared", "shared,0:0", GENEROUS);
    KafkaSourcePosition fast = position("shared", "shared,0:1", GENEROUS);

    Map<KafkaSourcePosition, KafkaReading> readings = clusters.measure(List.of(slow, fast));

    assertEquals(Instant.ofEpochMilli(base + 1_000), readings.get(slow).head().oldestVisibleAt().get());
    assertEquals(Instant.ofEpochMilli(base + 2_000), readings.get(fast).head().oldestVisibleAt().get());
  }

  @Test
  void theClientNeverCommitsOffsets() throws Exception {
    kafka.createTopic("uncommitted", 1);
    kafka.send("uncommitted", 0, base, "waiting");

    assertEquals(FreshnessState.WAITING, headAfter("uncommitted", "uncommitted,0:0").state());

    try (Admin admin = kafka.admin()) {
      assertTrue(admin.listConsumerGroupOffsets(KafkaCluster.DEFAULT_GROUP_ID).partitionsToOffsetAndMetadata().get()
          .isEmpty());
    }
  }

  @Test
  void checkpointPastTheLogEndHasNoLagAndSaysByHowMuch() throws Exception {
    kafka.createTopic("recreated", 2);
    for (int i = 0; i < 3; i++) {
      kafka.send("recreated", 0, base, "p0-" + i);
      kafka.send("recreated", 1, base, "p1-" + i);
    }

    QueueHead head = headAfter("recreated", "recreated,0:50,1:50");

    // Main reported CAUGHT_UP with lag 0: records landing at offsets 3 to 49 would never have shown.
    assertEquals(FreshnessState.CHECKPOINT_AHEAD_OF_LOG, head.state());
    assertFalse(head.oldestVisibleAt().isPresent());
    assertEquals(CheckpointInLog.of(0, 94), head.checkpointInLog().get());
    assertTrue(head.reason().get().contains("past the log's end by 94 offsets in partitions [0, 1]"),
        head.reason().get());
  }

  @Test
  void checkpointOfADeletedTopicCreatesNothingAndSaysTheTopicIsGone() throws Exception {
    // The broker creates topics on demand (auto.create.topics.enable=true, Kafka's default): main's probe created it.
    IllegalStateException error = assertThrows(IllegalStateException.class,
        () -> headAfter("deleted", "deleted,0:5"));

    assertTrue(error.getMessage().startsWith("Cannot measure topic 'deleted': it does not exist on cluster "),
        error.getMessage());
    try (Admin admin = kafka.admin()) {
      assertFalse(admin.listTopics().names().get().contains("deleted"), "the observer created the topic");
    }
  }

  @Test
  void laggingPartitionThatGivesNoRecordInTimeLeavesTheLagUnknown() throws Exception {
    kafka.createTopic("silent", 2);
    kafka.send("silent", 0, base + 1_000, "answers at once");
    // Partition 1 holds a record the checkpoint covers, then a transaction marker: it lags by one offset, and no
    // poll ever returns a record from it.
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
        kafka.bootstrapServers(), "transactional.id", "silent"), new StringSerializer(), new StringSerializer())) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>("silent", 1, base, null, "read")).get();
      producer.commitTransaction();
    }
    // The commit marker is written after commitTransaction returns: wait for it to end the partition's log.
    TopicPartition markerPartition = new TopicPartition("silent", 1);
    long deadline = System.nanoTime() + GENEROUS.toNanos();
    try (Admin admin = kafka.admin()) {
      while (admin.listOffsets(Map.of(markerPartition, OffsetSpec.latest())).partitionResult(markerPartition).get()
          .offset() < 2) {
        assertTrue(System.nanoTime() < deadline, "the commit marker was never written");
        Thread.sleep(10);
      }
    }

    QueueHead head = clusters.measure(List.of(position("silent", "silent,0:0,1:1", Duration.ofSeconds(1))))
        .values().iterator().next().head();

    // Main published partition 0's age as the topic's lag: a lower bound presented as the truth.
    assertEquals(FreshnessState.UNREADABLE, head.state());
    assertFalse(head.oldestVisibleAt().isPresent());
    assertEquals(2, head.pending());
    assertTrue(head.reason().get().contains("of 2 lagging partitions gave no record within 1000 ms"),
        head.reason().get());
  }

  @Test
  void checkpointBelowTheLogStartCountsTheRecordsLost() throws Exception {
    kafka.createTopic("expired", 1);
    for (int i = 0; i < 5; i++) {
      kafka.send("expired", 0, base + i * 1_000, "record " + i);
    }
    try (Admin admin = kafka.admin()) {
      admin.deleteRecords(Map.of(new TopicPartition("expired", 0), RecordsToDelete.beforeOffset(3))).all().get();
    }

    QueueHead head = headAfter("expired", "expired,0:1");

    // Records 1 and 2 aged out before the pipeline read them; the lag counts from record 3, as on main.
    assertEquals(FreshnessState.WAITING, head.state());
    assertEquals(Instant.ofEpochMilli(base + 3_000), head.oldestVisibleAt().get());
    assertEquals(2, head.pending());
    assertEquals(CheckpointInLog.of(2, 0), head.checkpointInLog().get());
  }

  @Test
  void checkpointOfAnotherTopicHasNoValue() throws Exception {
    kafka.createTopic("before-rename", 1);
    kafka.send("before-rename", 0, base, "waiting");

    IllegalStateException error = assertThrows(IllegalStateException.class,
        () -> headAfter("after-rename", "before-rename,0:0"));

    assertTrue(error.getMessage().startsWith("Cannot measure topic 'after-rename' against the checkpoint of topic "
        + "'before-rename'"), error.getMessage());
  }

  @Test
  void pipelinesOfOneClusterShareOneClientAndOneRequestPerRound() throws Exception {
    kafka.createTopic("fleet", 4);
    for (int partition = 0; partition < 4; partition++) {
      kafka.send("fleet", partition, base + partition * 1_000, "waiting");
    }
    long connections = kafka.connectionsAccepted();
    clusters.measureRound(List.of(position("fleet", "fleet,0:0,1:0,2:0,3:0", GENEROUS)));
    List<KafkaSourcePosition> tenPipelines = new ArrayList<>();
    for (int pipeline = 0; pipeline < 10; pipeline++) {
      tenPipelines.add(KafkaSourcePosition.of(PipelineSpec.builder("p" + pipeline, "/data/p" + pipeline)
          .source(source("fleet")).kafkaPollTimeout(GENEROUS).kafkaMetadataTimeout(GENEROUS).build(), source("fleet"),
          "fleet,0:0,1:0,2:0,3:" + (pipeline % 2)));
    }

    for (int round = 0; round < 3; round++) {
      // One broker leads every partition, so each call is one request.
      assertEquals(Map.of("listTopics", 1, "beginningOffsets", 1, "endOffsets", 1),
          offsetCallsOfRound(tenPipelines), "calls of round " + round);
    }

    assertEquals(1, clientsOpened.get(), "one client for the cluster, kept across rounds");
    // The client's bootstrap connection and its connection to the broker: main opened 2 per pipeline per round.
    assertTrue(kafka.connectionsAccepted() - connections <= 2,
        "connections accepted: " + (kafka.connectionsAccepted() - connections));
  }

  @Test
  void theProbesOfARoundAnswerFromItsReadingsWithoutAnotherRequest() throws Exception {
    kafka.createTopic("round", 1);
    kafka.send("round", 0, base, "waiting");
    PipelineSpec pipeline = pipeline("round", GENEROUS);
    clusters.measureRound(List.of(KafkaSourcePosition.of(pipeline, source("round"), "round,0:0")));
    Map<String, Integer> callsOfTheRound = calls(kafka.bootstrapServers());

    QueueHead head = clusters.probe(pipeline, source("round")).headAfter("round,0:0");

    assertEquals(Instant.ofEpochMilli(base), head.oldestVisibleAt().get());
    assertEquals(callsOfTheRound, calls(kafka.bootstrapServers()), "the probe called the consumer");
  }

  @Test
  void unreachableClusterCostsOneTimeoutPerRoundAndTheOthersAreMeasured() throws Exception {
    kafka.createTopic("healthy", 1);
    kafka.send("healthy", 0, base, "waiting");
    Duration timeout = Duration.ofSeconds(2);
    String unreachable = "127.0.0.1:" + closedPort();
    List<KafkaSourcePosition> positions = new ArrayList<>();
    for (int pipeline = 0; pipeline < 5; pipeline++) {
      SourceSpec source = SourceSpec.kafka("clicks", Map.of("bootstrap.servers", unreachable));
      positions.add(KafkaSourcePosition.of(PipelineSpec.builder("p" + pipeline, "/data/p" + pipeline).source(source)
          .kafkaMetadataTimeout(timeout).build(), source, "clicks," + pipeline + ":0"));
    }
    KafkaSourcePosition healthy = position("healthy", "healthy,0:0", GENEROUS);
    positions.add(healthy);

    Map<KafkaSourcePosition, KafkaReading> readings = clusters.measure(positions);

    // One listing, the only call that waits for the cluster, so one timeout: main waited one per pipeline (5 here).
    assertEquals(Map.of("listTopics", 1), calls(unreachable));
    for (KafkaSourcePosition position : positions.subList(0, 5)) {
      IllegalStateException error = assertThrows(IllegalStateException.class, () -> readings.get(position).head());
      assertTrue(error.getMessage().startsWith("Cannot read the offsets of Kafka cluster " + unreachable),
          error.getMessage());
    }
    assertEquals(FreshnessState.WAITING, readings.get(healthy).head().state());
  }

  @Test
  void theClustersOfARoundCanBeMeasuredOnAPoolAndTheirProbesAnswerFromTheRound() throws Exception {
    kafka.createTopic("pooled", 1);
    kafka.send("pooled", 0, base, "waiting");
    PipelineSpec healthy = pipeline("pooled", GENEROUS);
    String lostServers = "127.0.0.1:" + closedPort();
    SourceSpec lost = SourceSpec.kafka("clicks", Map.of("bootstrap.servers", lostServers));
    PipelineSpec unreachable = PipelineSpec.builder("lost", "/data/lost").source(lost)
        .kafkaMetadataTimeout(Duration.ofSeconds(1)).build();
    CountDownLatch lostAnswers = new CountDownLatch(1);
    listingsHeld.put(lostServers, lostAnswers);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      clusters.measureRound(List.of(KafkaSourcePosition.of(healthy, source("pooled"), "pooled,0:0"),
          KafkaSourcePosition.of(unreachable, lost, "clicks,0:0")), pool);

      // The round's start does not wait for the clusters, and a probe waits for its own cluster only: the healthy
      // one answers while the other's listing is held (the round's start used to wait for every cluster).
      QueueHead pooled = assertTimeoutPreemptively(GENEROUS,
          () -> clusters.probe(healthy, source("pooled")).headAfter("pooled,0:0"),
          "the healthy cluster's probe waited for the unreachable cluster");
      assertEquals(FreshnessState.WAITING, pooled.state());
      lostAnswers.countDown();
      IllegalStateException error = assertThrows(IllegalStateException.class,
          () -> clusters.probe(unreachable, lost).headAfter("clicks,0:0"));
      assertTrue(error.getMessage().startsWith("Cannot read the offsets of Kafka cluster 127.0.0.1:"),
          error.getMessage());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void roundSaysWhichClustersAnsweredByNameAndATopicGoneIsNoClusterDown() throws Exception {
    kafka.createTopic("answered", 1);
    PipelineSpec healthy = pipeline("answered", GENEROUS);
    PipelineSpec gone = pipeline("gone", GENEROUS);
    SourceSpec dead = SourceSpec.kafka("clicks", Map.of("bootstrap.servers", "127.0.0.1:" + closedPort()));
    List<KafkaSourcePosition> positions = new ArrayList<>(List.of(
        KafkaSourcePosition.of(healthy, source("answered"), "answered,0:0"),
        KafkaSourcePosition.of(gone, source("gone"), "gone,0:0")));
    for (int pipeline = 0; pipeline < 5; pipeline++) {
      PipelineSpec ofDead = PipelineSpec.builder("p" + pipeline, "/data/p" + pipeline).source(dead)
          .kafkaCluster("dead").kafkaMetadataTimeout(Duration.ofSeconds(1)).build();
      positions.add(KafkaSourcePosition.of(ofDead, dead, "clicks," + pipeline + ":0"));
    }

    clusters.measureRound(positions);

    assertEquals(Map.of(kafka.bootstrapServers(), true, "dead", false), clusters.reachableThisRound());
    assertEquals(kafka.bootstrapServers(), healthy.kafkaCluster().get());
  }

  @Test
  void firstRecordWithoutTimestampSuppressesTheLag() {
    TopicPartition partition = new TopicPartition("legacy", 0);
    MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    consumer.updatePartitions("legacy", List.of(new PartitionInfo("legacy", 0, Node.noNode(), new Node[0],
        new Node[0])));
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.updateEndOffsets(Map.of(partition, 10L));
    // Message format v0 has no timestamps; no broker of today writes one, hence Kafka's own test consumer.
    consumer.schedulePollTask(() -> consumer.addRecord(new ConsumerRecord<>("legacy", 0, 5L, -1L,
        TimestampType.NO_TIMESTAMP_TYPE, 0, 1, null, new byte[] {1}, new RecordHeaders(),
        // Kafka's constructor takes the leader epoch as a java.util.Optional.
        java.util.Optional.empty())));
    try (KafkaClusters legacy = new KafkaClusters(properties -> consumer)) {
      KafkaSourcePosition position = KafkaSourcePosition.of(PipelineSpec.builder("legacy", "/data/legacy")
          .source(SourceSpec.kafka("legacy", Map.of("bootstrap.servers", "b:9092"))).kafkaPollTimeout(GENEROUS)
          .build(), SourceSpec.kafka("legacy", Map.of("bootstrap.servers", "b:9092")), "legacy,0:5");

      QueueHead head = legacy.measure(List.of(position)).get(position).head();

      assertEquals(FreshnessState.NO_TIMESTAMP, head.state());
      assertFalse(head.oldestVisibleAt().isPresent());
      assertEquals(5, head.pending());
    }
  }

  @Test
  void positionsProbedWhileTheClusterIsBusyAreMeasuredTogetherInOneMoreBatch() throws Exception {
    int pipelines = 8;
    CountDownLatch firstListingAnswers = new CountDownLatch(1);
    AtomicInteger listings = new AtomicInteger();
    MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST) {
      @Override
      public synchronized Map<String, List<PartitionInfo>> listTopics(Duration timeout) {
        if (listings.incrementAndGet() == 1) {
          awaitQuietly(firstListingAnswers);
        }
        return super.listTopics(timeout);
      }
    };
    Map<TopicPartition, Long> offsets = new HashMap<>();
    for (int i = 0; i < pipelines; i++) {
      consumer.updatePartitions("t" + i, List.of(new PartitionInfo("t" + i, 0, Node.noNode(), new Node[0],
          new Node[0])));
      offsets.put(new TopicPartition("t" + i, 0), 3L);
    }
    consumer.updateBeginningOffsets(offsets);
    consumer.updateEndOffsets(offsets);
    List<Thread> threads = new CopyOnWriteArrayList<>();
    ExecutorService workers = Executors.newFixedThreadPool(pipelines, task -> {
      Thread thread = new Thread(task);
      threads.add(thread);
      return thread;
    });
    try (KafkaClusters clusters = new KafkaClusters(properties -> consumer)) {
      // No round measured these positions (a first round): each worker probes its own.
      List<Future<QueueHead>> heads = new ArrayList<>();
      heads.add(workers.submit(() -> probeAlone(clusters, "t0")));
      long deadline = System.nanoTime() + GENEROUS.toNanos();
      while (listings.get() == 0) {
        assertTrue(System.nanoTime() < deadline, "the first probe never listed the cluster's topics");
        Thread.sleep(10);
      }
      for (int i = 1; i < pipelines; i++) {
        String topic = "t" + i;
        heads.add(workers.submit(() -> probeAlone(clusters, topic)));
      }
      // The 7 others queue their positions and wait for the cluster's turn while the first is measured.
      while (threads.stream().filter(thread -> thread.getState() == Thread.State.BLOCKED).count() < pipelines - 1) {
        assertTrue(System.nanoTime() < deadline, "the other probes never queued behind the first");
        Thread.sleep(10);
      }
      firstListingAnswers.countDown();

      for (Future<QueueHead> head : heads) {
        assertEquals(FreshnessState.CAUGHT_UP, head.get().state());
      }
      // One measurement for the first, one for the 7 queued meanwhile: main measured each alone, 8 in turn.
      assertEquals(2, listings.get());
    } finally {
      workers.shutdownNow();
    }
  }

  private static QueueHead probeAlone(KafkaClusters clusters, String topic) throws Exception {
    SourceSpec source = SourceSpec.kafka(topic, Map.of("bootstrap.servers", "b:9092"));
    return clusters.probe(PipelineSpec.builder(topic, "/data/" + topic).source(source).kafkaPollTimeout(GENEROUS)
        .build(), source).headAfter(topic + ",0:3");
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void theClusterIsTheConsumerSettingsWithoutTheObserversOwn() {
    KafkaCluster streamer = KafkaCluster.of(SourceSpec.kafka("a", Map.of("bootstrap.servers", "b:9092",
        "sasl.jaas.config", "jaas", "enable.auto.commit", "true", "value.deserializer", "x.Avro",
        "schema.registry.url", "http://registry")));
    KafkaCluster other = KafkaCluster.of(SourceSpec.kafka("b", Map.of("bootstrap.servers", "b:9092",
        "sasl.jaas.config", "jaas")));

    assertEquals(streamer, other);
    Map<String, Object> properties = streamer.consumerProperties();
    assertEquals("jaas", properties.get("sasl.jaas.config"));
    assertEquals("false", properties.get("enable.auto.commit"));
    assertEquals("false", properties.get("allow.auto.create.topics"));
    assertEquals(KafkaCluster.DEFAULT_GROUP_ID, properties.get("group.id"));
    assertEquals(String.valueOf(KafkaCluster.MAX_PARTITION_FETCH_BYTES), properties.get("max.partition.fetch.bytes"));
    assertEquals(String.valueOf(KafkaCluster.FETCH_MAX_BYTES), properties.get("fetch.max.bytes"));
    assertEquals(String.valueOf(KafkaCluster.MAX_POLL_RECORDS), properties.get("max.poll.records"));
    assertFalse(properties.containsKey("value.deserializer"));
    assertFalse(streamer.toString().contains("jaas\""), streamer.toString());
    assertFalse(streamer.toString().contains("=jaas"), streamer.toString());
  }

  /** The calls a round made to list the topics and read the offsets of the class's broker. */
  private Map<String, Integer> offsetCallsOfRound(List<KafkaSourcePosition> positions) {
    Map<String, Integer> before = calls(kafka.bootstrapServers());
    clusters.measureRound(positions);
    Map<String, Integer> made = new HashMap<>();
    calls(kafka.bootstrapServers()).forEach((method, count) -> {
      if (List.of("listTopics", "beginningOffsets", "endOffsets").contains(method)) {
        made.put(method, count - before.getOrDefault(method, 0));
      }
    });
    return made;
  }

  /** The calls made so far on the consumers of a cluster, by method. */
  private Map<String, Integer> calls(String bootstrapServers) {
    Map<String, Integer> calls = new HashMap<>();
    consumerCalls.getOrDefault(bootstrapServers, Map.of()).forEach((method, count) -> calls.put(method, count.get()));
    return calls;
  }

  /** The consumer, its calls counted (and a listing of topics held where the test asks for it). */
  @SuppressWarnings("unchecked")
  private Consumer<byte[], byte[]> counted(String bootstrapServers, Consumer<byte[], byte[]> consumer) {
    Map<String, AtomicInteger> calls = consumerCalls.computeIfAbsent(bootstrapServers,
        key -> new ConcurrentHashMap<>());
    InvocationHandler handler = (proxy, method, args) -> {
      calls.computeIfAbsent(method.getName(), key -> new AtomicInteger()).incrementAndGet();
      CountDownLatch held = listingsHeld.get(bootstrapServers);
      if (held != null && method.getName().equals("listTopics")) {
        held.await();
      }
      try {
        return method.invoke(consumer, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
    return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(Consumer.class.getClassLoader(),
        new Class<?>[] {Consumer.class}, handler);
  }

  private QueueHead headAfter(String topic, String checkpoint) {
    KafkaSourcePosition position = position(topic, checkpoint, GENEROUS);
    return clusters.measure(List.of(position)).get(position).head();
  }

  private static KafkaSourcePosition position(String topic, String checkpoint, Duration pollTimeout) {
    return KafkaSourcePosition.of(pipeline(topic, pollTimeout), source(topic), checkpoint);
  }

  /** A pipeline reading the topic of the class's broker. */
  private static PipelineSpec pipeline(String topic, Duration pollTimeout) {
    return PipelineSpec.builder(topic, "/data/" + topic).source(source(topic)).kafkaPollTimeout(pollTimeout)
        .kafkaMetadataTimeout(GENEROUS).build();
  }

  private static SourceSpec source(String topic) {
    return SourceSpec.kafka(topic, Map.of("bootstrap.servers", kafka.bootstrapServers()));
  }

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
