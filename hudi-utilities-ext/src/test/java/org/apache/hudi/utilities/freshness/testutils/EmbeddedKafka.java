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

package org.apache.hudi.utilities.freshness.testutils;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import scala.Option;

/**
 * A single-node KRaft Kafka broker in the test JVM, on free 127.0.0.1 ports.
 */
public final class EmbeddedKafka implements AutoCloseable {

  private final KafkaRaftServer server;
  private final String bootstrapServers;

  private EmbeddedKafka(KafkaRaftServer server, String bootstrapServers) {
    this.server = server;
    this.bootstrapServers = bootstrapServers;
  }

  public static EmbeddedKafka start(Path dir) throws IOException {
    int brokerPort = freePort();
    int controllerPort = freePort();
    Path logDir = Files.createDirectories(dir.resolve("kafka-logs"));
    // Formatting the storage is what 'kafka-storage.sh format' does: one meta.properties per log dir.
    Files.write(logDir.resolve("meta.properties"), ("version=1\ncluster.id=" + Uuid.randomUuid()
        + "\nnode.id=1\n").getBytes(StandardCharsets.UTF_8));
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", "1");
    props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    props.put("controller.listener.names", "CONTROLLER");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("log.dirs", logDir.toString());
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    // Kafka's default, stated: a read-only observer must not create the topics it asks about.
    props.put("auto.create.topics.enable", "true");
    KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(props, false), Time.SYSTEM, Option.empty());
    server.startup();
    return new EmbeddedKafka(server, "127.0.0.1:" + brokerPort);
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  public void createTopic(String topic, int partitions) throws ExecutionException, InterruptedException {
    try (Admin admin = admin()) {
      admin.createTopics(Collections.singletonList(new NewTopic(topic, partitions, (short) 1))).all().get();
    }
  }

  public Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }

  /**
   * Sends one record with the given CreateTime.
   *
   * @return its offset
   */
  public long send(String topic, int partition, long createTime, String value)
      throws ExecutionException, InterruptedException {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), new StringSerializer(), new StringSerializer())) {
      RecordMetadata metadata = producer.send(new ProducerRecord<>(topic, partition, createTime, null, value)).get();
      return metadata.offset();
    }
  }

  /** Connections the broker accepted on its client listener since it started: its own count, read over JMX. */
  public long connectionsAccepted() {
    return sumOfMBeans("kafka.server:type=socket-server-metrics,listener=PLAINTEXT,networkProcessor=*",
        "connection-creation-total");
  }

  private static long sumOfMBeans(String pattern, String attribute) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      long sum = 0;
      for (ObjectName name : server.queryNames(new ObjectName(pattern), null)) {
        sum += ((Number) server.getAttribute(name, attribute)).longValue();
      }
      return sum;
    } catch (JMException e) {
      throw new IllegalStateException("Cannot read the broker's metric " + pattern + " " + attribute, e);
    }
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
