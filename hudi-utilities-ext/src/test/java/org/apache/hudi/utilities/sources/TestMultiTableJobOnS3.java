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

package org.apache.hudi.utilities.sources;

import org.apache.hudi.utilities.callback.FreshnessCommitCallback;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.freshness.testutils.CapturedLogs;
import org.apache.hudi.utilities.testutils.FailureMessages;
import org.apache.hudi.utilities.testutils.FaultyS3Endpoint;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsers;
import org.apache.hudi.utilities.testutils.S3ProxyServer;
import org.apache.hudi.utilities.testutils.S3Requests;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.StreamerJob;
import org.apache.hudi.utilities.transform.SqlQueryBasedTransformer;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's multi-table job with every table, the SQL file and the freshness history on object storage: a real S3
 * endpoint (S3Proxy) reached through Hadoop's S3A, the stock Streamer in-process in local Spark.
 */
class TestMultiTableJobOnS3 {

  /** Distinctive credentials: neither may appear in any log line. */
  private static final String ACCESS_KEY = "AKIDS3PROXYE2E7Q4XZ";
  private static final String SECRET_KEY = "s3secret-5f2c91d0e8a4b7";

  @TempDir
  static Path shared;

  private static S3ProxyServer s3;
  private static String lake;

  @TempDir
  Path dir;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = S3ProxyServer.start(shared.resolve("s3proxy"), ACCESS_KEY, SECRET_KEY);
    lake = s3.createBucket("lake-e2e");
    s3.configure(hadoopConf());
  }

  @AfterAll
  static void stopS3() throws Exception {
    if (s3 != null) {
      s3.unconfigure(hadoopConf());
      s3.close();
    }
  }

  @Test
  void exactJoinOnS3EqualsTheJoinOfTheSourcesAtTheCommittedCheckpointWithFreshnessHistory() throws Exception {
    OrdersAndUsers tables = new OrdersAndUsers(dir, lake + "/warehouse", "joined");
    String sqlFile = lake + "/jobs/join.sql";
    writeObject(sqlFile, Files.readString(demoJoinSql()));
    StreamerJob job = tables.job()
        .property("hoodie.streamer.transformer.sql.file", sqlFile)
        .property("hoodie.write.commit.callback.on", "true")
        .property("hoodie.write.commit.callback.class", FreshnessCommitCallback.class.getName())
        .property("hoodie.streamer.freshness.pipeline.name", "orders_users_s3");
    List<Long> roundMillis = new ArrayList<>();

    try (CapturedLogs logs = new CapturedLogs()) {
      String orders1 = tables.orders(order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L));
      String users1 = tables.users(user("u1", "alice", 1L), user("u2", "bob", 1L));
      roundMillis.add(timedSync(job));
      tables.assertTargetIsTheJoinAt(orders1, users1);

      // Round 2: a user is renamed (reaching the old orders) and an order arrives for a user written in the same
      // batch: both sides advance.
      String users2 = tables.users(user("u1", "alicia", 2L), user("u3", "carol", 2L));
      String orders2 = tables.orders(order("o3", "u3", 30.0, 2L), order("o2", "u2", 21.0, 2L));
      roundMillis.add(timedSync(job));
      tables.assertTargetIsTheJoinAt(orders2, users2);
      assertEquals(List.of("[o1,u1,10.0,alicia]", "[o2,u2,21.0,bob]", "[o3,u3,30.0,carol]"), tables.targetRows());

      // The callback's history, written on S3 under the target and read back from there.
      String historyFolder = tables.targetPath + "/.hoodie/.aux/freshness";
      List<JsonNode> history = FreshnessHistory.open(historyFolder, 1000, hadoopConf()).newest(10);
      assertEquals(2, history.size(), history.toString());
      JsonNode last = history.get(1);
      assertEquals("CALLBACK", last.get("observer").asText());
      assertEquals("orders_users_s3", last.get("pipeline").asText());
      assertEquals(HudiTables.lastCompletedInstant(tables.targetPath).get(), last.get("commit").asText());
      assertEquals("orders=" + orders2 + ",users=" + users2, last.get("checkpoint").asText());
      List<String> states = new ArrayList<>();
      last.get("sources").forEach(source -> states.add(source.get("source").asText() + ":"
          + source.get("state").asText()));
      assertEquals(List.of("orders:CAUGHT_UP", "users:CAUGHT_UP"), states);
      FileStatus[] entries = FileSystem.get(URI.create(historyFolder), hadoopConf())
          .listStatus(new org.apache.hadoop.fs.Path(historyFolder));
      assertEquals(2, entries.length, Arrays.toString(entries));

      assertTrue(logs.text().contains("Freshness of pipeline 'orders_users_s3'"), "the capture saw the callback");
      assertTrue(logs.text().contains("s3a://lake-e2e/warehouse/joined"), "and the job's S3 paths");
      assertFalse(logs.text().contains(ACCESS_KEY), "the S3 access key leaked into the logs");
      assertFalse(logs.text().contains(SECRET_KEY), "the S3 secret key leaked into the logs");
    }
    System.out.printf("Multi-table job on S3 (S3Proxy): round wall times %s ms%n", roundMillis);
  }

  /** The faults' random sequence of every build; {@code -Ds3.faults.seed=<n>} replays another. */
  private static final long FAULTS_SEED = Long.getLong("s3.faults.seed", 20261202L);
  /** Shares of the requests of a batch answered 503 SlowDown, and cut off mid-response after S3 carried them out. */
  private static final double SLOW_DOWN_SHARE = 0.05;
  private static final double CUT_SHARE = 0.05;
  /** Batches through the faults: quick by default, more with {@code -Ds3.faults.rounds=N}. */
  private static final int FAULTY_ROUNDS = Integer.getInteger("s3.faults.rounds", 2);

  /**
   * Given the exact-join job on a bucket reached through an endpoint that throttles and cuts off a share of the
   * requests of every batch, when rounds of source changes are synced through it, then each batch either commits the
   * exact join at its new positions (S3A's and the AWS SDK's retries carry it) or fails leaving the checkpoint and the
   * target where they were; at least one batch that met faults commits (else the retries carried nothing, and the test
   * would hold for a job that fails at every fault); and a run without faults afterwards commits the exact join of
   * everything.
   */
  @Test
  void exactJoinOnS3CarriesThroughThrottlingAndResponsesCutOff() throws Exception {
    String bucket = "lake-faults";
    String lakeUri = s3.createBucket(bucket);
    Configuration conf = hadoopConf();
    Map<String, String> bucketSettings = new LinkedHashMap<>();
    try (FaultyS3Endpoint endpoint = FaultyS3Endpoint.start(s3.endpoint(), FAULTS_SEED)) {
      // Retries as a production client has them (S3ProxyServer's defaults fail fast), with short pauses.
      bucketSettings.put("endpoint", endpoint.endpoint());
      bucketSettings.put("attempts.maximum", "5");
      bucketSettings.put("retry.limit", "5");
      bucketSettings.put("retry.interval", "50ms");
      bucketSettings.put("retry.throttle.limit", "10");
      bucketSettings.put("retry.throttle.interval", "50ms");
      bucketSettings.forEach((key, value) -> conf.set("fs.s3a.bucket." + bucket + "." + key, value));
      OrdersAndUsers tables = new OrdersAndUsers(dir, lakeUri + "/warehouse", "joined");
      String sqlFile = lakeUri + "/jobs/join.sql";
      writeObject(sqlFile, Files.readString(demoJoinSql()));
      StreamerJob job = tables.job().property("hoodie.streamer.transformer.sql.file", sqlFile);
      System.out.printf("S3 faults with seed %d (replay with -Ds3.faults.seed=%d): %.0f%% SlowDown, %.0f%% cut off%n",
          FAULTS_SEED, FAULTS_SEED, SLOW_DOWN_SHARE * 100, CUT_SHARE * 100);

      // The first batch without faults; then every batch through them.
      String committedOrders = tables.orders(order("o0", "u0", 1.0, 0L));
      String committedUsers = tables.users(user("u0", "alice", 0L), user("u1", "bob", 0L));
      job.syncInProcess();
      List<String> outcomes = new ArrayList<>();
      int committedThroughFaults = 0;
      for (int round = 1; round <= FAULTY_ROUNDS; round++) {
        long faultsBefore = faultsServed(endpoint);
        String orders = tables.orders(order("o" + round, "u" + (round % 2), 10.0 * round, round),
            order("o0", "u" + (round % 2), round, round));
        String users = tables.users(user("u" + (round % 2), "name" + round, round));
        endpoint.faults(SLOW_DOWN_SHARE, CUT_SHARE);
        try {
          job.syncInProcess();
          committedOrders = orders;
          committedUsers = users;
          long faults = faultsServed(endpoint) - faultsBefore;
          committedThroughFaults += faults > 0 ? 1 : 0;
          outcomes.add("committed through " + faults + " faults");
        } catch (Exception e) {
          String[] messages = FailureMessages.of(e).split("\n");
          outcomes.add("failed (" + messages[messages.length - 1] + ")");
          e.printStackTrace(System.out);
        } finally {
          endpoint.faults(0, 0);
        }
        // Committed or not, the target is the join at the positions of its checkpoint.
        tables.assertTargetIsTheJoinAt(committedOrders, committedUsers);
      }
      long slowDowns = endpoint.served(FaultyS3Endpoint.Fault.SLOW_DOWN);
      long cuts = endpoint.served(FaultyS3Endpoint.Fault.CUT_MID_RESPONSE);
      long clean = endpoint.served(FaultyS3Endpoint.Fault.NONE);
      job.syncInProcess();
      tables.assertTargetIsTheJoinAt(HudiTables.lastCompletedInstant(tables.ordersPath).get(),
          HudiTables.lastCompletedInstant(tables.usersPath).get());
      System.out.printf("Batches through S3 faults: %s; requests answered SlowDown %d, cut off %d, passed %d%n",
          outcomes, slowDowns, cuts, clean);
      assertTrue(slowDowns > 0 && cuts > 0, "no fault was injected");
      assertTrue(committedThroughFaults > 0, () -> String.format("no batch that met faults committed: %s (seed %d)",
          outcomes, FAULTS_SEED));
    } finally {
      bucketSettings.keySet().forEach(key -> conf.unset("fs.s3a.bucket." + bucket + "." + key));
    }
  }

  private static long faultsServed(FaultyS3Endpoint endpoint) {
    return endpoint.served(FaultyS3Endpoint.Fault.SLOW_DOWN) + endpoint.served(FaultyS3Endpoint.Fault.CUT_MID_RESPONSE);
  }

  /** A table's rows as every job of the request count writes them: the same columns read from each table. */
  private static final String ORDERS_ROWS = "SELECT order_id AS id, user_id, amount, CAST(NULL AS STRING) AS user_name, ts "
      + "FROM <SRC:orders>";
  private static final String USERS_ROWS = "SELECT user_id AS id, user_id, CAST(NULL AS DOUBLE) AS amount, user_name, ts "
      + "FROM <SRC:users>";

  /** The goal: S3 requests a table may cost per batch in a multi-table job over a stock job reading it. */
  private static final int GOAL_EXTRA_REQUESTS = 2;
  /**
   * What the plugin adds per table and batch on Hudi 0.14 today: its own load of the table's timeline
   * ({@code SourceTimeline}, a {@code HoodieTableMetaClient}): Hudi's table check on {@code .hoodie} (a HEAD and a
   * LIST), {@code hoodie.properties} (a HEAD and a GET), the timeline listing (a LIST). The stock read builds its own
   * meta clients, which the plugin cannot lend it one of. That is the first batch of a source, which each sync here is
   * (a new Streamer); a running source's later batches reload the timeline only (a LIST: {@code SourceTimeline#reload},
   * measured by {@code bash benchmarks/run.sh s3}).
   */
  private static final int TIMELINE_LOAD_REQUESTS = 5;

  /**
   * The retention guard's look at the archive folder in a source's first batch, for a table never cleaned (these):
   * whether older commits are archived bounds its headroom. S3A lists the empty folder, then probes it as a file and as
   * a directory: a HEAD and two LISTs.
   */
  private static final int ARCHIVE_PROBE_REQUESTS = 3;

  /**
   * The S3 requests of one incremental batch, per table, of the multi-table job against a stock
   * {@code HoodieIncrSource} job per table, at the same commits, reading the same columns. Each table lives in its own
   * bucket, so that the requests to a bucket are exactly that table's, whatever sends them during the batch (the
   * Streamer, Hudi, Spark: timeline, metadata table, data files).
   *
   * <p>The copy-on-write table's window is read from its files, without the stock read's two meta clients (one to plan
   * the read, one for its relation) and its relation's reads of the schema and commits: the plugin spends its own
   * timeline load and the archive probe instead, so it is held to the stock figure less one timeline load plus the
   * probe (measured: 15 fewer than stock). The merge-on-read table is read through the stock relation and held to the
   * stock figure plus the plugin's timeline load ({@value #TIMELINE_LOAD_REQUESTS}) and the archive probe
   * ({@value #ARCHIVE_PROBE_REQUESTS}); measured: 14 fewer than stock. The test prints the figures against the issue's
   * goal, at most {@value #GOAL_EXTRA_REQUESTS} more per table.
   */
  @Test
  void eachTableCostsNoMoreS3RequestsPerBatchThanTheStockSourcePlusOneTimelineLoadAndTheArchiveProbe() throws Exception {
    String orders = s3.createBucket("count-orders") + "/orders";
    String users = s3.createBucket("count-users") + "/users";
    String targets = s3.createBucket("count-targets");
    String orders1 = HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", HudiTables.ORDERS,
        order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L));
    String users1 = HudiTables.upsert(users, "users", "MERGE_ON_READ", "user_id", HudiTables.USERS,
        user("u1", "alice", 1L), user("u2", "bob", 1L));
    String orders2 = HudiTables.upsert(orders, "orders", "COPY_ON_WRITE", "order_id", HudiTables.ORDERS,
        order("o3", "u1", 30.0, 2L), order("o2", "u2", 21.0, 2L));
    String users2 = HudiTables.upsert(users, "users", "MERGE_ON_READ", "user_id", HudiTables.USERS,
        user("u3", "carol", 2L), user("u1", "alicia", 2L));
    // Each job resumes after the first commits: the batch measured is an incremental read of the second ones.
    StreamerJob multi = StreamerJob.ordersAndUsers(Files.createDirectories(dir.resolve("multi")), orders, users,
            targets + "/multi")
        .property("hoodie.datasource.write.recordkey.field", "id")
        .sql(ORDERS_ROWS + "\nUNION ALL\n" + USERS_ROWS)
        .checkpoint("orders=" + orders1 + ",users=" + users1);
    Map<String, StreamerJob> stock = new LinkedHashMap<>();
    stock.put("orders", stockJob(orders, targets + "/stock_orders", ORDERS_ROWS.replace("<SRC:orders>", "<SRC>"))
        .checkpoint(orders1));
    stock.put("users", stockJob(users, targets + "/stock_users", USERS_ROWS.replace("<SRC:users>", "<SRC>"))
        .checkpoint(users1));
    Map<String, String> tablePaths = new LinkedHashMap<>();
    tablePaths.put("orders", orders);
    tablePaths.put("users", users);

    Map<String, BatchRequests> byMulti = requestsPerTable(multi, tablePaths);
    Map<String, BatchRequests> byStock = new LinkedHashMap<>();
    for (Map.Entry<String, StreamerJob> job : stock.entrySet()) {
      byStock.put(job.getKey(), requestsPerTable(job.getValue(), tablePaths).get(job.getKey()));
    }

    assertEquals("orders=" + orders2 + ",users=" + users2, HudiTables.lastCheckpoint(targets + "/multi"));
    assertEquals(orders2, HudiTables.lastCheckpoint(targets + "/stock_orders"));
    assertEquals(users2, HudiTables.lastCheckpoint(targets + "/stock_users"));
    Map<String, Integer> bound = Map.of("orders", ARCHIVE_PROBE_REQUESTS - TIMELINE_LOAD_REQUESTS,
        "users", TIMELINE_LOAD_REQUESTS + ARCHIVE_PROBE_REQUESTS);
    List<String> overBound = new ArrayList<>();
    for (String table : tablePaths.keySet()) {
      BatchRequests withMulti = byMulti.get(table);
      BatchRequests withStock = byStock.get(table);
      long extra = withMulti.total() - withStock.total();
      System.out.printf("S3 requests to %s in one incremental batch: HoodieIncrMultiSource %s, HoodieIncrSource %s: "
          + "%+d (goal +%d %s)%n", table, withMulti, withStock, extra, GOAL_EXTRA_REQUESTS,
          extra <= GOAL_EXTRA_REQUESTS ? "met" : "NOT met");
      for (String write : List.of("PUT", "DELETE", "POST")) {
        assertEquals(0, withMulti.count(write) + withStock.count(write), "reading " + table + " wrote to it");
      }
      if (extra > bound.get(table)) {
        overBound.add(table + ": " + withMulti + " vs " + withStock + ", allowed " + bound.get(table));
      }
    }
    assertEquals(List.of(), overBound, "S3 requests of HoodieIncrMultiSource beyond HoodieIncrSource's and what the "
        + "plugin's timeline load (" + TIMELINE_LOAD_REQUESTS + ") and archive probe (" + ARCHIVE_PROBE_REQUESTS + ") "
        + "add, less what the copy-on-write window's read from its files saves");
  }

  private StreamerJob stockJob(String table, String target, String sql) throws Exception {
    String name = target.substring(target.lastIndexOf('/') + 1);
    return new StreamerJob(Files.createDirectories(dir.resolve(name)), target)
        .sourceClass(HoodieIncrSource.class.getName())
        .targetTable(name)
        .property("hoodie.streamer.source.hoodieincr.path", table)
        .property("hoodie.streamer.source.hoodieincr.missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT")
        .property("hoodie.datasource.write.recordkey.field", "id")
        .property("hoodie.streamer.transformer.sql", sql)
        .transformers(SqlQueryBasedTransformer.class.getName());
  }

  /** The S3 requests of one table in one batch: as S3Proxy received them, and as the table's S3A client counted. */
  private static final class BatchRequests {
    private final Map<String, Long> received;
    private final S3Requests counted;

    BatchRequests(Map<String, Long> received, S3Requests counted) {
      this.received = received;
      this.counted = counted;
    }

    long count(String kind) {
      return received.getOrDefault(kind, 0L);
    }

    long total() {
      return received.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public String toString() {
      return total() + " " + received + " (S3A: " + counted + ", op_get_file_status "
          + counted.counter("op_get_file_status") + ", op_list_status " + counted.counter("op_list_status")
          + ", op_open " + counted.counter("op_open") + ")";
    }
  }

  /**
   * Runs one Streamer batch and returns the S3 requests it sent to each table's bucket. S3Proxy's log counts them;
   * S3A's counters of the bucket's client must agree on listings and HEADs. S3A adds a stream's GETs to its counters
   * only when the stream is closed, and Hudi keeps some readers open past the batch, so S3A may count fewer GETs.
   */
  private static Map<String, BatchRequests> requestsPerTable(StreamerJob job, Map<String, String> tablePaths)
      throws Exception {
    Map<String, S3Requests> before = new LinkedHashMap<>();
    Map<String, Map<String, Long>> serverBefore = new LinkedHashMap<>();
    tablePaths.forEach((table, path) -> {
      before.put(table, S3Requests.of(bucketOf(path), hadoopConf()));
      serverBefore.put(table, serverRequests(path));
    });
    job.syncInProcess();
    Map<String, BatchRequests> used = new LinkedHashMap<>();
    tablePaths.forEach((table, path) -> {
      S3Requests counted = S3Requests.of(bucketOf(path), hadoopConf()).since(before.get(table));
      Map<String, Long> received = new TreeMap<>();
      serverRequests(path).forEach((kind, count) -> {
        long delta = count - serverBefore.get(table).getOrDefault(kind, 0L);
        if (delta != 0) {
          received.put(kind, delta);
        }
      });
      BatchRequests requests = new BatchRequests(received, counted);
      assertEquals(counted.count("LIST"), requests.count("LIST"), "listings of " + table + ": " + requests);
      assertEquals(counted.count("HEAD"), requests.count("HEAD"), "HEADs of " + table + ": " + requests);
      assertTrue(counted.count("GET") <= requests.count("GET"), "GETs of " + table + ": " + requests);
      used.put(table, requests);
    });
    return used;
  }

  private static Map<String, Long> serverRequests(String path) {
    try {
      return s3.requestsTo(URI.create(path).getAuthority());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String bucketOf(String path) {
    URI uri = URI.create(path);
    return uri.getScheme() + "://" + uri.getAuthority();
  }

  private static long timedSync(StreamerJob job) throws Exception {
    long start = System.nanoTime();
    job.syncInProcess();
    return (System.nanoTime() - start) / 1_000_000;
  }

  /** The demo's SQL file, as users copy it: the module's tests run in hudi-utilities-ext. */
  private static Path demoJoinSql() {
    Path file = Paths.get("..", "demo", "conf", "join.sql");
    assertTrue(Files.isRegularFile(file), file.toAbsolutePath() + " not found");
    return file;
  }

  private static void writeObject(String uri, String content) throws Exception {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(uri);
    try (FSDataOutputStream out = path.getFileSystem(hadoopConf()).create(path, true)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static Configuration hadoopConf() {
    return SharedSpark.jsc().hadoopConfiguration();
  }
}
