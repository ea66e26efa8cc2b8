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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.testutils.FetchedBatch;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.StreamerJob;

import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * alignment=COMMIT_TIME_CEILING: given source commits interleaved in time, each batch reads every table up to the same
 * commit time; a table ahead waits without its checkpoint passing the ceiling; a quiet table holds the others for at
 * most the idle timeout (clocks injected); a table blocked by a hollow commit is quiet; a table held on its first
 * batch keeps the commits it waited for.
 */
class TestCommitTimeAlignment {

  private static final String READ_LOG_SQL =
      "SELECT concat('orders:', order_id, ':', ts) AS read_id, ts FROM <SRC:orders>\n"
      + "UNION ALL\n"
      + "SELECT concat('users:', user_id, ':', ts) AS read_id, ts FROM <SRC:users>";
  private static final Duration IDLE_TIMEOUT = Duration.ofMinutes(10);

  @TempDir
  Path dir;

  private String ordersPath;
  private String usersPath;

  @BeforeEach
  void paths() {
    ordersPath = dir.resolve("orders").toUri().toString();
    usersPath = dir.resolve("users").toUri().toString();
  }

  @Test
  void everyBatchReadsAllTablesUpToTheSameCommitTime() throws Exception {
    String o1 = orders(order("o1", "u1", 1.0, 1L));
    String u1 = users(user("u1", "alice", 1L));
    String o2 = orders(order("o2", "u1", 2.0, 2L));
    String targetPath = dir.resolve("read_log").toUri().toString();
    StreamerJob job = StreamerJob.ordersAndUsers(dir, ordersPath, usersPath, targetPath)
        .property("hoodie.datasource.write.recordkey.field", "read_id")
        .property("hoodie.streamer.source.multi.hudi.alignment", "COMMIT_TIME_CEILING")
        .property("hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms", String.valueOf(Duration.ofDays(1).toMillis()))
        .sql(READ_LOG_SQL);

    job.syncInProcess();
    assertEquals(List.of("orders:o1:1", "users:u1:1"), readLog(targetPath), "orders stops at users' newest commit");
    assertEquals("orders=" + o1 + ",users=" + u1, HudiTables.lastCheckpoint(targetPath));

    int commits = HudiTables.completedCommits(targetPath);
    job.syncInProcess();
    assertEquals(commits, HudiTables.completedCommits(targetPath), "quiet users holds orders at u1: no commit");

    String u2 = users(user("u2", "bob", 2L));
    job.syncInProcess();
    assertEquals(List.of("orders:o1:1", "orders:o2:2", "users:u1:1"), readLog(targetPath), "users' u2 is after o2");
    assertEquals("orders=" + o2 + ",users=" + u1, HudiTables.lastCheckpoint(targetPath));

    // Quiet orders would hold users at o2 for a day; with no idle timeout it holds nothing.
    job.property("hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms", "0").syncInProcess();
    assertEquals(List.of("orders:o1:1", "orders:o2:2", "users:u1:1", "users:u2:2"), readLog(targetPath));
    assertEquals("orders=" + o2 + ",users=" + u2, HudiTables.lastCheckpoint(targetPath));
  }

