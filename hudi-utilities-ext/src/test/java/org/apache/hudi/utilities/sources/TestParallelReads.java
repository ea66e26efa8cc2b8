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
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.exception.HoodieReadFromSourceException;
import org.apache.hudi.utilities.testutils.FetchedBatch;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reading the tables of a batch in parallel gives exactly what reading them one after another gives: the same rows,
 * checkpoints and manifest positions, batch after batch, with and without alignment; and the same failure.
 */
class TestParallelReads {

  @TempDir
  static Path dir;

  private static String ordersPath;
  private static String usersPath;
  private static String itemsPath;
  private static String o3;
  private static String u2;
  private static String i1;

  /**
   * orders: o1 o2 o3, read incrementally 2 commits per batch from its first commit; users: u1 u2, from the start by a
   * snapshot read; items: i1, from its latest commit. Commit order: o1 u1 o2 i1 u2 o3. Tests only read them.
   */
  @BeforeAll
  static void tables() {
    ordersPath = dir.resolve("orders").toUri().toString();
    usersPath = dir.resolve("users").toUri().toString();
    itemsPath = dir.resolve("items").toUri().toString();
    orders(order("o1", "u1", 1.0, 1L));
    users(user("u1", "alice", 1L));
    orders(order("o2", "u1", 2.0, 2L));
    i1 = HudiTables.upsert(itemsPath, "items", "COPY_ON_WRITE", "order_id", ORDERS, order("i1", "u1", 1.0, 1L));
    u2 = users(user("u2", "bob", 2L));
    o3 = orders(order("o3", "u2", 3.0, 3L));
  }

  @Test
  void parallelReadsGiveTheRowsAndCheckpointsOfSequentialReads() {
    List<FetchedBatch> sequential = batchesUntilCaughtUp(source(1, "NONE"));
    List<FetchedBatch> parallel = batchesUntilCaughtUp(source(3, "NONE"));

    assertEquals(List.of("items:i1:1", "orders:o1:1", "orders:o2:2", "users:u1:1", "users:u2:2"),
        sequential.get(0).rows());
    assertEquals(List.of("orders:o3:3"), sequential.get(1).rows());
    assertEquals("items=" + i1 + ",orders=" + o3 + ",users=" + u2, sequential.get(1).checkpoint());
    assertEquals(sequential, parallel);
  }

  @Test
  void parallelAlignedReadsGiveTheRowsAndCheckpointsOfSequentialAlignedReads() {
    List<FetchedBatch> sequential = batchesUntilCaughtUp(source(1, "COMMIT_TIME_CEILING"));
    List<FetchedBatch> parallel = batchesUntilCaughtUp(source(3, "COMMIT_TIME_CEILING"));

    // The first ceiling is orders' second commit (num_instants=2), so users reads u1 only and items waits at its
    // start; the next ones are items' commit, then users', then orders' (a quiet table is idle at once here).
    assertEquals(List.of("orders:o1:1", "orders:o2:2", "users:u1:1"), sequential.get(0).rows());
    assertEquals(List.of("items:i1:1"), sequential.get(1).rows());
    assertEquals(List.of("users:u2:2"), sequential.get(2).rows());
    assertEquals(List.of("orders:o3:3"), sequential.get(3).rows());
    assertEquals(sequential, parallel);
    assertEquals("items=" + i1 + ",orders=" + o3 + ",users=" + u2, sequential.get(sequential.size() - 1).checkpoint());
  }

  @Test
  void tableThatCannotBeReadFailsTheBatchAsItDoesSequentially() throws Exception {
    String notATable = Files.createDirectories(dir.resolve("not_a_table")).toUri().toString();

    String sequential = assertThrows(HoodieReadFromSourceException.class,
        () -> FetchedBatch.fetch(source(1, "NONE", notATable), "")).getMessage();
    String parallel = assertThrows(HoodieReadFromSourceException.class,
        () -> FetchedBatch.fetch(source(3, "NONE", notATable), "")).getMessage();

    assertEquals(sequential, parallel);
    assertTrue(parallel.startsWith("Cannot read table 'items'"), parallel);
  }

  /** Batches from no checkpoint until the source has nothing new; every manifest holds the batch's checkpoint. */
  private static List<FetchedBatch> batchesUntilCaughtUp(HoodieIncrMultiSource source) {
    List<FetchedBatch> batches = new ArrayList<>();
    String checkpoint = "orders=" + MultiTableCheckpoint.BEFORE_FIRST_INSTANT;
    for (int round = 0; round < 6; round++) {
      FetchedBatch batch = FetchedBatch.fetch(source, checkpoint);
      if (batch.checkpoint().equals(checkpoint)) {
        return batches;
      }
      assertEquals(batch.checkpoint(), batch.manifestPositions().get(), "the manifest's next positions");
      batches.add(batch);
      checkpoint = batch.checkpoint();
    }
    throw new AssertionError("never caught up: " + batches);
  }

  private static HoodieIncrMultiSource source(int parallelism, String alignment) {
    return source(parallelism, alignment, itemsPath);
  }

  private static HoodieIncrMultiSource source(int parallelism, String alignment, String itemsPath) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "items,orders,users");
    props.setProperty("hoodie.streamer.source.multi.hudi.read.parallelism", String.valueOf(parallelism));
    props.setProperty("hoodie.streamer.source.multi.hudi.alignment", alignment);
    props.setProperty("hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms", "0");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", ordersPath);
    props.setProperty("hoodie.streamer.source.hudi.orders.num_instants", "2");
    props.setProperty("hoodie.streamer.source.hudi.users.path", usersPath);
    props.setProperty("hoodie.streamer.source.hudi.users.missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT");
    props.setProperty("hoodie.streamer.source.hudi.items.path", itemsPath);
    return new HoodieIncrMultiSource(props, SharedSpark.jsc(), SharedSpark.session(), null);
  }

  private static String orders(Row... rows) {
    return HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, rows);
  }

  private static String users(Row... rows) {
    return HudiTables.upsert(usersPath, "users", "COPY_ON_WRITE", "user_id", USERS, rows);
  }
}
