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

package org.apache.hudi.utilities.transform.sql;

import org.apache.hudi.utilities.testutils.SharedSpark;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which snapshot views the pushdown may restrict: only those joined directly with a delta on an equality, on a side
 * that cannot produce rows without a match.
 */
class TestDeltaKeyJoins {

  private static final Set<String> SNAPSHOTS = Set.of("snap_users", "snap_orders", "prev_users");
  private static final Set<String> DELTAS = Set.of("src_orders", "src_users");

  @Test
  void theRecipesJoinsRestrictBothSnapshotsByTheirDeltasKeys() {
    assertEquals(List.of("snap_users.user_id = src_orders.user_id", "snap_orders.user_id = src_users.user_id"),
        keyJoins("SELECT o.order_id, u.user_name FROM src_orders o JOIN snap_users u ON o.user_id = u.user_id "
            + "UNION ALL SELECT o.order_id, u.user_name FROM SNAP_ORDERS o JOIN src_users u ON u.user_id = o.user_id"));
  }

  @Test
  void theCdcRecipesJoinsOnImageFieldsRestrictEachSnapshotOccurrenceByItsOwnField() {
    // As the transformer binds it: every placeholder occurrence is a view of its own.
    Set<String> snapshots = Set.of("snap_users_0", "snap_orders_1", "snap_orders_2");
    assertEquals(List.of("snap_users_0.user_id = src_orders.after.user_id",
            "snap_orders_1.user_id = src_users.after.USER_ID", "snap_orders_2.user_id = src_users.before.user_id"),
        keyJoins("SELECT o.after.order_id FROM src_orders o LEFT JOIN snap_users_0 u ON o.after.user_id = u.user_id "
            + "WHERE o.op <> 'd' UNION ALL SELECT s.order_id FROM snap_orders_1 s JOIN src_users u "
            + "ON s.user_id = U.after.USER_ID WHERE u.op <> 'd' UNION ALL SELECT s.order_id FROM snap_orders_2 s "
            + "JOIN src_users u ON u.before.user_id = s.user_id WHERE u.op = 'd'", snapshots));
  }

  @Test
  void onlyTheDeltaSideMayBeANestedFieldAndOnlyOneLevelDeep() {
    assertEquals(List.of(), keyJoins("SELECT * FROM src_users u JOIN snap_orders s ON s.address.user_id = u.user_id"));
    assertEquals(List.of(), keyJoins("SELECT * FROM src_users u JOIN snap_orders s ON s.user_id = u.after.id.value"));
    assertEquals(List.of(), keyJoins("SELECT * FROM src_users u JOIN snap_orders s ON s.user_id = after.user_id"));
  }

  @Test
  void theSnapshotSideOfLeftSemiAntiAndOuterJoinsIsRestrictedOnlyWhereItCannotAddRows() {
    assertEquals(List.of("snap_users.user_id = src_orders.user_id"),
        keyJoins("SELECT * FROM src_orders o LEFT ANTI JOIN snap_users u ON o.user_id = u.user_id AND u.ts > 0"));
    assertEquals(List.of("snap_users.user_id = src_orders.user_id"),
        keyJoins("SELECT * FROM snap_users u RIGHT JOIN src_orders o ON o.user_id = u.user_id"));
    assertEquals(List.of(), keyJoins("SELECT * FROM snap_users u LEFT JOIN src_orders o ON o.user_id = u.user_id"));
    assertEquals(List.of(), keyJoins("SELECT * FROM src_orders o FULL JOIN snap_users u ON o.user_id = u.user_id"));
  }

  @Test
  void joinsWhoseShapeIsNotPlainAreNotRestricted() {
    // a disjunction, an unqualified column, a join of two snapshots, a delta behind a subquery, USING
    assertEquals(List.of(), keyJoins("SELECT * FROM src_orders o JOIN snap_users u ON o.user_id = u.user_id OR "
        + "o.ts = u.ts"));
    assertEquals(List.of(), keyJoins("SELECT * FROM src_orders o JOIN snap_users u ON o.user_id = user_name"));
    assertEquals(List.of(), keyJoins("SELECT * FROM snap_orders o JOIN prev_users u ON o.user_id = u.user_id"));
    assertEquals(List.of(), keyJoins("SELECT * FROM (SELECT * FROM src_orders) o JOIN snap_users u "
        + "ON o.user_id = u.user_id"));
    assertEquals(List.of(), keyJoins("SELECT * FROM src_orders JOIN snap_users USING (user_id)"));
    assertEquals(List.of(), keyJoins("this is not SQL"));
  }

  private static List<String> keyJoins(String sql) {
    return keyJoins(sql, SNAPSHOTS);
  }

  private static List<String> keyJoins(String sql, Set<String> snapshots) {
    return DeltaKeyJoins.in(SharedSpark.session(), sql, snapshots, DELTAS).stream().map(Object::toString)
        .collect(Collectors.toList());
  }
}
