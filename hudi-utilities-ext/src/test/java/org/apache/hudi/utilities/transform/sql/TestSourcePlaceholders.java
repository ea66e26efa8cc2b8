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

import org.apache.hudi.utilities.transform.sql.SourcePlaceholders.Kind;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders.Reference;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of how source placeholders of a SQL text are bound to the temp views of a batch.
 */
class TestSourcePlaceholders {

  private static final String ORDERS_VIEW = "HOODIE_SRC_TMP_TABLE_batch_0";
  private static final String USERS_VIEW = "HOODIE_SRC_TMP_TABLE_batch_1";
  private static final String VALID_PLACEHOLDERS = "[<SRC>, <SRC_0>, <SRC_1>, <SRC:db.orders>, <SRC:users>, "
      + "<SNAP_0>, <SNAP_1>, <SNAP:db.orders>, <SNAP:users>, <PREV_0>, <PREV_1>, <PREV:db.orders>, <PREV:users>]";

  private final SourcePlaceholders named =
      new SourcePlaceholders(List.of("db.orders", "users"), 2);
  private final SourcePlaceholders unnamed = new SourcePlaceholders(List.of(), 2);
  private static final List<String> VIEWS = List.of(ORDERS_VIEW, USERS_VIEW);

  @Test
  void bindsSrcToFirstDataset() {
    assertEquals("SELECT * FROM " + ORDERS_VIEW, bind(named, VIEWS, "SELECT * FROM <SRC>"));
    assertEquals("SELECT * FROM " + ORDERS_VIEW, bind(unnamed, VIEWS, "SELECT * FROM <SRC>"));
  }

  @Test
  void bindsIndexPlaceholdersToDatasetsInOrder() {
    assertEquals("SELECT * FROM " + ORDERS_VIEW + " o JOIN " + USERS_VIEW + " u ON o.user_id = u.id",
        bind(named, VIEWS, "SELECT * FROM <SRC_0> o JOIN <SRC_1> u ON o.user_id = u.id"));
  }

  @Test
  void bindsIndexPlaceholdersWhenDatasetsHaveNoTableNames() {
    assertEquals("SELECT * FROM " + USERS_VIEW + " UNION ALL SELECT * FROM " + ORDERS_VIEW,
        bind(unnamed, VIEWS, "SELECT * FROM <SRC_1> UNION ALL SELECT * FROM <SRC_0>"));
  }

  @Test
  void bindsNamePlaceholdersToDatasetOfThatTable() {
    assertEquals("SELECT * FROM " + ORDERS_VIEW + " o JOIN " + USERS_VIEW + " u",
        bind(named, VIEWS, "SELECT * FROM <SRC:db.orders> o JOIN <SRC:users> u"));
  }

  @Test
  void bindsNamePlaceholderRegardlessOfTableDeclarationOrder() {
    SourcePlaceholders reordered = new SourcePlaceholders(List.of("users", "db.orders"), 2);
    List<String> reorderedViews = List.of(USERS_VIEW, ORDERS_VIEW);

    assertEquals("SELECT * FROM " + ORDERS_VIEW, bind(reordered, reorderedViews, "SELECT * FROM <SRC:db.orders>"));
    assertEquals("SELECT * FROM " + USERS_VIEW, bind(reordered, reorderedViews, "SELECT * FROM <SRC:users>"));
  }

  @Test
  void bindsTheSamePlaceholderEveryTimeItOccurs() {
    assertEquals(
        "SELECT a.id FROM " + USERS_VIEW + " a JOIN " + USERS_VIEW + " b ON a.parent = b.id WHERE a.id IN "
            + "(SELECT user_id FROM " + ORDERS_VIEW + ") AND b.id IN (SELECT user_id FROM " + ORDERS_VIEW + ")",
        bind(named, VIEWS, "SELECT a.id FROM <SRC_1> a JOIN <SRC:users> b ON a.parent = b.id WHERE a.id IN "
            + "(SELECT user_id FROM <SRC>) AND b.id IN (SELECT user_id FROM <SRC_0>)"));
  }

