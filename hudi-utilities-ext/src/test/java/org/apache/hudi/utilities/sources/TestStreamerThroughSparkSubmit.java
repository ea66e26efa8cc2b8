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

import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsers;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.SparkSubmitLauncher;
import org.apache.hudi.utilities.testutils.StreamerJob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job as users run it: {@code spark-submit --class org.apache.hudi.utilities.streamer.HoodieStreamer} with the
 * Hudi bundles, the plugin, a properties file and a SQL file, in a separate JVM. Without a Spark distribution here,
 * the launch is {@code java -cp ... org.apache.spark.deploy.SparkSubmit}, which is what the spark-submit script runs.
 */
class TestStreamerThroughSparkSubmit {

  private static final long LAUNCH_TIMEOUT_SECONDS = 300;

  @TempDir
  Path dir;

  @Test
  void streamerJoinsTwoTablesAcrossTwoSubmittedRuns() throws Exception {
    OrdersAndUsers tables = new OrdersAndUsers(dir, "joined");
    String ordersPath = tables.ordersPath;
    String usersPath = tables.usersPath;
    String targetPath = tables.targetPath;
    StreamerJob job = tables.job()
        .sql("SELECT o.order_id, o.user_id, o.amount, u.user_name, o.ts "
            + "FROM <SRC:orders> o LEFT JOIN <SRC:users> u ON o.user_id = u.user_id");

    String orders1 = HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L));
    String users1 = HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS,
        user("u1", "alice", 1L), user("u2", "bob", 1L));
    submit(job, "round1");
    assertEquals("orders=" + orders1 + ",users=" + users1, HudiTables.lastCheckpoint(targetPath));
    assertEquals(List.of("[o1,u1,10.0,alice,1]", "[o2,u2,20.0,bob,1]"), targetRows(targetPath));

    String orders2 = HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o3", "u2", 30.0, 2L));
    String users2 = HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS,
        user("u2", "bobby", 2L));
    submit(job, "round2");
    assertEquals("orders=" + orders2 + ",users=" + users2, HudiTables.lastCheckpoint(targetPath));
    assertEquals(List.of("[o1,u1,10.0,alice,1]", "[o2,u2,20.0,bob,1]", "[o3,u2,30.0,bobby,2]"),
        targetRows(targetPath));
  }

  private void submit(StreamerJob job, String name) throws Exception {
    Path log = dir.resolve(name + ".log");
    Process process = SparkSubmitLauncher.start(job, log);
    boolean exited = process.waitFor(LAUNCH_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly();
    }
    assertTrue(exited && process.exitValue() == 0,
        "spark-submit of HoodieStreamer failed; last output:\n" + SparkSubmitLauncher.tail(log, 60));
  }

  private static List<String> targetRows(String targetPath) {
    return SharedSpark.session().read().format("hudi").load(targetPath)
        .selectExpr("order_id", "user_id", "amount", "user_name", "ts")
        .collectAsList().stream().map(Object::toString).sorted().collect(Collectors.toList());
  }
}
