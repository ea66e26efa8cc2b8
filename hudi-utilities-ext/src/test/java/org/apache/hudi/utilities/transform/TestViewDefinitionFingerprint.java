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

package org.apache.hudi.utilities.transform;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What changes a view's fingerprint: what the query computes and the target's key, not how the file is laid out. */
class TestViewDefinitionFingerprint {

  private static final List<String> TABLES = List.of("orders", "users");
  private static final String GROUPED = "SELECT u.user_name, count(*) AS n, sum(o.amount) AS total FROM <TABLE:orders> o "
      + "JOIN <TABLE:users> u ON o.user_id = u.user_id WHERE o.amount > 5 GROUP BY u.user_name";

  @Test
  void theSameQueryHasTheSameFingerprintEveryTimeItIsParsed() {
    String first = fingerprint(GROUPED, TABLES, "user_name");

    assertTrue(first.matches("[0-9a-f]{16}"), first);
    assertEquals(first, fingerprint(GROUPED, TABLES, "user_name"), "aliases get new expression ids at each parse");
  }

  @Test
  void blanksCommentsAndKeywordCaseAreNoChange() {
    String reformatted = "-- per user\nselect u.user_name,\n       count(*) as n, sum(o.amount) as total /* all */\n"
        + "  from <TABLE:orders> o\n  join <TABLE:users> u on o.user_id = u.user_id\n where o.amount > 5\n"
        + " group by u.user_name";

    assertEquals(fingerprint(GROUPED, TABLES, "user_name"), fingerprint(reformatted, TABLES, "user_name"));
    assertEquals(fingerprint(GROUPED, TABLES, "user_name"), fingerprint(GROUPED, TABLES, " user_name "));
  }

  @Test
  void tableListReorderedUnderNamedPlaceholdersIsNoChange() {
    assertEquals(fingerprint(GROUPED, TABLES, "user_name"), fingerprint(GROUPED, List.of("users", "orders"),
        "user_name"));
  }

  @Test
  void whatTheQueryComputesAndTheTargetKeyAreChanges() {
    String written = fingerprint(GROUPED, TABLES, "user_name");

    assertNotEquals(written, fingerprint(GROUPED.replace("> 5", "> 15"), TABLES, "user_name"), "a filter's literal");
    assertNotEquals(written, fingerprint(GROUPED.replace("sum(o.amount)", "max(o.amount)"), TABLES, "user_name"));
    assertNotEquals(written, fingerprint(GROUPED.replace("AS total", "AS amount"), TABLES, "user_name"), "a column");
    assertNotEquals(written, fingerprint(GROUPED.replace("JOIN", "LEFT JOIN"), TABLES, "user_name"), "a join");
    assertNotEquals(written, fingerprint(GROUPED, TABLES, "user_name,n"), "the target's record key");
  }

  private static String fingerprint(String sql, List<String> tables, String recordKey) {
    TypedProperties properties = new TypedProperties();
    properties.setProperty("hoodie.datasource.write.recordkey.field", recordKey);
    return ViewDefinitionFingerprint.of(SharedSpark.session(), sql, "view.sql", new SourcePlaceholders(tables,
        tables.size()), tables, properties);
  }
}
