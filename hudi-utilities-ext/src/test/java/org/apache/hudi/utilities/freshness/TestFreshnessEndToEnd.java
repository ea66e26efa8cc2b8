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

import org.apache.hudi.utilities.callback.FixedClockFreshnessCallback;
import org.apache.hudi.utilities.callback.FreshnessCommitCallback;
import org.apache.hudi.utilities.cli.FreshnessReporterCli;
import org.apache.hudi.utilities.freshness.kafka.KafkaCluster;
import org.apache.hudi.utilities.freshness.testutils.CapturedLogs;
import org.apache.hudi.utilities.freshness.testutils.EmbeddedKafka;
import org.apache.hudi.utilities.freshness.testutils.Pushgateway;
import org.apache.hudi.utilities.hudi014.SourceTimeline;
import org.apache.hudi.utilities.schema.FilebasedSchemaProvider;
import org.apache.hudi.utilities.sources.JsonKafkaSource;
import org.apache.hudi.utilities.streamer.HoodieStreamer;
import org.apache.hudi.utilities.testutils.HudiMetricsRelease;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.StreamerJob;
import org.apache.hudi.utilities.transform.SqlQueryBasedTransformer;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Freshness as operators see it: the callback fired by real Streamer commits (multi-table Hudi and Kafka sources),
 * the standalone reporter run against the same tables while the pipeline is stuck, the values scraped from a real
 * Prometheus pushgateway, and the history under each target.
 */
class TestFreshnessEndToEnd {

  private static final String JOIN_SQL = "SELECT o.order_id, o.user_id, o.amount, u.user_name, o.ts "
      + "FROM <SRC:orders> o LEFT JOIN <SRC:users> u ON o.user_id = u.user_id";
  private static final StructType JOINED = new StructType().add("order_id", DataTypes.StringType)
      .add("user_id", DataTypes.StringType).add("amount", DataTypes.DoubleType)
      .add("user_name", DataTypes.StringType).add("ts", DataTypes.LongType);
  private static final String CLICK_SCHEMA = "{\"type\": \"record\", \"name\": \"click\", \"fields\": ["
      + "{\"name\": \"id\", \"type\": \"string\"}, {\"name\": \"ts\", \"type\": \"long\"}]}";
  /** Credentials given to the Kafka clients; none may show in logs, metrics, history or the reporter's output. */
  private static final List<String> SECRETS = List.of("jaas-pw-8f3a1", "truststore-pw-77c2", "keystore-pw-19be");

  @TempDir
  static Path shared;

  private static Pushgateway pushgateway;
  private static EmbeddedKafka kafka;

  @TempDir
  Path dir;

  @BeforeAll
  static void startServers() throws Exception {
    pushgateway = Pushgateway.start(shared.resolve("pushgateway.log"));
    kafka = EmbeddedKafka.start(shared);
  }

  @AfterAll
  static void stopServers() throws Exception {
    // Hudi's metrics outlive the class: their reporters would push to the stopped pushgateway in later classes.
    HudiMetricsRelease.releaseAll();
    if (kafka != null) {
      kafka.close();
    }
    if (pushgateway != null) {
      pushgateway.close();
    }
  }

