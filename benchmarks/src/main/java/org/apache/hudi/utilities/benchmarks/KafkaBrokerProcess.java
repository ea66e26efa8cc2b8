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

import org.apache.hudi.utilities.testutils.LocalProcesses;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A single-node KRaft Kafka broker (roles broker and controller) in its own JVM, started from this JVM's classpath
 * ({@code kafka.Kafka}), on free 127.0.0.1 ports, with {@code auto.create.topics.enable=true} (Kafka's default): a
 * client that asks for a missing topic creates it unless it says not to. Its own counts (connections accepted and
 * requests served on the client listener, requests by API) are read over JMX.
 */
final class KafkaBrokerProcess implements AutoCloseable {

  private static final long START_TIMEOUT_SECONDS = 90;
  private static final String CLIENT_LISTENER = "kafka.server:type=socket-server-metrics,listener=PLAINTEXT,"
      + "networkProcessor=*";

  private final Process process;
  private final String bootstrapServers;
  private final JMXConnector jmx;
  private final Path log;
  private final Thread stopOnExit;

  private KafkaBrokerProcess(Process process, String bootstrapServers, JMXConnector jmx, Path log) {
    this.process = process;
    this.bootstrapServers = bootstrapServers;
    this.jmx = jmx;
    this.log = log;
    // A benchmark stopped by a signal does not leave its broker running.
    this.stopOnExit = new Thread(() -> LocalProcesses.stopTree(process.toHandle()), "stop-kafka-broker");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /**
   * Starts the broker with its storage and log under {@code dir}, and waits until it serves its cluster's metadata.
   *
   * @param heap the broker JVM's -Xmx, such as {@code 768m}
   */
  static KafkaBrokerProcess start(Path dir, String heap) throws Exception {
    int brokerPort = LocalProcesses.freePort();
    int controllerPort = LocalProcesses.freePort();
    int jmxPort = LocalProcesses.freePort();
    Path logDir = Files.createDirectories(dir.resolve("kafka-logs"));
    // Formatting the storage is what 'kafka-storage.sh format' does: one meta.properties per log dir.
    Files.writeString(logDir.resolve("meta.properties"), "version=1\ncluster.id=" + Uuid.randomUuid()
        + "\nnode.id=1\n");
    Path properties = dir.resolve("server.properties");
    Files.write(properties, List.of(
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
        "listeners=PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs=" + logDir,
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=1",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        // Kafka's default, stated: a read-only observer must not create the topics it asks about.
        "auto.create.topics.enable=true",
        // Thousands of small partitions: small preallocated indexes, and retention far beyond the records' ages.
        "log.index.size.max.bytes=65536",
        "log.segment.bytes=16777216",
        "log.retention.hours=720"), StandardCharsets.UTF_8);
    Path log = dir.resolve("kafka-broker.log");
    List<String> command = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + heap, "-XX:+UseG1GC",
        "-Dcom.sun.management.jmxremote.port=" + jmxPort, "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
        "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false",
        "-Dcom.sun.management.jmxremote.local.only=true", "-Djava.rmi.server.hostname=127.0.0.1",
        "-cp", System.getProperty("java.class.path"), "kafka.Kafka", properties.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    String bootstrap = "127.0.0.1:" + brokerPort;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    Exception last = null;
    while (System.nanoTime() < deadline && process.isAlive()) {
      try (Admin admin = admin(bootstrap)) {
        admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
        JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(
            "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi"));
        return new KafkaBrokerProcess(process, bootstrap, jmx, log);
      } catch (Exception e) {
        last = e;
        Thread.sleep(500);
      }
    }
    LocalProcesses.stopTree(process.toHandle());
    throw new IllegalStateException("Cannot start a Kafka broker on " + bootstrap + ": " + (process.isAlive()
        ? "no answer within " + START_TIMEOUT_SECONDS + " s" : "it exited") + " (see " + log + ")", last);
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  Path log() {
    return log;
  }

  Admin admin() {
    return admin(bootstrapServers);
  }

  private static Admin admin(String bootstrap) {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 120_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 300_000));
  }

  /** Connections the broker accepted on its client listener since it started. */
  long connectionsAccepted() {
    return sum(CLIENT_LISTENER, "connection-creation-total");
  }

  /** Connections open on the client listener now. */
  long connectionsOpen() {
    return sum(CLIENT_LISTENER, "connection-count");
  }

  /** Requests received on the client listener since the broker started, every API. */
  long clientRequests() {
    return sum(CLIENT_LISTENER, "request-total");
  }

  /** Requests of one API (such as {@code ListOffsets}, {@code Metadata}, {@code Fetch}) the broker served. */
  long requestsServed(String api) {
    return sum("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=" + api + ",*", "Count");
  }

  private long sum(String pattern, String attribute) {
    try {
      MBeanServerConnection server = jmx.getMBeanServerConnection();
      long sum = 0;
      for (ObjectName name : server.queryNames(new ObjectName(pattern), null)) {
        sum += ((Number) server.getAttribute(name, attribute)).longValue();
      }
      return sum;
    } catch (JMException | IOException e) {
      throw new IllegalStateException("Cannot read the broker's metric " + pattern + " " + attribute, e);
    }
  }

  @Override
  public void close() {
    try {
      jmx.close();
    } catch (IOException e) {
      // The broker stops anyway.
    }
    LocalProcesses.stopTree(process.toHandle());
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down: the hook runs (or ran) the same stop.
    }
  }
}
