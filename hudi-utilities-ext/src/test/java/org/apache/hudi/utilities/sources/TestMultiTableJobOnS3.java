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

import org.apache.hudi.utilities.freshness.FreshnessCommitCallback;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.freshness.testutils.CapturedLogs;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsers;
import org.apache.hudi.utilities.testutils.S3ProxyServer;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.StreamerJob;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

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
      assertTargetIsTheJoinAt(tables, orders1, users1);

      // Round 2: a user is renamed (reaching the old orders) and an order arrives for a user written in the same
      // batch: both sides advance.
      String users2 = tables.users(user("u1", "alicia", 2L), user("u3", "carol", 2L));
      String orders2 = tables.orders(order("o3", "u3", 30.0, 2L), order("o2", "u2", 21.0, 2L));
      roundMillis.add(timedSync(job));
      assertTargetIsTheJoinAt(tables, orders2, users2);
      assertEquals(List.of("[o1,u1,10.0,alicia]", "[o2,u2,21.0,bob]", "[o3,u3,30.0,carol]"), targetRows(tables));

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
      FileStatus[] entries = FileSystem.get(java.net.URI.create(historyFolder), hadoopConf())
          .listStatus(new org.apache.hadoop.fs.Path(historyFolder));
      assertEquals(2, entries.length, Arrays.toString(entries));

      assertTrue(logs.text().contains("Freshness of pipeline 'orders_users_s3'"), "the capture saw the callback");
      assertTrue(logs.text().contains("s3a://lake-e2e/warehouse/joined"), "and the job's S3 paths");
      assertFalse(logs.text().contains(ACCESS_KEY), "the S3 access key leaked into the logs");
      assertFalse(logs.text().contains(SECRET_KEY), "the S3 secret key leaked into the logs");
    }
    System.out.printf("Multi-table job on S3 (S3Proxy): round wall times %s ms%n", roundMillis);
  }

  private static long timedSync(StreamerJob job) throws Exception {
    long start = System.nanoTime();
    job.syncInProcess();
    return (System.nanoTime() - start) / 1_000_000;
  }

  private static void assertTargetIsTheJoinAt(OrdersAndUsers tables, String ordersInstant, String usersInstant) {
    assertEquals("orders=" + ordersInstant + ",users=" + usersInstant, HudiTables.lastCheckpoint(tables.targetPath));
    asOf(tables.ordersPath, ordersInstant).createOrReplaceTempView("orders_at_checkpoint");
    asOf(tables.usersPath, usersInstant).createOrReplaceTempView("users_at_checkpoint");
    List<String> expected = sorted(SharedSpark.session().sql("SELECT o.order_id, o.user_id, o.amount, u.user_name "
        + "FROM orders_at_checkpoint o JOIN users_at_checkpoint u ON o.user_id = u.user_id"));
    assertEquals(expected, targetRows(tables));
  }

  private static List<String> targetRows(OrdersAndUsers tables) {
    return sorted(SharedSpark.session().read().format("hudi").load(tables.targetPath)
        .select("order_id", "user_id", "amount", "user_name"));
  }

  private static Dataset<Row> asOf(String path, String instant) {
    return SharedSpark.session().read().format("hudi").option("as.of.instant", instant).load(path);
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
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
