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

package org.apache.hudi.utilities.transform.view;

import org.apache.hudi.utilities.config.HoodieViewConfig;
import org.apache.hudi.utilities.config.ViewDefinitionChange;
import org.apache.hudi.utilities.testutils.HudiTables;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A view edited between batches: given a target written by one definition, when the SQL file is edited and the next
 * sync runs, then the batch refuses before any commit, or (when asked) recomputes the target by the new definition,
 * or takes the new definition as recorded by a checkpoint override. What changes a definition is specified by
 * {@link org.apache.hudi.utilities.transform.TestViewDefinitionFingerprint}.
 */
class TestViewDefinitionChange {

  private static final String BIG_ORDERS = "SELECT o.order_id, o.amount, u.user_name FROM <TABLE:orders> o "
      + "LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id WHERE o.amount > 5";
  private static final String BIGGER_ORDERS = BIG_ORDERS.replace("o.amount > 5", "o.amount > 15");
  private static final Pattern VIEW_ENTRY = Pattern.compile(",@view=([0-9a-f]{16})$");

  @TempDir
  Path dir;

  @Test
  void editedFilterFailsTheNextBatchNamingBothDefinitionsAndCommitsNothing() throws Exception {
    ViewJob view = new ViewJob(dir, BIG_ORDERS, "order_id");
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1));
    view.users(user("u1", "ann", 1));
    view.sync();
    String written = definitionIn(HudiTables.lastCheckpoint(view.target));
    int commits = HudiTables.completedCommits(view.target);

    view.edit(BIGGER_ORDERS);
    String withoutNewData = view.failingSync();
    view.orders(order("o3", "u1", 30, 2));
    String withNewData = view.failingSync();

    for (String failure : List.of(withoutNewData, withNewData)) {
      assertTrue(failure.contains("the target was written by definition " + written) && failure.contains("Nothing was "
          + "committed") && failure.contains(HoodieViewConfig.DEFINITION_CHANGE.key() + "=REBUILD"), failure);
    }
    assertNotEquals(written, newDefinitionIn(withNewData));
    assertEquals(commits, HudiTables.completedCommits(view.target));
    assertEquals(List.of("[o1,10.0,ann]", "[o2,20.0,ann]"), view.rows(view.target()));
  }

  @Test
  void rebuildRecomputesTheTargetByTheNewDefinitionOnceThenBatchesGoOn() throws Exception {
    ViewJob view = new ViewJob(dir, BIG_ORDERS, "order_id");
    view.orders(order("o1", "u1", 10, 1), order("o2", "u1", 20, 1));
    view.users(user("u1", "ann", 1));
    view.sync();
    String written = definitionIn(HudiTables.lastCheckpoint(view.target));

    view.edit(BIGGER_ORDERS);
    view.job.property(HoodieViewConfig.DEFINITION_CHANGE.key(), ViewDefinitionChange.REBUILD.name());
    view.sync();

    assertEquals(List.of("[o2,20.0,ann]"), view.rows(view.target()), "o1 no longer passes the edited filter");
    String rebuilt = definitionIn(HudiTables.lastCheckpoint(view.target));
    assertNotEquals(written, rebuilt);

    view.orders(order("o3", "u1", 30, 2), order("o4", "u1", 12, 2));
    view.sync();
    assertEquals(rebuilt, definitionIn(HudiTables.lastCheckpoint(view.target)));
    view.assertTargetIsTheQuery();
  }

  @Test
  void editRecordedByCheckpointOverrideIsAcceptedWithoutRebuild() throws Exception {
    ViewJob view = new ViewJob(dir, BIG_ORDERS, "order_id");
    view.orders(order("o1", "u1", 10, 1));
    view.users(user("u1", "ann", 1));
    view.sync();
    String stored = HudiTables.lastCheckpoint(view.target);

    // Another alias: the query computes the same rows, but parses to another plan.
    view.edit(BIG_ORDERS.replace("o.", "ord.").replace(" o ", " ord "));
    String refused = newDefinitionIn(view.failingSync());
    view.job.checkpoint(stored.replace(definitionIn(stored), refused));
    view.orders(order("o2", "u1", 20, 2));
    view.sync();

    assertEquals(refused, definitionIn(HudiTables.lastCheckpoint(view.target)));
    view.assertTargetIsTheQuery();
  }

  /** The definition a checkpoint records. */
  private static String definitionIn(String checkpoint) {
    Matcher matcher = VIEW_ENTRY.matcher(checkpoint);
    assertTrue(matcher.find(), () -> "no @view entry ends checkpoint '" + checkpoint + "'");
    return matcher.group(1);
  }

  /** The definition a refusal names as the SQL file's. */
  private static String newDefinitionIn(String failure) {
    Matcher matcher = Pattern.compile("now defines ([0-9a-f]{16})").matcher(failure);
    assertTrue(matcher.find(), failure);
    return matcher.group(1);
  }
}