  @Test
  void leavesTextWithoutPlaceholdersUnchanged() {
    String sql = "SELECT a, b FROM some_table WHERE a < 3 AND b > 4 AND c <> 'SRC'";

    assertEquals(sql, bind(named, VIEWS, sql));
    assertEquals("", bind(named, VIEWS, ""));
  }

  @Test
  void bindsViewNamesLiterallyEvenWithReplacementMetacharacters() {
    SourcePlaceholders dollar = new SourcePlaceholders(List.of(), 1);

    assertEquals("SELECT * FROM view$1\\x", bind(dollar, List.of("view$1\\x"), "SELECT * FROM <SRC>"));
  }

  @Test
  void rejectsIndexWithoutDatasetListingValidPlaceholders() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> bind(named, VIEWS, "SELECT * FROM <SRC_0> JOIN <SRC_7>"));

    String message = error.getMessage();
    assertTrue(message.contains("<SRC_7>"), message);
    assertTrue(message.contains("there are only 2 datasets"), message);
    assertTrue(message.contains(VALID_PLACEHOLDERS), message);
  }

  @Test
  void rejectsIndexJustPastTheLastDataset() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> bind(unnamed, VIEWS, "<SRC_2>"));

    assertTrue(error.getMessage().contains("<SRC_2>"), error.getMessage());
    assertTrue(error.getMessage().contains("[<SRC>, <SRC_0>, <SRC_1>, <SNAP_0>, <SNAP_1>, <PREV_0>, <PREV_1>]"), error.getMessage());
  }

  @Test
  void rejectsIndexTooLargeForAnIntegerNamingThePlaceholder() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> bind(named, VIEWS, "SELECT * FROM <SRC_99999999999>"));

    String message = error.getMessage();
    assertTrue(message.contains("<SRC_99999999999>"), message);
    assertTrue(message.contains(VALID_PLACEHOLDERS), message);
  }

  @Test
  void rejectsUnknownTableNameNamingIt() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> bind(named, VIEWS, "SELECT * FROM <SRC:orders>"));

    String message = error.getMessage();
    assertTrue(message.contains("<SRC:orders>"), message);
    assertTrue(message.contains("no configured table has that name"), message);
    assertTrue(message.contains(VALID_PLACEHOLDERS), message);
  }

  @Test
  void rejectsNamePlaceholderWhenDatasetsHaveNoTableNames() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> bind(unnamed, VIEWS, "SELECT * FROM <SRC:users>"));

    String message = error.getMessage();
    assertTrue(message.contains("<SRC:users>"), message);
    assertTrue(message.contains("hoodie.streamer.source.multi.hudi.tables"), message);
    assertTrue(message.contains("[<SRC>, <SRC_0>, <SRC_1>, <SNAP_0>, <SNAP_1>, <PREV_0>, <PREV_1>]"), message);
  }

  @Test
  void rejectsIndexPlaceholderThatIsNotANumber() {
    assertMalformedPlaceholder("<SRC_a>");
  }

  @Test
  void rejectsIndexPlaceholderWithDashInsteadOfUnderscore() {
    assertMalformedPlaceholder("<SRC-1>");
  }

  @Test
  void rejectsOtherSrcForms() {
    assertMalformedPlaceholder("<SRC_>");
    assertMalformedPlaceholder("<SRC:>");
    assertMalformedPlaceholder("<SRC 0>");
    assertMalformedPlaceholder("<SRCS>");
  }

  @Test
  void rejectsMalformedPlaceholderEvenAfterValidOnes() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> bind(named, VIEWS, "SELECT * FROM <SRC_0> JOIN <SRC:users> JOIN <SRC_x>"));

    assertTrue(error.getMessage().contains("<SRC_x>"), error.getMessage());
  }

  private void assertMalformedPlaceholder(String placeholder) {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> bind(named, VIEWS, "SELECT * FROM " + placeholder), placeholder);

    String message = error.getMessage();
    assertTrue(message.contains("placeholder " + placeholder + ":"), message);
    assertTrue(message.contains("not of the form <SRC>, <SRC_i>, <SRC:table>, <SNAP_i>"), message);
    assertTrue(message.contains(VALID_PLACEHOLDERS), message);
  }

  @Test
  void rejectsTableNamesWhoseCountDiffersFromViews() {
    IllegalArgumentException tooFew = assertThrows(IllegalArgumentException.class,
        () -> new SourcePlaceholders(List.of("db.orders"), 2));
    IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
        () -> new SourcePlaceholders(List.of("db.orders", "users", "items"), 2));

    assertTrue(tooFew.getMessage().contains("2 datasets with 1 table names [db.orders]"), tooFew.getMessage());
    assertTrue(tooMany.getMessage().contains("2 datasets with 3 table names"), tooMany.getMessage());
  }

  @Test
  void acceptsNoTableNamesForAnyNumberOfViews() {
    SourcePlaceholders three = new SourcePlaceholders(List.of(), 3);

    assertEquals("v0 v1 v2 v0", bind(three, List.of("v0", "v1", "v2"), "<SRC_0> <SRC_1> <SRC_2> <SRC>"));
  }

  @Test
  void snapshotAndPreviousPlaceholdersReferenceTablesByIndexOrName() {
    String sql = "SELECT * FROM <SRC:users> d JOIN <SNAP_0> s JOIN <PREV:db.orders> p JOIN <SNAP:users> su";

    assertEquals(List.of(new Reference(Kind.SRC, 1), new Reference(Kind.SNAP, 0), new Reference(Kind.PREV, 0),
        new Reference(Kind.SNAP, 1)), new ArrayList<>(named.referencesIn(sql)));
    assertEquals("SELECT * FROM SRC_1 d JOIN SNAP_0 s JOIN PREV_0 p JOIN SNAP_1 su",
        named.bind(sql, Reference::toString));
  }

  @Test
  void unknownSnapshotTableFailsListingTheValidPlaceholders() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> named.referencesIn("SELECT * FROM <SNAP:payments>"));
    assertTrue(error.getMessage().contains("Cannot bind SQL placeholder <SNAP:payments>: no configured table has that name"),
        error.getMessage());
    assertTrue(error.getMessage().contains("<PREV:users>"), error.getMessage());
    assertThrows(IllegalArgumentException.class, () -> named.referencesIn("SELECT * FROM <SNAP>"));
    assertThrows(IllegalArgumentException.class, () -> named.referencesIn("SELECT * FROM <PREV_2>"));
  }

  @Test
  void snapshotIndexPlaceholdersArePositional() {
    assertTrue(SourcePlaceholders.isPositional("SELECT * FROM <SNAP_1>"));
    assertFalse(SourcePlaceholders.isPositional("SELECT * FROM <SNAP:users> JOIN <SRC:db.orders>"));
  }

  /**
   * Found by TestSqlPlaceholderBinding: a placeholder inside a string literal or quoted identifier was bound (the
   * literal changed) or, when it named no dataset, failed the job.
   */
  @Test
  void placeholdersInsideLiteralsAndQuotedIdentifiersAreTextNeitherBoundNorChecked() {
    String sql = "SELECT '<SRC_1>' AS a, \"it\\\"s <SRC:nowhere>\" AS b, `<SRC_9>` FROM <SRC_1>";
    assertEquals("SELECT '<SRC_1>' AS a, \"it\\\"s <SRC:nowhere>\" AS b, `<SRC_9>` FROM " + USERS_VIEW,
        bind(named, VIEWS, sql));
    assertEquals(List.of(new Reference(Kind.SRC, 1)), new ArrayList<>(named.referencesIn(sql)));
    assertFalse(SourcePlaceholders.isPositional("SELECT * FROM <SRC:users> WHERE tag = '<SRC>' -- <SRC_0>"));
    assertEquals("SELECT /*+ BROADCAST(" + USERS_VIEW + ") */ * FROM " + USERS_VIEW,
        bind(named, VIEWS, "SELECT /*+ BROADCAST(<SRC_1>) */ * FROM <SRC_1>"));
  }

  private static String bind(SourcePlaceholders placeholders, List<String> views, String sql) {
    return placeholders.bind(sql, reference -> views.get(reference.index()));
  }
}
