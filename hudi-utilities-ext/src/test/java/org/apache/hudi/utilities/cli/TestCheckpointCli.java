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

package org.apache.hudi.utilities.cli;

import org.apache.hudi.utilities.testutils.CapturedRun;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsersPipeline;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checkpoint tools over a real pipeline: {@code show} reads the target's stored checkpoint and each source's
 * retention, {@code override} builds the {@code --checkpoint} that the Streamer then applies.
 */
class TestCheckpointCli extends OrdersAndUsersPipeline {

  TestCheckpointCli() {
    super("read_log");
  }

  @BeforeEach
  void readLog() {
    logReads();
  }

  @Test
  void showPrintsEachTablesPositionAndWhetherItsNextBatchIsStillReadable() throws Exception {
    String orders1 = tables.ordersKeepingCommits(1, order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.syncInProcess();

    CapturedRun readable = run("show", "--props", props, "--target-base-path", tables.targetPath);
    assertEquals(0, readable.exitCode, readable.output);
    assertTrue(readable.output.startsWith("Target " + tables.targetPath + ": checkpoint 'orders=" + orders1 + ",users="
        + users1 + "' stored by commit " + HudiTables.lastCompletedInstant(tables.targetPath).get()
        + " (1 commits searched)"), readable.output);
    assertTrue(readable.output.matches("(?s).*\\norders +" + orders1 + " +[0-9hms.]+ +yes +yes +unbounded \\(never "
        + "cleaned or archived\\)\\n.*"), readable.output);
    assertTrue(readable.output.matches("(?s).*\\nusers +" + users1 + " +[0-9hms.]+ +yes +yes +unbounded.*"),
        readable.output);

    // --hoodie-conf overrides --props, as the Streamer's does (the demo passes the source paths this way).
    String elsewhere = dir.resolve("elsewhere").toUri().toString();
    CapturedRun overridden = run("show", "--props", props, "--hoodie-conf",
        "hoodie.streamer.source.hudi.users.path=" + elsewhere, "--target-base-path", tables.targetPath);
    assertEquals(0, overridden.exitCode, overridden.output);
    assertTrue(overridden.output.contains("\nusers            <none>               not a Hudi table: " + elsewhere),
        overridden.output);

    // Each orders commit rewrites o1's file; keeping one commit, the cleaner removes what the next batch would read.
    String orders2 = tables.ordersKeepingCommits(1, order("o1", "u1", 2.0, 2L));
    tables.ordersKeepingCommits(1, order("o1", "u1", 3.0, 3L));
    String orders4 = tables.ordersKeepingCommits(1, order("o1", "u1", 4.0, 4L));
    CapturedRun cleaned = run("show", "--props", props, "--target-base-path", tables.targetPath);
    assertEquals(1, cleaned.exitCode, cleaned.output);
    assertTrue(cleaned.output.matches("(?s).*\\norders +" + orders1 + " +[0-9hms.]+ +yes +no: \\[" + orders2
        + ".*\\] +0 commits, .* after " + orders4 + "\\n.*"), cleaned.output);
  }

  @Test
  void overrideMovesTheNamedTablesKeepsTheOthersAndTheStreamerAppliesIt() throws Exception {
    String orders1 = tables.ordersKeepingCommits(1, order("o1", "u1", 1.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L));
    job.syncInProcess();
    String users2 = tables.users(user("u2", "bob", 2L));

    CapturedRun latest = run("override", "--props", props, "--target-base-path", tables.targetPath, "--set", "users=LATEST");
    assertEquals(0, latest.exitCode, latest.output);
    assertEquals("--checkpoint 'orders=" + orders1 + ",users=LATEST'\n", latest.output);
    job.checkpoint("orders=" + orders1 + ",users=LATEST").syncInProcess();
    assertEquals("orders=" + orders1 + ",users=" + users2, HudiTables.lastCheckpoint(tables.targetPath));

    // users moved to an instant of orders (a mistake, or a time): allowed, and the tool says where users resumes.
    CapturedRun earliest = run("override", "--props", props, "--target-base-path", tables.targetPath,
        "--set", "orders=EARLIEST", "--set", "users=" + orders1);
    assertEquals(0, earliest.exitCode, earliest.output);
    assertEquals("--checkpoint 'users=" + orders1 + ",orders=EARLIEST'\nNote: users=" + orders1 + " is not a commit of "
        + "users: it resumes with the 2 commits of users after it (" + users1 + " to " + users2 + ")\n",
        earliest.output);

    CapturedRun unknown = run("override", "--props", props, "--target-base-path", tables.targetPath, "--set", "items=LATEST");
    assertEquals(2, unknown.exitCode, unknown.output);
    assertTrue(unknown.output.contains("Cannot move table 'items': it is not one of the configured tables [orders, "
        + "users]"), unknown.output);
    CapturedRun noCommand = run("--props", props, "--target-base-path", tables.targetPath);
    assertEquals(2, noCommand.exitCode, noCommand.output);
  }

  private static CapturedRun run(String... args) {
    return CapturedRun.of(out -> CheckpointCli.run(args, out, Clock.systemUTC(), SharedSpark.jsc().hadoopConfiguration()));
  }
}