  @Test
  void theCallbackRecordsEachCommitAndTheReporterStillReportsWhenThePipelineIsStuck() throws Exception {
    String orders = path("orders");
    String users = path("users");
    String target = path("joined");
    HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 10.0, 1L));
    HudiTables.upsert(users, "users", "COPY_ON_WRITE", "user_id", USERS, user("u1", "alice", 1L));
    StreamerJob job = StreamerJob.ordersAndUsers(dir, orders, users, target).sql(JOIN_SQL)
        .property("hoodie.streamer.freshness.pipeline.name", "orders_users");
    callbackAndMetrics().forEach(job::property);

    Instant before = Instant.now();
    job.syncInProcess();
    Instant after = Instant.now();

    List<JsonNode> history = history(target);
    assertEquals(1, history.size());
    JsonNode byCallback = history.get(0);
    assertEquals("CALLBACK", byCallback.get("observer").asText());
    assertEquals(HudiTables.lastCompletedInstant(target).get(), byCallback.get("commit").asText());
    assertEquals(HudiTables.lastCheckpoint(target), byCallback.get("checkpoint").asText());
    Instant measuredAt = Instant.parse(byCallback.get("measuredAt").asText());
    assertFalse(measuredAt.isBefore(before) || measuredAt.isAfter(after), measuredAt + " not in the sync");
    assertEquals(List.of("orders:CAUGHT_UP", "users:CAUGHT_UP"), states(byCallback));
    Map<String, Double> caughtUp = new TreeMap<>();
    for (String source : List.of("orders", "users")) {
      caughtUp.putAll(sourceValues("orders_users", source, 0.0, 0.0, "pending_instants", 0));
    }
    caughtUp.putAll(pipelineValues("orders_users", 0.0, 0.0, null));
    assertEquals(caughtUp, pushgateway.scrape("hudi_freshness_orders_users_"));

    // New orders commit; the pipeline does not run. Only the reporter can tell.
    String waiting = HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o2", "u1", 20.0, 2L));
    Instant visible = completionTime(orders, waiting);
    String otherWriter = path("other_writer");
    HudiTables.upsert(otherWriter, "other_writer", "COPY_ON_WRITE", "order_id", ORDERS, order("x", "u", 1.0, 1L));
    // Each pipeline with the properties of its Streamer job: a multi-table one and a single-table one.
    Path config = yaml("reporter.yaml",
        "  - name: joined",
        "    basePath: " + target,
        "    properties:",
        "      hoodie.streamer.freshness.pipeline.name: orders_users",
        "      hoodie.streamer.freshness.sla.minutes: 60",
        "      hoodie.streamer.source.multi.hudi.tables: orders,users",
        "      hoodie.streamer.source.hudi.orders.path: '" + orders + "'",
        "      hoodie.streamer.source.hudi.users.path: '" + users + "'",
        "  - name: other_writer",
        "    basePath: " + otherWriter,
        "    properties:",
        "      hoodie.streamer.source.hoodieincr.path: '" + orders + "'");
    Clock thirtyMinutesLater = Clock.fixed(visible.plus(Duration.ofMinutes(30)), ZoneOffset.UTC);

    assertEquals(0, FreshnessReporterCli.run(new String[] {"--config", config.toString()}, output(), System.err, thirtyMinutesLater,
        hadoopConf()));

    Map<String, Double> stuck = new TreeMap<>();
    stuck.putAll(sourceValues("orders_users", "orders", 1800.0, 0.5, "pending_instants", 1));
    stuck.putAll(sourceValues("orders_users", "users", 0.0, 0.0, "pending_instants", 0));
    stuck.putAll(pipelineValues("orders_users", 1800.0, 0.5, 1));
    assertEquals(stuck, pushgateway.scrape("hudi_freshness_orders_users_"));
    // A target without any checkpoint: the search depth, and no freshness value at all.
    assertEquals(pipelineValues("other_writer", null, null, 1), pushgateway.scrape("hudi_freshness_other_writer_"));
    JsonNode byReporter = history(target).get(1);
    assertEquals("REPORTER", byReporter.get("observer").asText());
    assertEquals(List.of("orders:WAITING", "users:CAUGHT_UP"), states(byReporter));
    assertEquals(visible.toString(), byReporter.get("sources").get(0).get("oldestVisibleAt").asText());

    // Another writer commits to the target: the checkpoint is one commit deeper, the lag unchanged.
    HudiTables.upsert(target, "joined", "COPY_ON_WRITE", "order_id", JOINED,
        RowFactory.create("o9", "u1", 9.0, "alice", 9L));
    assertEquals(0, FreshnessReporterCli.run(new String[] {"--config", config.toString()}, output(), System.err, thirtyMinutesLater,
        hadoopConf()));
    stuck.putAll(pipelineValues("orders_users", 1800.0, 0.5, 2));
    assertEquals(stuck, pushgateway.scrape("hudi_freshness_orders_users_"));

    // Searching one commit deep finds no checkpoint: no freshness value, the depth searched is reported.
    assertEquals(0, FreshnessReporterCli.run(new String[] {"--config", config.toString(), "--max-commit-depth", "1"},
        output(), System.err, thirtyMinutesLater, hadoopConf()));
    JsonNode tooShallow = history(target).get(3);
    assertEquals(1, tooShallow.get("searchDepth").asInt());
    assertFalse(tooShallow.has("commit"));
    assertEquals(List.of("orders:NO_CHECKPOINT", "users:NO_CHECKPOINT"), states(tooShallow));
    assertEquals(1.0, pushgateway.scrape("hudi_freshness_orders_users_")
        .get("hudi_freshness_orders_users_checkpoint_search_depth"));

    // A person reads the trend without a metrics stack.
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    assertEquals(0, FreshnessReporterCli.run(new String[] {"--config", config.toString(), "--history"},
        new PrintStream(printed, true, StandardCharsets.UTF_8), System.err, thirtyMinutesLater, hadoopConf()));
    List<String> ordersRows = printed.toString(StandardCharsets.UTF_8).lines()
        .filter(line -> line.contains(" orders_users ") && line.contains(" orders ")).collect(Collectors.toList());
    assertEquals(4, ordersRows.size(), printed.toString(StandardCharsets.UTF_8));
    assertTrue(ordersRows.get(0).contains("CALLBACK") && ordersRows.get(0).contains("CAUGHT_UP"), ordersRows.get(0));
    assertTrue(ordersRows.get(2).contains("REPORTER") && ordersRows.get(2).contains("1800.0"), ordersRows.get(2));
    assertTrue(ordersRows.get(3).contains("NO_CHECKPOINT"), ordersRows.get(3));
  }

  @Test
  void commitWithDataStillWaitingRecordsTheLagSinceTheWaitingDataBecameReadable() throws Exception {
    String orders = path("orders");
    String users = path("users");
    String target = path("joined");
    String consumed = HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o1", "u1", 10.0, 1L));
    HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o2", "u1", 20.0, 2L));
    String left = HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o3", "u1", 30.0, 3L));
    String usersConsumed = HudiTables.upsert(users, "users", "COPY_ON_WRITE", "user_id", USERS,
        user("u1", "alice", 1L));
    // The times of this test: o3 became readable two hours ago; the callback measures 25 minutes after that.
    Instant readable = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofHours(2));
    Files.setLastModifiedTime(Paths.get(URI.create(orders)).resolve(".hoodie").resolve(left + ".commit"),
        FileTime.from(readable));
    FixedClockFreshnessCallback.measureAt(readable.plus(Duration.ofMinutes(25)));
    // One orders instant a round: the commit reads o2 and leaves o3 waiting.
    StreamerJob job = StreamerJob.ordersAndUsers(dir, orders, users, target).sql(JOIN_SQL)
        .checkpoint("orders=" + consumed + ",users=" + usersConsumed)
        .property("hoodie.streamer.source.hudi.orders.num_instants", "1")
        .property("hoodie.streamer.freshness.pipeline.name", "waiting")
        .property("hoodie.streamer.freshness.sla.minutes", "100")
        .property("hoodie.streamer.freshness.prometheus.pushgateway.address", "127.0.0.1:" + pushgateway.port());
    callbackAndMetrics().forEach(job::property);
    job.property("hoodie.write.commit.callback.class", FixedClockFreshnessCallback.class.getName());

    job.syncInProcess();

    assertEquals(1, HudiTables.recordsWrittenByLastCommit(target), "the round read o2 only");
    JsonNode entry = history(target).get(0);
    assertEquals(List.of("orders:WAITING", "users:CAUGHT_UP"), states(entry));
    JsonNode ordersEntry = entry.get("sources").get(0);
    assertEquals(readable.toString(), ordersEntry.get("oldestVisibleAt").asText());
    assertEquals(1500.0, ordersEntry.get("lagSeconds").asDouble());
    assertEquals(0.25, ordersEntry.get("slaRatio").asDouble());
    assertEquals(1, ordersEntry.get("pending").asInt());
    assertEquals("OK", ordersEntry.get("status").asText());
    // The labelled series the callback pushed, next to Hudi's per-pipeline names.
    String labels = "{instance=\"\",job=\"hudi_freshness\",observer=\"callback\",pipeline=\"waiting\","
        + "source=\"orders\",source_kind=\"hudi\"}";
    List<String> pushed = pushgateway.scrapeText().lines().collect(Collectors.toList());
    assertTrue(pushed.contains("hudi_freshness_lag_seconds" + labels + " 1500"), String.join("\n", pushed));
    assertTrue(pushed.contains("hudi_freshness_pending_instants" + labels + " 1"), String.join("\n", pushed));
    assertEquals(1500.0, pushgateway.scrape("hudi_freshness_waiting_source_orders_").get(
        "hudi_freshness_waiting_source_orders_lag_seconds"));
  }

  @Test
  void kafkaPipelineIsMeasuredByCallbackAndReporterWithoutLeakingCredentials() throws Exception {
    kafka.createTopic("clicks", 2);
    long consumedAt = System.currentTimeMillis() - Duration.ofHours(2).toMillis();
    kafka.send("clicks", 0, consumedAt, click("c1", consumedAt));
    kafka.send("clicks", 1, consumedAt, click("c2", consumedAt));
    String target = path("clicks");
    Path schema = Files.writeString(dir.resolve("click.avsc"), CLICK_SCHEMA);
    Map<String, String> props = new LinkedHashMap<>(callbackAndMetrics());
    props.putAll(Map.of(
        "hoodie.streamer.source.kafka.topic", "clicks",
        "bootstrap.servers", kafka.bootstrapServers(),
        "auto.offset.reset", "earliest",
        "group.id", "streamer-clicks",
        "security.protocol", "PLAINTEXT",
        "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc\" "
            + "password=\"" + SECRETS.get(0) + "\";",
        "ssl.truststore.password", SECRETS.get(1),
        "hoodie.streamer.freshness.kafka.consumer.ssl.keystore.password", SECRETS.get(2),
        "hoodie.streamer.schemaprovider.source.schema.file", schema.toUri().toString(),
        "hoodie.streamer.schemaprovider.target.schema.file", schema.toUri().toString()));
    props.putAll(Map.of(
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", "",
        "hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.NonpartitionedKeyGenerator",
        "hoodie.upsert.shuffle.parallelism", "2",
        "hoodie.insert.shuffle.parallelism", "2",
        "hoodie.streamer.transformer.sql", "SELECT * FROM <SRC>"));
    Path propsFile = Files.writeString(dir.resolve("clicks.properties"), props.entrySet().stream()
        .map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining("\n")));
    String[] args = {"--props", propsFile.toUri().toString(), "--target-base-path", target,
        "--target-table", "clicks", "--table-type", "COPY_ON_WRITE", "--op", "UPSERT",
        "--source-ordering-field", "ts", "--source-class", JsonKafkaSource.class.getName(),
        "--schemaprovider-class", FilebasedSchemaProvider.class.getName(),
        // Rows, as the multi-table jobs: JSON is read by Spark, with no Avro conversion library on the classpath.
        "--transformer-class", SqlQueryBasedTransformer.class.getName()};
    ByteArrayOutputStream reporterOutput = new ByteArrayOutputStream();

    try (CapturedLogs logs = new CapturedLogs()) {
      new HoodieStreamer(HoodieStreamer.getConfig(args), SharedSpark.jsc()).sync();

      assertEquals("clicks,0:1,1:1", HudiTables.lastCheckpoint(target));
      JsonNode byCallback = history(target).get(0);
      assertEquals("CALLBACK", byCallback.get("observer").asText());
      assertEquals(List.of("clicks:CAUGHT_UP"), states(byCallback));
      assertEquals(0, byCallback.get("sources").get(0).get("pending").asLong());

      // Three records arrive; the oldest of them was created in partition 1.
      long oldest = System.currentTimeMillis() - Duration.ofMinutes(1).toMillis();
      kafka.send("clicks", 0, oldest + 5_000, click("c3", oldest));
      kafka.send("clicks", 1, oldest, click("c4", oldest));
      kafka.send("clicks", 1, oldest + 9_000, click("c5", oldest));
      Path config = yaml("kafka.yaml",
          "  - name: clicks",
          "    basePath: " + target,
          "    properties:",
          "      hoodie.streamer.source.kafka.topic: clicks",
          "      bootstrap.servers: " + kafka.bootstrapServers(),
          "      security.protocol: PLAINTEXT",
          "      sasl.jaas.config: 'x required password=\"" + SECRETS.get(0) + "\";'",
          "      ssl.truststore.password: " + SECRETS.get(1));
      Clock twentyMinutesLater = Clock.fixed(Instant.ofEpochMilli(oldest).plus(Duration.ofMinutes(20)), ZoneOffset.UTC);

      assertEquals(0, FreshnessReporterCli.run(new String[] {"--config", config.toString()},
          new PrintStream(reporterOutput, true, StandardCharsets.UTF_8), System.err, twentyMinutesLater,
          hadoopConf()));

      Map<String, Double> expected = new TreeMap<>(sourceValues("clicks", "clicks", 1200.0, 1200.0 / 3600,
          "offset_lag", 3));
      expected.putAll(pipelineValues("clicks", 1200.0, 1200.0 / 3600, 1));
      expected.put("hudi_freshness_clicks_source_clicks_records_lost", 0.0);
      expected.put("hudi_freshness_clicks_source_clicks_checkpoint_ahead_of_log_offsets", 0.0);
      assertEquals(expected, pushgateway.scrape("hudi_freshness_clicks_"));

      String everything = logs.text() + reporterOutput.toString(StandardCharsets.UTF_8) + pushgateway.scrapeText()
          + history(target);
      assertTrue(logs.text().contains("Freshness of pipeline 'clicks'"), "the capture saw the callback's log");
      assertTrue(logs.text().contains("group.id = " + KafkaCluster.DEFAULT_GROUP_ID), "never the Streamer's group");
      for (String secret : SECRETS) {
        assertFalse(everything.contains(secret), "credential " + secret + " leaked");
      }
    }
  }

  @Test
  void failingCallbackIsCountedAndNeverFailsTheRound() throws Exception {
    String orders = path("orders");
    String users = path("users");
    String target = path("joined");
    String orders1 = HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o1", "u1", 10.0, 1L));
    String users1 = HudiTables.upsert(users, "users", "COPY_ON_WRITE", "user_id", USERS, user("u1", "alice", 1L));
    StreamerJob job = StreamerJob.ordersAndUsers(dir, orders, users, target).sql(JOIN_SQL)
        .property("hoodie.streamer.freshness.mode", "SOMETIMES");
    callbackAndMetrics().forEach(job::property);

    try (CapturedLogs logs = new CapturedLogs()) {
      job.syncInProcess();
      assertTrue(logs.text().contains("Cannot record the source freshness of commit"), "the failure is logged");
      assertTrue(logs.text().contains("hoodie.streamer.freshness.mode=SOMETIMES is not one of [STREAMING, BATCH]"),
          "with its cause");
    }

    assertEquals("orders=" + orders1 + ",users=" + users1, HudiTables.lastCheckpoint(target));
    assertEquals(1.0, pushgateway.scrape("hudi_freshness_joined_").get("hudi_freshness_joined_failures"));
    assertTrue(history(target).isEmpty());
  }

  private Map<String, String> callbackAndMetrics() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("hoodie.write.commit.callback.on", "true");
    props.put("hoodie.write.commit.callback.class", FreshnessCommitCallback.class.getName());
    props.putAll(metricsSettings());
    return props;
  }

  private static Map<String, String> metricsSettings() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("hoodie.metrics.on", "true");
    props.put("hoodie.metrics.reporter.type", "PROMETHEUS_PUSHGATEWAY");
    props.put("hoodie.metrics.pushgateway.host", "127.0.0.1");
    props.put("hoodie.metrics.pushgateway.port", String.valueOf(pushgateway.port()));
    props.put("hoodie.metrics.pushgateway.job.name", "freshness-e2e");
    props.put("hoodie.metrics.pushgateway.random.job.name.suffix", "false");
    props.put("hoodie.metrics.pushgateway.delete.on.shutdown", "false");
    return props;
  }

  /** The values a source publishes, by Prometheus name. */
  private static Map<String, Double> sourceValues(String pipeline, String source, double lag, double ratio,
                                                  String pendingMetric, long pending) {
    String prefix = "hudi_freshness_" + pipeline + "_source_" + source + "_";
    return Map.of(prefix + "lag_seconds", lag, prefix + "raw_lag_seconds", lag, prefix + "sla_ratio", ratio,
        prefix + pendingMetric, (double) pending);
  }

  /** The values a pipeline publishes; a null stands for a value that is not published at all. */
  private static Map<String, Double> pipelineValues(String pipeline, Double lag, Double ratio, Integer depth) {
    String prefix = "hudi_freshness_" + pipeline + "_";
    Map<String, Double> values = new TreeMap<>();
    values.put(prefix + "unreadable_sources", 0.0);
    values.put(prefix + "failures", 0.0);
    if (lag != null) {
      values.put(prefix + "lag_seconds", lag);
      values.put(prefix + "sla_ratio", ratio);
    }
    if (depth != null) {
      values.put(prefix + "checkpoint_search_depth", (double) depth);
    }
    return values;
  }

  private Path yaml(String name, String... pipelineLines) throws Exception {
    StringBuilder yaml = new StringBuilder("metrics:\n");
    metricsSettings().forEach((key, value) -> yaml.append("  ").append(key).append(": '").append(value).append("'\n"));
    yaml.append("pipelines:\n").append(String.join("\n", pipelineLines)).append("\n");
    return Files.writeString(dir.resolve(name), yaml.toString());
  }

  private static List<JsonNode> history(String target) throws Exception {
    return FreshnessHistory.open(target + "/.hoodie/.aux/freshness", 1000, hadoopConf()).newest(100);
  }

  private static List<String> states(JsonNode entry) {
    List<String> states = new ArrayList<>();
    entry.get("sources").forEach(source -> states.add(source.get("source").asText() + ":"
        + source.get("state").asText()));
    return states;
  }

  /** When an instant became readable, as the timeline says: what the lag must be counted from. */
  private static Instant completionTime(String basePath, String instant) {
    return SourceTimeline.completionTimeOf(SourceTimeline.load(basePath, hadoopConf()).get().completedCommits()
        .filter(candidate -> candidate.getTimestamp().equals(instant)).firstInstant().get()).get();
  }

  private static String click(String id, long ts) {
    return "{\"id\": \"" + id + "\", \"ts\": " + ts + "}";
  }

  private static Configuration hadoopConf() {
    return SharedSpark.jsc().hadoopConfiguration();
  }

  private static PrintStream output() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }

  private String path(String table) {
    return dir.resolve(table).toUri().toString();
  }
}
