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
import org.apache.hudi.utilities.testutils.StreamerJob;
import org.apache.hudi.utilities.transform.SqlQueryBasedTransformer;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Given a healthy multi-table pipeline whose sources have new commits, when the job is misconfigured, then the round
 * fails with a message that says what to fix, and the target's timeline is exactly as it was: no requested, inflight
 * or completed instant was added, and the checkpoint did not move.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMultiTableJobMisconfiguration {

  private static final String JOIN_SQL = "SELECT o.order_id, o.user_id, o.amount, u.user_name, o.ts "
      + "FROM <SRC:orders> o LEFT JOIN <SRC:users> u ON o.user_id = u.user_id";

  private Path dir;
  private String ordersPath;
  private String usersPath;
  private String targetPath;
  private List<String> targetTimeline;
  private String targetCheckpoint;
  private StreamerJob job;

  @BeforeAll
  void healthyPipelineWithNewSourceCommits(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    ordersPath = dir.resolve("orders").toUri().toString();
    usersPath = dir.resolve("users").toUri().toString();
    targetPath = dir.resolve("joined").toUri().toString();
    HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 10.0, 1L));
    HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alice", 1L));
    healthyJob().syncInProcess();
    HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o2", "u1", 20.0, 2L));
    HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alicia", 2L));
    targetTimeline = HudiTables.allInstants(targetPath);
    targetCheckpoint = HudiTables.lastCheckpoint(targetPath);
  }

  @BeforeEach
  void startFromTheHealthyJob() {
    job = healthyJob();
  }

  private StreamerJob healthyJob() {
    return StreamerJob.ordersAndUsers(dir, ordersPath, usersPath, targetPath)
        .sql(JOIN_SQL);
  }

  @Test
  void multiSourceWithoutATransformerFails() {
    job.transformers();
    assertFailsBeforeCommit("UNSPLIT_MULTI_DATASET", "Configure a MultiDatasetTransformer");
  }

  @Test
  void transformerThatPassesTheDatasetsThroughUnsplitFails() {
    job.transformers(SqlQueryBasedTransformer.class.getName())
        .property("hoodie.streamer.transformer.sql", "SELECT * FROM <SRC>");
    assertFailsBeforeCommit("UNSPLIT_MULTI_DATASET", "as the first transformer");
  }

  @Test
  void malformedCheckpointOverrideFails() {
    job.checkpoint("orders=abc,users=1");
    assertFailsBeforeCommit("Cannot parse the multi-table checkpoint 'orders=abc,users=1'",
        "--checkpoint 'orders=<instant>,users=<instant>'");
  }

  @Test
  void sqlReferencingAnUnknownTableFails() {
    job.sql("SELECT * FROM <SRC:orders> o JOIN <SRC:payments> p ON o.order_id = p.order_id");
    assertFailsBeforeCommit("Cannot bind SQL placeholder <SRC:payments>", "<SRC:orders>, <SRC:users>");
  }

  @Test
  void sqlReferencingADanglingIndexFails() {
    job.sql("SELECT * FROM <SRC_0> o JOIN <SRC_2> p ON o.order_id = p.order_id");
    assertFailsBeforeCommit("Cannot bind SQL placeholder <SRC_2>: there are only 2 datasets");
  }

  @Test
  void unreadableSqlFileFails() {
    job.sql(null).property("hoodie.streamer.transformer.sql.file", dir.resolve("missing.sql").toUri().toString());
    assertFailsBeforeCommit("Cannot read SQL file", "missing.sql");
  }

  @Test
  void tableWithoutPathFails() {
    job.withoutProperty("hoodie.streamer.source.hudi.users.path");
    assertFailsBeforeCommit("Cannot read table 'users': hoodie.streamer.source.hudi.users.path is not set");
  }

  @Test
  void pathThatIsNotAHudiTableFails() throws Exception {
    Path notHudi = Files.createDirectories(dir.resolve("plain-directory"));
    job.property("hoodie.streamer.source.hudi.users.path", notHudi.toUri().toString());
    assertFailsBeforeCommit("Cannot read table 'users'", "is not a Hudi table");
  }

  @Test
  void repeatedTableNameFails() {
    job.property("hoodie.streamer.source.multi.hudi.tables", "orders,users,orders");
    assertFailsBeforeCommit("Cannot read table 'orders' twice");
  }

  @Test
  void emptyTableListFails() {
    job.property("hoodie.streamer.source.multi.hudi.tables", " ");
    assertFailsBeforeCommit("hoodie.streamer.source.multi.hudi.tables is not set");
  }

  @Test
  void tableNameThatBreaksConfigKeysFails() {
    job.property("hoodie.streamer.source.multi.hudi.tables", "orders,us ers");
    assertFailsBeforeCommit("Cannot use 'us ers'");
  }

  @Test
  void bareCheckpointFormatWithSeveralTablesFails() {
    job.property("hoodie.streamer.source.multi.hudi.checkpoint.enable", "false");
    assertFailsBeforeCommit("Cannot keep 2 tables [orders, users] in a bare single-instant checkpoint");
  }

  @Test
  void invalidPerTableOptionFails() {
    job.property("hoodie.streamer.source.hudi.orders.num_instants", "0");
    assertFailsBeforeCommit("hoodie.streamer.source.hudi.orders.num_instants=0 is not a whole number of at least 1");
  }

  @Test
  void conflictingValuesOfOnePerTableSettingFail() {
    job.property("hoodie.deltastreamer.source.hudi.users.num_instants", "3")
        .property("hoodie.streamer.source.hudi.users.num_instants", "4");
    assertFailsBeforeCommit("Cannot decide between hoodie.streamer.source.hudi.users.num_instants=4 and "
        + "hoodie.deltastreamer.source.hudi.users.num_instants=3");
  }

  @Test
  void legacyCheckpointTableThatIsNotConfiguredFails() {
    job.property("hoodie.streamer.source.multi.hudi.checkpoint.legacy.table", "payments");
    assertFailsBeforeCommit("Cannot use 'payments' as the legacy checkpoint table");
  }

  @Test
  void cdcDeltaOfATableWithoutChangeDataFailsAtStartup() {
    job.property("hoodie.streamer.source.hudi.orders.incr.format", "cdc");
    assertFailsBeforeCommit("Cannot read table 'orders' as CDC (hoodie.streamer.source.hudi.orders.incr.format=CDC): "
        + "its hoodie.properties at " + ordersPath + " does not set hoodie.table.cdc.enabled=true",
        "Create the table with hoodie.table.cdc.enabled=true, or set hoodie.streamer.source.hudi.orders.incr.format="
            + "LATEST_STATE");
  }

  @Test
  void resetOfATableThatIsNotConfiguredFails() {
    job.checkpoint("payments=LATEST");
    assertFailsBeforeCommit("Cannot reset table 'payments'");
  }

  private void assertFailsBeforeCommit(String... messageFragments) {
    Throwable failure = assertThrows(Throwable.class, job::syncInProcess);
    String messages = allMessages(failure);
    for (String fragment : messageFragments) {
      assertTrue(messages.contains(fragment), "expected '" + fragment + "' in: " + messages);
    }
    assertEquals(targetTimeline, HudiTables.allInstants(targetPath), "the target's timeline must be untouched");
    assertEquals(targetCheckpoint, HudiTables.lastCheckpoint(targetPath));
  }

  private static String allMessages(Throwable failure) {
    StringBuilder messages = new StringBuilder();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      messages.append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage()).append('\n');
    }
    return messages.toString();
  }
}
