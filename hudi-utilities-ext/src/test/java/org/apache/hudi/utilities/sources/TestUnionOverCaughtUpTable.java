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
import org.apache.hudi.utilities.testutils.StreamerJob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.USERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A table with nothing new must not change what the other tables' rows look like: a batch's SQL gives the same rows
 * for the tables that advanced whether or not another table is caught up.
 *
 * <p>Found by {@link TestMultiTableCrashSafety}. The shape that broke: a UNION ALL whose first branch reads the
 * caught-up table, and a later branch that selects one column twice ({@code user_id AS k, user_id}). When the
 * caught-up table's dataset was provably empty ({@code where(false)}), Spark 3.4.1 pruned that branch and then removed
 * the alias that kept the duplicated column unique in the branch that became the union's first child (the SPARK-39887
 * family), so the joined rows got the order id as their user id. A caught-up table's dataset is now backed by an empty
 * RDD, which the optimizer cannot prove empty.
 */
class TestUnionOverCaughtUpTable {

  @TempDir
  Path dir;

  @Test
  void rowsOfTheTablesThatAdvancedAreTheSameWhenAnotherTableIsCaughtUp() throws Exception {
    OrdersAndUsers tables = new OrdersAndUsers(dir, "target");
    String ordersPath = tables.ordersPath;
    String usersPath = tables.usersPath;
    String targetPath = tables.targetPath;
    StreamerJob job = tables.job()
        .property("hoodie.datasource.write.recordkey.field", "rk")
        .sql("CREATE OR REPLACE TEMPORARY VIEW orders_now USING hudi OPTIONS (path '" + ordersPath + "');\n"
            + "SELECT concat('orders:', order_id) AS rk, order_id AS k, user_id, user_name, ts\n"
            + "FROM (SELECT *, CAST(NULL AS STRING) AS user_name FROM <SRC:orders>)\n"
            + "UNION ALL\n"
            + "SELECT concat('users:', user_id), user_id, user_id, user_name, ts FROM <SRC:users>\n"
            + "UNION ALL\n"
            + "SELECT concat('join:', o.order_id), o.order_id, o.user_id, u.user_name, greatest(o.ts, u.ts)\n"
            + "FROM orders_now o JOIN <SRC:users> u ON o.user_id = u.user_id;\n");
    HudiTables.upsert(ordersPath, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o1", "u1", 10.0, 1L));
    HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alice", 1L));
    job.syncInProcess();
    assertEquals(List.of("[join:o1,o1,u1,alice,1]", "[orders:o1,o1,u1,null,1]", "[users:u1,u1,u1,alice,1]"),
        targetRows(targetPath), "both tables advanced");

    // Only users advances: orders is caught up, its dataset empty.
    HudiTables.upsert(usersPath, "users", "MERGE_ON_READ", "user_id", USERS, user("u1", "alicia", 2L));
    job.syncInProcess();
    assertEquals(List.of("[join:o1,o1,u1,alicia,2]", "[orders:o1,o1,u1,null,1]", "[users:u1,u1,u1,alicia,2]"),
        targetRows(targetPath), "orders caught up: the joined row must keep its user id");
  }

  private static List<String> targetRows(String targetPath) {
    return SharedSpark.session().read().format("hudi").load(targetPath)
        .selectExpr("rk", "k", "user_id", "user_name", "ts").collectAsList().stream().map(Object::toString).sorted()
        .collect(Collectors.toList());
  }
}
