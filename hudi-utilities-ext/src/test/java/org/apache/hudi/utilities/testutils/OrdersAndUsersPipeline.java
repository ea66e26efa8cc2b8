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

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * The fixture of tests over one multi-table pipeline: the sources {@code orders} and {@code users} and the target,
 * under a temporary folder of their own ({@link OrdersAndUsers}), and the Streamer job over both ({@link StreamerJob},
 * without SQL yet), created empty before each test. A test class names its target in its constructor and configures
 * the job in its own {@code @BeforeEach}, which JUnit runs after this class's.
 */
public abstract class OrdersAndUsersPipeline {

  /** The SQL of a read log: one row per source row version read, keyed {@code read_id = &lt;table&gt;:&lt;key&gt;:&lt;ts&gt;}. */
  protected static final String READ_LOG_SQL =
      "SELECT concat('orders:', order_id, ':', ts) AS read_id, ts FROM <SRC:orders>\n"
      + "UNION ALL\n"
      + "SELECT concat('users:', user_id, ':', ts) AS read_id, ts FROM <SRC:users>";

  /** The folder of the tables, the job's properties and SQL files, and anything else a test writes. */
  @TempDir
  protected Path dir;

  protected OrdersAndUsers tables;
  protected StreamerJob job;
  /** The URI of the job's properties file, as tools take it in {@code --props}; each run of the job rewrites it. */
  protected String props;

  private final String targetName;

  /** The pipeline into a target folder named {@code targetName}. */
  protected OrdersAndUsersPipeline(String targetName) {
    this.targetName = targetName;
  }

  @BeforeEach
  protected final void emptyPipeline() {
    tables = new OrdersAndUsers(dir, targetName);
    job = tables.job();
    props = job.propertiesFile().toUri().toString();
  }

  /** Makes the target a read log: keyed on {@code read_id}, written by {@link #READ_LOG_SQL}. */
  protected final void logReads() {
    job.property("hoodie.datasource.write.recordkey.field", "read_id").sql(READ_LOG_SQL);
  }
}
