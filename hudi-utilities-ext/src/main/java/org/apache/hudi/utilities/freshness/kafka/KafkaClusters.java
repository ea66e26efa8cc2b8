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

import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.QueueProbe;
import org.apache.hudi.utilities.freshness.SourceSpec;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The Kafka clients of an observer, one per cluster ({@link KafkaCluster}), opened at their cluster's first
 * measurement and kept until {@link #close()}.
 *
 * <p>A round measures its Kafka positions ahead of its pipelines with {@link #measureRound}: one batch per cluster.
 * The {@link #probe} of a source then answers from its cluster's batch of that round, once measured; a position the
 * round did not measure (the commit callback's, a first round's) is measured with the others probed meanwhile.
 */
public final class KafkaClusters implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaClusters.class);

  private final Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory;
  private final ConcurrentMap<KafkaCluster, KafkaClusterClient> clients = new ConcurrentHashMap<>();
  /** The current round's readings, per cluster, each complete once its cluster's batch is measured. */
  private volatile Map<KafkaCluster, CompletableFuture<Map<KafkaSourcePosition, KafkaReading>>> round =
      Collections.emptyMap();
  private final ConcurrentMap<KafkaCluster, Stragglers> stragglers = new ConcurrentHashMap<>();
  /** Whether each cluster answered when last measured, by name; guarded by this. */
  private final Map<String, Boolean> reachable = new TreeMap<>();
  /** The clusters measured since the current round started; guarded by this. */
  private final Set<String> measuredThisRound = new HashSet<>();

  /** @param consumerFactory opens a consumer from a cluster's {@link KafkaCluster#consumerProperties()} */
  public KafkaClusters(Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory) {
    this.consumerFactory = Objects.requireNonNull(consumerFactory, "consumerFactory");
  }

  /** Clients that are Kafka consumers reading raw bytes. */
  public static KafkaClusters withKafkaConsumers() {
    return new KafkaClusters(properties -> new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
        new ByteArrayDeserializer()));
  }

  /**
   * Measures positions, one batch per cluster, the clusters one after the other, and records whether each cluster
   * answered ({@link #reachableThisRound()}). Thread-safe: workers may measure different clusters at once; one
   * cluster's batches are serialized.
   *
   * @return a reading per distinct position
   */
  public Map<KafkaSourcePosition, KafkaReading> measure(Collection<KafkaSourcePosition> positions) {
    Map<KafkaSourcePosition, KafkaReading> readings = new LinkedHashMap<>();
    byCluster(positions).forEach((cluster, ofCluster) -> readings.putAll(measureCluster(cluster, ofCluster)));
    return readings;
  }

  /**
   * Whether each Kafka cluster answered, by name ({@link PipelineSpec#kafkaCluster()}): false when a client of that
   * name got no topics or offsets from it. A cluster measured in the current round ({@link #measureRound}: its batch,
   * then the positions measured alone) by this round's readings, as they come; one not measured yet in this round by
   * the last round's, so that a scrape during a round still sees every cluster. A cluster neither round measured is
   * not listed: nothing was asked of it.
   */
  public synchronized Map<String, Boolean> reachableThisRound() {
    return Collections.unmodifiableMap(new TreeMap<>(reachable));
  }

  private synchronized void startRoundOfReachability() {
    reachable.keySet().retainAll(measuredThisRound);
    measuredThisRound.clear();
  }

  private synchronized void addReachability(Map<KafkaSourcePosition, KafkaReading> readings) {
    readings.forEach((position, reading) -> {
      String name = position.clusterName();
      boolean answered = reading.clusterAnswered();
      reachable.put(name, measuredThisRound.add(name) ? answered : reachable.get(name) && answered);
    });
  }

  /**
   * Measures a round's Kafka positions ({@link KafkaSourcePosition#ofRound}) and keeps the readings for the round's
   * probes, in place of the previous round's. Call it once at the start of every round.
   */
  public void measureRound(Collection<KafkaSourcePosition> positions) {
    measureRound(positions, Runnable::run);
  }

  /**
   * {@link #measureRound(Collection)} with the clusters measured on the executor's threads, returning at once: a probe
   * waits for its own cluster's batch only, so that an unreachable cluster's timeout delays none of the others, nor
   * the round's reads of its Hudi tables.
   */
  public void measureRound(Collection<KafkaSourcePosition> positions, Executor executor) {
    // A round that fails half-way must not leave the previous round's readings to its probes.
    round = Collections.emptyMap();
    startRoundOfReachability();
    Map<KafkaCluster, CompletableFuture<Map<KafkaSourcePosition, KafkaReading>>> clusters = new LinkedHashMap<>();
    byCluster(positions).forEach((cluster, ofCluster) ->
        clusters.put(cluster, CompletableFuture.supplyAsync(() -> measureCluster(cluster, ofCluster), executor)));
    round = Collections.unmodifiableMap(clusters);
  }

  private static Map<KafkaCluster, List<KafkaSourcePosition>> byCluster(Collection<KafkaSourcePosition> positions) {
    return positions.stream().distinct()
        .collect(Collectors.groupingBy(KafkaSourcePosition::cluster, LinkedHashMap::new, Collectors.toList()));
  }

  /**
   * One cluster's readings, with whether the cluster answered recorded; a fault of the cluster stays with its own
   * positions.
   */
  private Map<KafkaSourcePosition, KafkaReading> measureCluster(KafkaCluster cluster,
                                                                List<KafkaSourcePosition> positions) {
    Map<KafkaSourcePosition, KafkaReading> readings;
    try {
      readings = client(cluster).measure(positions);
    } catch (RuntimeException e) {
      String reason = "Cannot measure the Kafka sources of cluster " + cluster.bootstrapServers() + ": " + e;
      LOG.warn("{}", reason, e);
      readings = new LinkedHashMap<>();
      for (KafkaSourcePosition position : positions) {
        readings.put(position, KafkaReading.clusterUnreachable(reason));
      }
    }
    addReachability(readings);
    return readings;
  }

  /** The probe of a Kafka source of a pipeline: the current round's reading of its position, else one of its own. */
  public QueueProbe probe(PipelineSpec pipeline, SourceSpec source) {
    return checkpoint -> {
      KafkaSourcePosition position = KafkaSourcePosition.of(pipeline, source, checkpoint);
      CompletableFuture<Map<KafkaSourcePosition, KafkaReading>> ofCluster = round.get(position.cluster());
      // Bounded by the client's timeouts; measureCluster never completes exceptionally.
      KafkaReading reading = ofCluster == null ? null : ofCluster.join().get(position);
      return (reading != null ? reading : measureAlongside(position)).head();
    };
  }

  /** A position the round did not measure: measured with the others of its cluster probed meanwhile. */
  private KafkaReading measureAlongside(KafkaSourcePosition position) {
    return stragglers.computeIfAbsent(position.cluster(), Stragglers::new).measure(position);
  }

  /**
   * The positions of one cluster that workers probe outside the round's batch (all of them in a first round, when no
   * checkpoint is known yet; a checkpoint that moved since), measured together: a worker queues its position, and
   * whichever worker gets the cluster's turn measures every position queued by then as one batch. Positions probed
   * while a measurement runs cost one more batch, not one each: a first round over a cluster's thousand pipelines
   * takes a few batches, and an unreachable cluster's pipelines wait a few timeouts, not one each in turn.
   */
  private final class Stragglers {
    private final KafkaCluster cluster;
    private final Map<KafkaSourcePosition, CompletableFuture<KafkaReading>> queued = new LinkedHashMap<>();
    private final Object turn = new Object();

    Stragglers(KafkaCluster cluster) {
      this.cluster = cluster;
    }

    KafkaReading measure(KafkaSourcePosition position) {
      CompletableFuture<KafkaReading> reading;
      synchronized (queued) {
        reading = queued.computeIfAbsent(position, key -> new CompletableFuture<>());
      }
      synchronized (turn) {
        if (!reading.isDone()) {
          Map<KafkaSourcePosition, CompletableFuture<KafkaReading>> batch;
          synchronized (queued) {
            batch = new LinkedHashMap<>(queued);
            queued.clear();
          }
          try {
            Map<KafkaSourcePosition, KafkaReading> readings = measureCluster(cluster, new ArrayList<>(batch.keySet()));
            batch.forEach((measured, future) -> future.complete(readings.getOrDefault(measured, KafkaReading.failed(
                "Cannot measure " + measured + ": its cluster's client gave no reading for it"))));
          } finally {
            // An error (out of memory, say) must not leave the other workers of the batch waiting for ever.
            batch.values().forEach(future -> future.completeExceptionally(new IllegalStateException("Cannot measure "
                + "the Kafka positions of " + cluster + ": the batch they were in ended without readings")));
          }
        }
      }
      return reading.join();
    }
  }

  private KafkaClusterClient client(KafkaCluster cluster) {
    return clients.computeIfAbsent(cluster, key -> new KafkaClusterClient(key,
        () -> consumerFactory.apply(key.consumerProperties())));
  }

  /** Closes every cluster's client; a failure to close one is logged and the others are closed. */
  @Override
  public void close() {
    clients.values().forEach(client -> {
      try {
        client.close();
      } catch (RuntimeException e) {
        LOG.warn("Cannot close {} cleanly", client, e);
      }
    });
    clients.clear();
  }
}
