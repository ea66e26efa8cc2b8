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

package org.apache.hudi.utilities.benchmarks;

import org.apache.hudi.utilities.benchmarks.FleetPipeline.Fault;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.SourceSpec;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The fleet of the fleet benchmark, made for real: its topics and records on the broker (explicit CreateTimes), its
 * targets' timelines on S3, and the faults. Most pipelines read a 2-partition topic of their own; a few read a 100- or
 * 1,000-partition topic with a backlog; 1% each (at least one) carry one {@link Fault}. Each target has 30 commits, the
 * newest 0 to 3 of them without a checkpoint (the checkpoint's search depth mixed).
 */
final class FleetLayout {

  static final String BUCKET = "fleet";
  static final String HUNG_BUCKET = "hung";
  static final int COMMITS = 30;
  private static final int SMALL_PARTITIONS = 2;
  private static final int SMALL_RECORDS = 6;
  private static final long MINUTE = 60_000L;
  private static final byte[] VALUE = new byte[512];

  private final String bootstrapServers;
  private final String unreachableServers;
  private final long now;
  private final Map<String, Integer> topicPartitions = new HashMap<>();
  private final Map<String, Integer> topicRecords = new HashMap<>();
  /** Each pipeline's decisive checkpoint, as its target stores it. */
  private final Map<String, String> checkpoints = new HashMap<>();

  /**
   * @param unreachableServers a bootstrap address where no broker answers
   * @param now                the time the records' ages are counted from (epoch ms)
   */
  FleetLayout(String bootstrapServers, String unreachableServers, long now) {
    this.bootstrapServers = bootstrapServers;
    this.unreachableServers = unreachableServers;
    this.now = now;
  }

  /** The kinds of {@code count} pipelines: the big topics first, faults and healthy ones shuffled after them. */
  static List<Integer> partitionsOf(int count) {
    List<Integer> partitions = new ArrayList<>();
    for (int i = 0; i < Math.max(1, count / 500); i++) {
      partitions.add(1000);
    }
    for (int i = 0; i < Math.max(1, count / 200); i++) {
      partitions.add(100);
    }
    return partitions;
  }

  /**
   * Makes the fleet: topics, records, deleted records and topics, and targets.
   *
   * @return the pipelines, in the order a round gets them
   */
  List<FleetPipeline> build(int count, TargetTimelineWriter targets) throws Exception {
    List<Integer> big = partitionsOf(count);
    int faultsEach = Math.max(1, count / 100);
    List<Fault> faults = new ArrayList<>();
    for (Fault fault : Fault.values()) {
      if (fault != Fault.NONE) {
        faults.addAll(Collections.nCopies(faultsEach, fault));
      }
    }
    List<Fault> rest = new ArrayList<>(faults);
    rest.addAll(Collections.nCopies(count - big.size() - faults.size(), Fault.NONE));
    Collections.shuffle(rest, new Random(55));
    List<FleetPipeline> fleet = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      boolean backlog = i < big.size();
      fleet.add(pipeline(i, backlog ? Fault.NONE : rest.get(i - big.size()), backlog ? big.get(i) : SMALL_PARTITIONS));
    }
    createTopicsAndRecords(fleet);
    writeTargets(fleet, targets);
    return fleet;
  }

  private FleetPipeline pipeline(int index, Fault fault, int partitions) {
    String table = String.format("t%05d", index);
    String topic = table + (fault == Fault.NONE ? "" : "-" + fault.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    String name = "fleet-" + topic;
    int records = partitions == SMALL_PARTITIONS ? SMALL_RECORDS : (partitions >= 1000 ? 60 : 300);
    if (fault != Fault.UNREACHABLE_BROKER && fault != Fault.HUNG_TARGET) {
      topicPartitions.put(topic, partitions);
      topicRecords.put(topic, records);
    }
    long[] next = checkpointOffsets(index, fault, partitions, records);
    String checkpoint = fault == Fault.MALFORMED_CHECKPOINT ? topic + ",0:1,1"
        : topic + "," + IntStream.range(0, partitions).mapToObj(p -> p + ":" + next[p]).collect(Collectors.joining(","));
    OptionalLong oldest = OptionalLong.empty();
    long lost = 0;
    if (fault == Fault.NONE || fault == Fault.EXPIRED_RETENTION) {
      long logStart = fault == Fault.EXPIRED_RETENTION ? 3 : 0;
      long earliest = Long.MAX_VALUE;
      for (int p = 0; p < partitions; p++) {
        long first = Math.max(logStart, next[p]);
        lost += Math.max(0, logStart - next[p]);
        if (first < records) {
          earliest = Math.min(earliest, timestamp(index, partitions, p, first));
        }
      }
      oldest = earliest == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(earliest);
    }
    String bucket = fault == Fault.HUNG_TARGET ? HUNG_BUCKET : BUCKET;
    String servers = fault == Fault.UNREACHABLE_BROKER ? unreachableServers : bootstrapServers;
    PipelineSpec spec = PipelineSpec.builder(name, "s3a://" + bucket + "/" + table)
        .source(SourceSpec.kafka(topic, Map.of("bootstrap.servers", servers))).build();
    checkpoints.put(name, checkpoint);
    return new FleetPipeline(spec, fault, table, partitions, oldest, lost);
  }

  /** The next offset to read of each partition, as the target's decisive checkpoint stores it. */
  private static long[] checkpointOffsets(int index, Fault fault, int partitions, int records) {
    long[] next = new long[partitions];
    for (int p = 0; p < partitions; p++) {
      if (fault == Fault.PAST_LOG_END) {
        next[p] = 50;
      } else if (fault == Fault.EXPIRED_RETENTION) {
        next[p] = p == 0 ? 1 : 0;
      } else if (partitions > SMALL_PARTITIONS) {
        // A backlog in every partition; the oldest waiting record in the last partition only.
        next[p] = p == partitions - 1 ? records / 2 - 10 : records / 2;
      } else if (index % 5 == 0) {
        next[p] = records;
      } else {
        next[p] = p == 0 ? index % records : (index % 7 == 6 ? records : (index + 3) % records);
      }
    }
    return next;
  }

  /** The CreateTime of a record: older with a smaller offset, between about 3 h and 1 h ago. */
  private long timestamp(int index, int partitions, int partition, long offset) {
    if (partitions > SMALL_PARTITIONS) {
      return now - 3 * 60 * MINUTE + offset * 5_000 + (partition % 97) * 100;
    }
    return now - 2 * 60 * MINUTE + offset * 10 * MINUTE + partition * 37_000 + (index % 60) * 1_000;
  }

  private void createTopicsAndRecords(List<FleetPipeline> fleet) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers, "request.timeout.ms", 120_000,
        "default.api.timeout.ms", 300_000))) {
      List<NewTopic> topics = new ArrayList<>();
      topicPartitions.forEach((topic, partitions) -> topics.add(new NewTopic(topic, partitions, (short) 1)));
      for (int from = 0; from < topics.size(); from += 100) {
        admin.createTopics(topics.subList(from, Math.min(topics.size(), from + 100))).all().get(5, TimeUnit.MINUTES);
      }
      produce(fleet);
      checkEveryRecordWrittenOnce(admin);
      Map<TopicPartition, RecordsToDelete> expired = new HashMap<>();
      List<String> deleted = new ArrayList<>();
      for (FleetPipeline pipeline : fleet) {
        String topic = pipeline.spec().sources().get(0).name();
        if (pipeline.fault() == Fault.EXPIRED_RETENTION) {
          for (int p = 0; p < pipeline.partitions(); p++) {
            expired.put(new TopicPartition(topic, p), RecordsToDelete.beforeOffset(3));
          }
        } else if (pipeline.fault() == Fault.DELETED_TOPIC) {
          deleted.add(topic);
        }
      }
      admin.deleteRecords(expired).all().get(2, TimeUnit.MINUTES);
      admin.deleteTopics(deleted).all().get(2, TimeUnit.MINUTES);
    }
  }

  private void produce(List<FleetPipeline> fleet) throws Exception {
    // Idempotent: a batch retried on a loaded machine must be written neither twice nor after a later batch, since the
    // true age of each pipeline's oldest waiting record is computed from the offset the layout gives each record.
    // With acks=1 and no idempotence, a run under -Xmx384m reported a record 82 s older than the layout's oldest
    // waiting one, in every round: a record the layout puts at offset 3 or 4 read at offset 30 or later.
    Map<String, Object> settings = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
        ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings, new ByteArraySerializer(),
        new ByteArraySerializer())) {
      List<Future<?>> sent = new ArrayList<>();
      for (int index = 0; index < fleet.size(); index++) {
        FleetPipeline pipeline = fleet.get(index);
        String topic = pipeline.spec().sources().get(0).name();
        if (!topicPartitions.containsKey(topic)) {
          continue;
        }
        int records = topicRecords.get(topic);
        for (int p = 0; p < pipeline.partitions(); p++) {
          for (int offset = 0; offset < records; offset++) {
            sent.add(producer.send(new ProducerRecord<>(topic, p, timestamp(index, pipeline.partitions(), p, offset),
                null, VALUE)));
          }
        }
      }
      producer.flush();
      for (Future<?> future : sent) {
        future.get();
      }
    }
  }

  /** Fails unless every partition ends at the offset the layout gives it: no record lost, none written twice. */
  private void checkEveryRecordWrittenOnce(Admin admin) throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    topicPartitions.forEach((topic, partitions) -> IntStream.range(0, partitions)
        .forEach(p -> latest.put(new TopicPartition(topic, p), OffsetSpec.latest())));
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all()
        .get(5, TimeUnit.MINUTES);
    List<String> wrong = new ArrayList<>();
    ends.forEach((partition, end) -> {
      if (end.offset() != topicRecords.get(partition.topic())) {
        wrong.add(partition + " ends at " + end.offset());
      }
    });
    if (!wrong.isEmpty()) {
      throw new IllegalStateException("The fleet's topics do not hold the records laid out (" + wrong.size()
          + " partitions, expected " + topicRecords + " records a topic): " + wrong.subList(0, Math.min(10,
          wrong.size())));
    }
  }

  private void writeTargets(List<FleetPipeline> fleet, TargetTimelineWriter targets) throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> written = new ArrayList<>();
      for (int index = 0; index < fleet.size(); index++) {
        FleetPipeline pipeline = fleet.get(index);
        if (pipeline.fault() == Fault.HUNG_TARGET) {
          continue;
        }
        List<String> commits = commits(index, pipeline);
        written.add(writers.submit(() -> {
          targets.writeTarget(BUCKET, pipeline.table(), commits, now - MINUTE);
          return null;
        }));
      }
      for (Future<?> future : written) {
        future.get();
      }
    } finally {
      writers.shutdownNow();
    }
  }

  /** Each commit's checkpoint, oldest first: the newest {@code index % 4} store none; older ones older positions. */
  private List<String> commits(int index, FleetPipeline pipeline) {
    String topic = pipeline.spec().sources().get(0).name();
    String older = topic + "," + IntStream.range(0, pipeline.partitions()).mapToObj(p -> p + ":0")
        .collect(Collectors.joining(","));
    int withoutCheckpoint = index % 4;
    List<String> commits = new ArrayList<>();
    for (int i = 0; i < COMMITS; i++) {
      int fromNewest = COMMITS - 1 - i;
      commits.add(fromNewest < withoutCheckpoint ? null
          : fromNewest == withoutCheckpoint ? checkpoints.get(pipeline.name()) : older);
    }
    return commits;
  }
}
