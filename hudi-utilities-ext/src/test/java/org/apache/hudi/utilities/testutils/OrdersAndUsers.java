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

package org.apache.hudi.utilities.testutils;

import org.apache.spark.sql.Row;

import java.nio.file.Path;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;

/**
 * The sources of most tests, under one folder: {@code orders} (COPY_ON_WRITE, key order_id) and {@code users}
 * (MERGE_ON_READ, key user_id), and the multi-table Streamer target they feed.
 */
public final class OrdersAndUsers {

  public final String ordersPath;
  public final String usersPath;
  public final String targetPath;
  private final Path dir;

  public OrdersAndUsers(Path dir, String targetName) {
    this(dir, dir.toUri().toString(), targetName);
  }

  /**
   * The tables under another root, e.g. {@code s3a://bucket/lake}; the job's properties and SQL files stay in
   * {@code dir}.
   */
  public OrdersAndUsers(Path dir, String tablesRoot, String targetName) {
    String root = tablesRoot.endsWith("/") ? tablesRoot : tablesRoot + "/";
    this.dir = dir;
    this.ordersPath = root + "orders";
    this.usersPath = root + "users";
    this.targetPath = root + targetName;
  }

  /** The standard job over both tables, without SQL yet. */
  public StreamerJob job() {
    return StreamerJob.ordersAndUsers(dir, ordersPath, usersPath, targetPath);
  }

  /** Upserts orders; returns the instant of the commit. */
  public String orders(Row... rows) {
    return HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, rows);
  }

  /** Upserts users; returns the instant of the commit. */
  public String users(Row... rows) {
    return HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS, rows);
  }
}