  @Test
  void tableBlockedByAHollowCommitHoldsTheOthersUntilItsNewestReadableCommitIsIdle() throws Exception {
    String o1 = orders(order("o1", "u1", 1.0, 1L));
    String o2 = orders(order("o2", "u1", 2.0, 2L));
    // Another writer of orders started right after o1 and has not finished: orders cannot read past o1.
    String hole = String.valueOf(Long.parseLong(o1) + 1);
    Path metaFolder = Paths.get(dir.resolve("orders").toString(), HoodieTableMetaClient.METAFOLDER_NAME);
    Path requested = Files.createFile(metaFolder.resolve(hole + HoodieTimeline.REQUESTED_COMMIT_EXTENSION));
    Path inflight = Files.createFile(metaFolder.resolve(hole + HoodieTimeline.INFLIGHT_EXTENSION));
    String u1 = users(user("u1", "alice", 1L));
    Instant idleAt = timeOf(o1).plus(IDLE_TIMEOUT);
    String start = "orders=" + o1;

    FetchedBatch held = FetchedBatch.fetch(source(idleAt.minusMillis(1)), start);
    assertEquals(List.of(), held.rows());
    assertEquals("orders=" + o1 + ",users=" + MultiTableCheckpoint.BEFORE_FIRST_INSTANT, held.checkpoint(),
        "users waits at its start, which it keeps as its position");

    FetchedBatch released = FetchedBatch.fetch(source(idleAt), held.checkpoint());
    assertEquals(List.of("users:u1:1"), released.rows(), "orders is idle: users goes on");
    assertEquals("orders=" + o1 + ",users=" + u1, released.checkpoint());
    assertEquals(released.checkpoint(), released.manifestPositions().get());

    Files.delete(inflight); // the other writer's attempt is rolled back
    Files.delete(requested);
    FetchedBatch caughtUp = FetchedBatch.fetch(source(idleAt), released.checkpoint());
    assertEquals(List.of("orders:o2:2"), caughtUp.rows(), "o2 is before users' newest commit, which holds the ceiling");
    assertEquals("orders=" + o2 + ",users=" + u1, caughtUp.checkpoint());
  }

  @Test
  void tableHeldOnItsFirstBatchLaterReadsTheCommitsItWaitedFor() throws Exception {
    String u1 = users(user("u1", "alice", 1L));
    String o1 = orders(order("o1", "u1", 1.0, 1L));
    Instant usersIdleAt = timeOf(u1).plus(IDLE_TIMEOUT);

    // orders starts from its latest commit (READ_LATEST), which is after users' newest: it waits.
    FetchedBatch first = FetchedBatch.fetch(source(usersIdleAt.minusMillis(1)), "");
    assertEquals(List.of("users:u1:1"), first.rows());
    assertEquals("orders=" + (Long.parseLong(o1) - 1) + ",users=" + u1, first.checkpoint());
    assertEquals(first.checkpoint(), first.manifestPositions().get());

    String o2 = orders(order("o2", "u1", 2.0, 2L));
    FetchedBatch second = FetchedBatch.fetch(source(usersIdleAt), first.checkpoint());
    assertEquals(List.of("orders:o1:1", "orders:o2:2"), second.rows(), "o1 was not skipped for the newer latest");
    assertEquals("orders=" + o2 + ",users=" + u1, second.checkpoint());
  }

  private HoodieIncrMultiSource source(Instant now) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders,users");
    props.setProperty("hoodie.streamer.source.multi.hudi.alignment", "COMMIT_TIME_CEILING");
    props.setProperty("hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms", String.valueOf(IDLE_TIMEOUT.toMillis()));
    props.setProperty("hoodie.streamer.source.hudi.orders.path", ordersPath);
    props.setProperty("hoodie.streamer.source.hudi.users.path", usersPath);
    props.setProperty("hoodie.streamer.source.hudi.users.missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT");
    return new HoodieIncrMultiSource(props, SharedSpark.jsc(), SharedSpark.session(), null, Option.empty(),
        Clock.fixed(now, ZoneOffset.UTC));
  }

  private static Instant timeOf(String instant) throws ParseException {
    return HoodieActiveTimeline.parseDateFromInstantTime(instant).toInstant();
  }

  private String orders(Row... rows) {
    return HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, rows);
  }

  private String users(Row... rows) {
    return HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS, rows);
  }

  private static List<String> readLog(String targetPath) {
    return SharedSpark.session().read().format("hudi").load(targetPath).select("read_id").collectAsList().stream()
        .map(row -> row.getString(0)).sorted().collect(Collectors.toList());
  }
}
