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

import org.apache.hudi.common.util.Option;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of which statements create a temporary view, and which view.
 */
class TestTemporaryView {

  @Test
  void recognisesCreateTemporaryView() {
    assertSessionView("staged", "CREATE TEMPORARY VIEW staged AS SELECT * FROM src");
  }

  @Test
  void recognisesCreateTempView() {
    assertSessionView("staged", "CREATE TEMP VIEW staged AS SELECT * FROM src");
  }

  @Test
  void recognisesCreateOrReplaceTempView() {
    assertSessionView("staged", "CREATE OR REPLACE TEMP VIEW staged AS SELECT * FROM src");
  }

  @Test
  void recognisesCreateOrReplaceTemporaryViewWithColumnList() {
    assertSessionView("staged", "CREATE OR REPLACE TEMPORARY VIEW staged(id, name) AS SELECT a, b FROM src");
  }

  @Test
  void recognisesCreateGlobalTemporaryViewAsGlobal() {
    TemporaryView view = viewCreatedBy("CREATE GLOBAL TEMPORARY VIEW shared AS SELECT * FROM src");

    assertEquals("shared", view.name());
    assertTrue(view.isGlobal());
  }

  @Test
  void recognisesCreateOrReplaceGlobalTempViewAsGlobal() {
    TemporaryView view = viewCreatedBy("CREATE OR REPLACE GLOBAL TEMP VIEW shared AS SELECT * FROM src");

    assertEquals("shared", view.name());
    assertTrue(view.isGlobal());
  }

  @Test
  void recognisesIfNotExists() {
    assertSessionView("staged", "CREATE TEMPORARY VIEW IF NOT EXISTS staged AS SELECT * FROM src");
  }

  @Test
  void recognisesIfNotExistsOnGlobalView() {
    TemporaryView view = viewCreatedBy("CREATE GLOBAL TEMP VIEW IF NOT EXISTS shared AS SELECT 1");

    assertEquals("shared", view.name());
    assertTrue(view.isGlobal());
  }

  @Test
  void recognisesLowerCaseKeywords() {
    assertSessionView("staged", "create or replace temporary view staged as select * from src");
    TemporaryView global = viewCreatedBy("create global temp view if not exists shared as select 1");
    assertEquals("shared", global.name());
    assertTrue(global.isGlobal());
  }

  @Test
  void recognisesStatementSpreadOverLines() {
    assertSessionView("staged", "\n  CREATE OR REPLACE\n  TEMPORARY VIEW\n    staged\n  AS SELECT * FROM src");
  }

  @Test
  void unquotesBackquotedNameWithSpaces() {
    assertSessionView("my staged view", "CREATE TEMPORARY VIEW `my staged view` AS SELECT * FROM src");
  }

  @Test
  void unquotesDoubledBackquotesInBackquotedName() {
    assertSessionView("odd`name", "CREATE TEMP VIEW `odd``name` AS SELECT 1");
    assertSessionView("``", "CREATE TEMP VIEW `````` AS SELECT 1");
  }

  @Test
  void unquotesBackquotedNameOfIfNotExistsAndGlobalViews() {
    TemporaryView view = viewCreatedBy("CREATE GLOBAL TEMPORARY VIEW IF NOT EXISTS `shared view` AS SELECT 1");

    assertEquals("shared view", view.name());
    assertTrue(view.isGlobal());
  }

  @Test
  void recognisesCacheTable() {
    assertSessionView("cached", "CACHE TABLE cached AS SELECT * FROM src");
  }

  @Test
  void recognisesCacheLazyTable() {
    assertSessionView("cached", "CACHE LAZY TABLE cached AS SELECT * FROM src");
  }

  @Test
  void recognisesLowerCaseCacheTableWithBackquotedName() {
    assertSessionView("cached rows", "cache lazy table `cached rows` as select * from src");
  }

  @Test
  void recognisesViewOfStatementStartingWithComment() {
    // SqlStatements keeps the comments that precede a statement, so this is what a commented SQL file hands over.
    String statement = SqlStatements.split("-- stage the orders\nCREATE TEMPORARY VIEW staged AS SELECT 1;").get(0);

    assertSessionView("staged", statement);
  }

  @Test
  void createsNoViewForSelect() {
    assertEquals(Option.empty(), TemporaryView.createdBy("SELECT * FROM src"));
  }

  @Test
  void createsNoViewForCreateTable() {
    assertEquals(Option.empty(), TemporaryView.createdBy("CREATE TABLE t USING parquet AS SELECT * FROM src"));
    assertEquals(Option.empty(), TemporaryView.createdBy("CREATE OR REPLACE TABLE t AS SELECT * FROM src"));
  }

  @Test
  void createsNoViewForPermanentView() {
    assertEquals(Option.empty(), TemporaryView.createdBy("CREATE VIEW v AS SELECT * FROM src"));
    assertEquals(Option.empty(), TemporaryView.createdBy("CREATE OR REPLACE VIEW v AS SELECT * FROM src"));
  }

  @Test
  void createsNoViewForInsert() {
    assertEquals(Option.empty(), TemporaryView.createdBy("INSERT INTO t SELECT * FROM src"));
    assertEquals(Option.empty(), TemporaryView.createdBy("INSERT OVERWRITE TABLE t SELECT * FROM src"));
  }

  @Test
  void createsNoViewForOtherStatements() {
    for (String statement : List.of("UNCACHE TABLE cached", "DROP VIEW IF EXISTS staged", "WITH x AS (SELECT 1) "
        + "SELECT * FROM x", "SELECT 'CREATE TEMP VIEW v' AS text", "")) {
      assertEquals(Option.empty(), TemporaryView.createdBy(statement), statement);
    }
  }

  @Test
  void viewsWithNamesDifferingOnlyInCaseAreEqual() {
    TemporaryView upper = viewCreatedBy("CREATE TEMP VIEW STAGED AS SELECT 1");
    TemporaryView lower = viewCreatedBy("CACHE TABLE staged AS SELECT 1");

    assertEquals(upper, lower);
    assertEquals(upper.hashCode(), lower.hashCode());
    assertEquals("STAGED", upper.name());
  }

  @Test
  void sessionAndGlobalViewsOfTheSameNameDiffer() {
    TemporaryView session = viewCreatedBy("CREATE TEMP VIEW v AS SELECT 1");
    TemporaryView global = viewCreatedBy("CREATE GLOBAL TEMP VIEW v AS SELECT 1");

    assertNotEquals(session, global);
    assertEquals("temp view v", session.toString());
    assertEquals("global temp view v", global.toString());
  }

  private static TemporaryView viewCreatedBy(String statement) {
    Option<TemporaryView> view = TemporaryView.createdBy(statement);
    assertTrue(view.isPresent(), "creates a view: " + statement);
    return view.get();
  }

  private static void assertSessionView(String expectedName, String statement) {
    TemporaryView view = viewCreatedBy(statement);
    assertEquals(expectedName, view.name(), statement);
    assertFalse(view.isGlobal(), statement);
  }
}
