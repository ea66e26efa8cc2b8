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

package org.apache.hudi.utilities.checkpoint;

import org.apache.hudi.common.util.Option;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of the multi-table checkpoint: its value semantics ({@link MultiTableCheckpoint}) and its text form,
 * strict parsing and merging ({@link MultiTableCheckpointManager}).
 */
class TestMultiTableCheckpointManager {

  private static final String ORDERS_INSTANT = "20250606182826197";
  private static final String USERS_INSTANT = "20250606182830145";
  private static final String ITEMS_INSTANT = "20250606182900001";

  private static final List<String> TABLES = List.of("users", "db.orders", "items");
  private static final String REPAIR_VALUE = "users=<instant>,db.orders=<instant>,items=<instant>";

  private final MultiTableCheckpointManager manager = new MultiTableCheckpointManager(TABLES, "users", true, false);

  // ---------------------------------------------------------------------------------------------------------------
  // Multi-table form: parse / format round trips
  // ---------------------------------------------------------------------------------------------------------------

  /**
   * Found by TestMultiTableCheckpointGrammar (format(parse(s)) is a fixed point): "@order = ..." with blanks was read as
   * a table named "@order", whose formatted entry "@order=..." then parsed as the order entry, losing the position.
   */
  @Test
  void orderKeyWithBlanksAroundItsSeparatorIsTheOrderEntryNotATable() {
    RequestedCheckpoint request = manager.parseRequest(
        "users=" + USERS_INSTANT + ", db.orders=" + ORDERS_INSTANT + " , @order = db.orders|users ");
    assertEquals(Map.of("users", USERS_INSTANT, "db.orders", ORDERS_INSTANT), request.positions().positions());
    assertEquals(List.of("db.orders", "users"), request.tableOrder());
    String formatted = manager.format(request.positions());
    assertEquals(formatted, manager.format(manager.parse(formatted)));
  }

  @Test
  void parsesMultiTableFormIntoOnePositionPerTable() {
    MultiTableCheckpoint checkpoint = manager.parse("db.orders=" + ORDERS_INSTANT + ",users=" + USERS_INSTANT);

    assertEquals(Map.of("db.orders", ORDERS_INSTANT, "users", USERS_INSTANT), checkpoint.positions());
    assertEquals(Option.of(ORDERS_INSTANT), checkpoint.position("db.orders"));
    assertEquals(Option.of(USERS_INSTANT), checkpoint.position("users"));
    assertEquals(Option.empty(), checkpoint.position("items"));
  }

  @Test
  void formatsAndParsesBackTheSameCheckpoint() {
    MultiTableCheckpoint checkpoint = MultiTableCheckpoint.of(
        Map.of("users", USERS_INSTANT, "db.orders", ORDERS_INSTANT, "items", ITEMS_INSTANT));

    String formatted = manager.format(checkpoint);

    assertEquals(checkpoint, manager.parse(formatted));
    assertEquals(formatted, manager.format(manager.parse(formatted)));
  }

  @Test
  void formatsTablesInNameOrderRegardlessOfInsertionOrder() {
    Map<String, String> reversed = new LinkedHashMap<>();
    reversed.put("users", USERS_INSTANT);
    reversed.put("items", ITEMS_INSTANT);
    reversed.put("db.orders", ORDERS_INSTANT);

    assertEquals("db.orders=" + ORDERS_INSTANT + ",items=" + ITEMS_INSTANT + ",users=" + USERS_INSTANT
        + ",@order=users|db.orders|items", manager.format(MultiTableCheckpoint.of(reversed)));
  }

  @Test
  void formatsTablesInNameOrderRegardlessOfParsedOrder() {
    String unordered = "users=" + USERS_INSTANT + ",items=" + ITEMS_INSTANT + ",db.orders=" + ORDERS_INSTANT;

    assertEquals("db.orders=" + ORDERS_INSTANT + ",items=" + ITEMS_INSTANT + ",users=" + USERS_INSTANT
        + ",@order=users|db.orders|items", manager.format(manager.parse(unordered)));
  }

  @Test
  void writesNoOrderEntryWhenTablesAreDeclaredInNameOrder() {
    MultiTableCheckpointManager nameOrdered = new MultiTableCheckpointManager(List.of("orders", "users"), "orders",
        true, false);
    String formatted = nameOrdered.format(MultiTableCheckpoint.of(Map.of("users", USERS_INSTANT, "orders", ORDERS_INSTANT)));

    assertEquals("orders=" + ORDERS_INSTANT + ",users=" + USERS_INSTANT, formatted);
    assertEquals(List.of("orders", "users"), nameOrdered.parseRequest(formatted).tableOrder());
  }

  @Test
  void readsTheDeclaredOrderBackFromTheOrderEntry() {
    String formatted = manager.format(MultiTableCheckpoint.of(Map.of("users", USERS_INSTANT, "items", ITEMS_INSTANT)));

    assertEquals("items=" + ITEMS_INSTANT + ",users=" + USERS_INSTANT + ",@order=users|items", formatted);
    assertEquals(List.of("users", "items"), manager.parseRequest(formatted).tableOrder());
    assertEquals(MultiTableCheckpoint.of(Map.of("users", USERS_INSTANT, "items", ITEMS_INSTANT)), manager.parse(formatted));
  }

  @Test
  void recordsTheViewDefinitionLastAndReadsItBack() {
    MultiTableCheckpoint positions = MultiTableCheckpoint.of(Map.of("users", USERS_INSTANT, "items", ITEMS_INSTANT));

    String formatted = manager.format(positions, Option.of("0123456789abcdef"));

    assertEquals("items=" + ITEMS_INSTANT + ",users=" + USERS_INSTANT + ",@order=users|items,@view=0123456789abcdef",
        formatted);
    assertEquals(Option.of("0123456789abcdef"), manager.parseRequest(formatted).viewDefinition());
    assertEquals(positions, manager.parse(formatted));
    assertEquals(List.of("users", "items"), manager.parseRequest(formatted).tableOrder());
    assertEquals(Option.empty(), manager.parseRequest(manager.format(positions)).viewDefinition());
    assertEquals("", manager.format(MultiTableCheckpoint.of(Map.of()), Option.of("0123456789abcdef")),
        "a checkpoint without positions stays empty");
  }

  @Test
  void rejectsAViewEntryThatIsNoFingerprint() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> manager.parse("users=" + USERS_INSTANT + ",@view=edited"));

    assertTrue(e.getMessage().contains("entry '@view=edited'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> manager.format(MultiTableCheckpoint.of(Map.of("users",
        USERS_INSTANT)), Option.of("edited")));
  }

  @Test
  void overrideNamesSomeTablesAndResetsOthersByName() {
    RequestedCheckpoint request = manager.parseRequest("users=" + USERS_INSTANT + ",items=latest,db.orders=EARLIEST");

    assertEquals(MultiTableCheckpoint.of(Map.of("users", USERS_INSTANT)), request.positions());
    assertEquals(Map.of("items", TableReset.LATEST, "db.orders", TableReset.EARLIEST), request.resets());
    assertFalse(request.isCompleteFor(TABLES));
    assertTrue(manager.parseRequest("users=1,db.orders=2,items=3").isCompleteFor(TABLES));
  }

  @Test
  void resolvesAnOverrideOnTopOfTheStoredPositions() {
    MultiTableCheckpoint stored = MultiTableCheckpoint.of(Map.of("users", "100", "db.orders", "200", "items", "300"));
    RequestedCheckpoint request = manager.parseRequest("users=150,items=LATEST");

    MultiTableCheckpoint resolved = manager.resolve(stored, request, table -> Option.of("999"));

    assertEquals(MultiTableCheckpoint.of(Map.of("users", "150", "db.orders", "200", "items", "999")), resolved);
    assertEquals(MultiTableCheckpoint.of(Map.of("users", "100", "db.orders", MultiTableCheckpoint.BEFORE_FIRST_INSTANT,
        "items", "300")), manager.resolve(stored, manager.parseRequest("db.orders=EARLIEST"), table -> Option.empty()));
  }

  @Test
  void storedCheckpointsNeverAskForResets() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> manager.parse("users=LATEST"));
    assertTrue(error.getMessage().contains("only a --checkpoint override"), error.getMessage());
  }

  @Test
  void lenientParsingSkipsMalformedEntriesAndKnowsWhichTablesTheyConcern() {
    MultiTableCheckpointManager lenient = new MultiTableCheckpointManager(TABLES, "users", true, true);

    RequestedCheckpoint request = lenient.parseRequest("users=" + USERS_INSTANT + ",items=abc");

    assertEquals(MultiTableCheckpoint.of(Map.of("users", USERS_INSTANT)), request.positions());
    assertEquals(List.of("items=abc"), request.malformedEntries());
    assertTrue(request.mayHaveLostPositionOf("items"));
    assertFalse(request.mayHaveLostPositionOf("db.orders"));
    assertTrue(lenient.parseRequest("garbage,users=1").mayHaveLostPositionOf("db.orders"));
  }

  @Test
  void keepsDotsOfQualifiedTableNames() {
    MultiTableCheckpoint checkpoint = manager.parse("db.orders=" + ORDERS_INSTANT);

    assertEquals(Option.of(ORDERS_INSTANT), checkpoint.position("db.orders"));
    assertEquals(Option.empty(), checkpoint.position("orders"));
    assertEquals("db.orders=" + ORDERS_INSTANT, manager.format(checkpoint));
  }

  @Test
  void formatsTheSameStateToTheSameStringEveryTime() {
    Map<String, String> oneOrder = new LinkedHashMap<>();
    oneOrder.put("db.orders", ORDERS_INSTANT);
    oneOrder.put("users", USERS_INSTANT);
    Map<String, String> otherOrder = new LinkedHashMap<>();
    otherOrder.put("users", USERS_INSTANT);
    otherOrder.put("db.orders", ORDERS_INSTANT);
    MultiTableCheckpoint built = MultiTableCheckpoint.of(oneOrder);
    MultiTableCheckpoint builtStepwise = MultiTableCheckpoint.empty()
        .withPosition("users", USERS_INSTANT).withPosition("db.orders", ORDERS_INSTANT);

    String expected = "db.orders=" + ORDERS_INSTANT + ",users=" + USERS_INSTANT + ",@order=users|db.orders";
    assertEquals(expected, manager.format(built));
    assertEquals(expected, manager.format(built));
    assertEquals(expected, manager.format(MultiTableCheckpoint.of(otherOrder)));
    assertEquals(expected, manager.format(builtStepwise));
  }

  @Test
  void toleratesWhitespaceAroundEntries() {
    MultiTableCheckpoint checkpoint = manager.parse("  db.orders = " + ORDERS_INSTANT + " , users=" + USERS_INSTANT + " ");

    assertEquals(Map.of("db.orders", ORDERS_INSTANT, "users", USERS_INSTANT), checkpoint.positions());
  }

  @Test
  void formatsAnEmptyCheckpointAsAnEmptyString() {
    assertEquals("", manager.format(MultiTableCheckpoint.empty()));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // No checkpoint
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void parsesNullAsEmptyCheckpoint() {
    assertTrue(manager.parse(null).isEmpty());
  }

  @Test
  void parsesEmptyStringAsEmptyCheckpoint() {
    assertTrue(manager.parse("").isEmpty());
  }

  @Test
  void parsesBlankStringAsEmptyCheckpoint() {
    MultiTableCheckpoint checkpoint = manager.parse(" \t\n ");

    assertTrue(checkpoint.isEmpty());
    assertEquals(MultiTableCheckpoint.empty(), checkpoint);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Legacy bare instant
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void parsesLegacyBareInstantAsPositionOfLegacyTable() {
    MultiTableCheckpointManager firstIsLegacy = new MultiTableCheckpointManager(List.of("orders", "users"), "orders", true, false);

    MultiTableCheckpoint checkpoint = firstIsLegacy.parse(ORDERS_INSTANT);

    assertEquals(Map.of("orders", ORDERS_INSTANT), checkpoint.positions());
  }

  @Test
  void parsesLegacyBareInstantAsPositionOfNonFirstLegacyTable() {
    MultiTableCheckpointManager lastIsLegacy = new MultiTableCheckpointManager(List.of("orders", "users"), "users", true, false);

    MultiTableCheckpoint checkpoint = lastIsLegacy.parse(" " + USERS_INSTANT + " ");

    assertEquals(Map.of("users", USERS_INSTANT), checkpoint.positions());
    assertEquals(Option.empty(), checkpoint.position("orders"));
  }

  @Test
  void upgradesLegacyBareInstantToMultiTableFormOnNextWrite() {
    MultiTableCheckpoint checkpoint = manager.parse(USERS_INSTANT);

    assertEquals("users=" + USERS_INSTANT, manager.format(checkpoint));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Strict parsing
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void rejectsEntryWithoutPositionSeparator() {
    assertMalformed("db.orders=" + ORDERS_INSTANT + ",users", "users");
  }

  @Test
  void rejectsEntryWithTwoPositionSeparators() {
    assertMalformed("db.orders=" + ORDERS_INSTANT + "=" + USERS_INSTANT,
        "db.orders=" + ORDERS_INSTANT + "=" + USERS_INSTANT);
  }

  @Test
  void rejectsEntryWithEmptyTableName() {
    assertMalformed("=123", "=123");
  }

  @Test
  void rejectsEntryWithNonDigitInstant() {
    String message = assertMalformed("orders=abc", "orders=abc");

    assertTrue(message.contains("'abc'"), message);
  }

  @Test
  void rejectsEntryWithEmptyInstant() {
    assertMalformed("users=" + USERS_INSTANT + ",items=", "items=");
  }

  @Test
  void rejectsRepeatedTable() {
    String message = assertMalformed("users=" + USERS_INSTANT + ",users=" + ITEMS_INSTANT, "users=" + ITEMS_INSTANT);

    assertTrue(message.contains("repeats table 'users'"), message);
  }

  @Test
  void rejectsTrailingEntrySeparator() {
    String message = assertMalformed("orders=1,", "");

    assertTrue(message.contains("'orders=1,'"), "names the whole stored value: " + message);
  }

  @Test
  void rejectsBareValueThatIsNotAnInstant() {
    assertMalformed("latest", "latest");
  }

  /**
   * Asserts that parsing fails with a message that names the bad entry and the {@code --checkpoint} value that
   * repairs it, listing every configured table.
   */
  private String assertMalformed(String stored, String badEntry) {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> manager.parse(stored));
    String message = error.getMessage();
    assertTrue(message.contains("entry '" + badEntry + "'"), "names the bad entry '" + badEntry + "': " + message);
    assertTrue(message.contains("--checkpoint"), "tells how to repair: " + message);
    assertTrue(message.contains("'" + REPAIR_VALUE + "'"), "repair value lists every configured table: " + message);
    return message;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Construction
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void rejectsLegacyTableThatIsNotConfigured() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> new MultiTableCheckpointManager(List.of("orders", "users"), "items", true, false));

    assertTrue(error.getMessage().contains("'items'"), error.getMessage());
    assertTrue(error.getMessage().contains("[orders, users]"), error.getMessage());
  }

  @Test
  void rejectsBareFormatForSeveralTables() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> new MultiTableCheckpointManager(List.of("orders", "users"), "orders", false, false));

    assertTrue(error.getMessage().contains("2 tables [orders, users]"), error.getMessage());
  }

  @Test
  void formatsBareFormatForOneTableAsTheBareInstant() {
    MultiTableCheckpointManager bare = new MultiTableCheckpointManager(List.of("db.orders"), "db.orders", false, false);
    MultiTableCheckpoint checkpoint = MultiTableCheckpoint.of(Map.of("db.orders", ORDERS_INSTANT));

    String formatted = bare.format(checkpoint);

    assertEquals(ORDERS_INSTANT, formatted);
    assertEquals(checkpoint, bare.parse(formatted));
  }

  @Test
  void formatsBareFormatWithoutPositionAsAnEmptyString() {
    MultiTableCheckpointManager bare = new MultiTableCheckpointManager(List.of("orders"), "orders", false, false);

    assertEquals("", bare.format(MultiTableCheckpoint.empty()));
    assertTrue(bare.parse(bare.format(MultiTableCheckpoint.empty())).isEmpty());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Merge
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void mergeOverridesPreviousPositionsWithAdvancedOnes() {
    MultiTableCheckpoint previous = MultiTableCheckpoint.of(Map.of("users", "100", "db.orders", "200"));
    MultiTableCheckpoint advanced = MultiTableCheckpoint.of(Map.of("users", "150", "db.orders", "250"));

    assertEquals(MultiTableCheckpoint.of(Map.of("users", "150", "db.orders", "250")),
        manager.merge(previous, advanced));
  }

  @Test
  void mergeKeepsPreviousPositionOfTablesNotAdvanced() {
    MultiTableCheckpoint previous = MultiTableCheckpoint.of(Map.of("users", "100", "db.orders", "200"));
    MultiTableCheckpoint advanced = MultiTableCheckpoint.of(Map.of("users", "150"));

    assertEquals(MultiTableCheckpoint.of(Map.of("users", "150", "db.orders", "200")),
        manager.merge(previous, advanced));
  }

  @Test
  void mergeDropsPositionsOfTablesNoLongerConfigured() {
    MultiTableCheckpoint previous = MultiTableCheckpoint.of(Map.of("users", "100", "legacy.removed", "300"));
    MultiTableCheckpoint advanced = MultiTableCheckpoint.of(Map.of("db.orders", "250", "also.removed", "400"));

    MultiTableCheckpoint merged = manager.merge(previous, advanced);

    assertEquals(MultiTableCheckpoint.of(Map.of("users", "100", "db.orders", "250")), merged);
    assertEquals(Option.empty(), merged.position("legacy.removed"));
    assertEquals(Option.empty(), merged.position("also.removed"));
  }

  @Test
  void mergeAddsPositionOfNewTable() {
    MultiTableCheckpoint previous = MultiTableCheckpoint.of(Map.of("users", "100", "db.orders", "200"));
    MultiTableCheckpoint advanced = MultiTableCheckpoint.of(Map.of("items", "50"));

    assertEquals(MultiTableCheckpoint.of(Map.of("users", "100", "db.orders", "200", "items", "50")),
        manager.merge(previous, advanced));
  }

  @Test
  void mergeOfNothingAdvancedKeepsPreviousCheckpoint() {
    MultiTableCheckpoint previous = MultiTableCheckpoint.of(Map.of("users", "100", "db.orders", "200"));

    assertEquals(previous, manager.merge(previous, MultiTableCheckpoint.empty()));
  }

  @Test
  void mergeDoesNotChangeItsInputs() {
    MultiTableCheckpoint previous = MultiTableCheckpoint.of(Map.of("users", "100", "legacy.removed", "300"));
    MultiTableCheckpoint advanced = MultiTableCheckpoint.of(Map.of("users", "150"));

    manager.merge(previous, advanced);

    assertEquals(Map.of("users", "100", "legacy.removed", "300"), previous.positions());
    assertEquals(Map.of("users", "150"), advanced.positions());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // MultiTableCheckpoint value semantics
  // ---------------------------------------------------------------------------------------------------------------

  @Test
  void withPositionReturnsNewCheckpointAndLeavesOriginalUnchanged() {
    MultiTableCheckpoint original = MultiTableCheckpoint.of(Map.of("users", "100"));

    MultiTableCheckpoint moved = original.withPosition("users", "150");
    MultiTableCheckpoint extended = original.withPosition("items", "50");

    assertNotSame(original, moved);
    assertEquals(Map.of("users", "100"), original.positions());
    assertEquals(Map.of("users", "150"), moved.positions());
    assertEquals(Map.of("users", "100", "items", "50"), extended.positions());
  }

  @Test
  void positionsCannotBeModified() {
    MultiTableCheckpoint checkpoint = MultiTableCheckpoint.of(Map.of("users", "100"));

    assertThrows(UnsupportedOperationException.class, () -> checkpoint.positions().put("items", "50"));
    assertThrows(UnsupportedOperationException.class, () -> checkpoint.positions().remove("users"));
    assertThrows(UnsupportedOperationException.class, () -> checkpoint.tables().clear());
    assertEquals(Map.of("users", "100"), checkpoint.positions());
  }

  @Test
  void emptyCheckpointCannotBeModified() {
    assertThrows(UnsupportedOperationException.class,
        () -> MultiTableCheckpoint.empty().positions().put("users", "100"));
    assertTrue(MultiTableCheckpoint.empty().isEmpty());
  }

  @Test
  void ofCopiesItsInputSoLaterChangesDoNotLeakIn() {
    Map<String, String> input = new HashMap<>();
    input.put("users", "100");
    MultiTableCheckpoint checkpoint = MultiTableCheckpoint.of(input);

    input.put("users", "999");
    input.put("items", "50");

    assertEquals(Map.of("users", "100"), checkpoint.positions());
  }

  @Test
  void equalsAndHashCodeDoNotDependOnInsertionOrder() {
    Map<String, String> oneOrder = new LinkedHashMap<>();
    oneOrder.put("users", "100");
    oneOrder.put("db.orders", "200");
    Map<String, String> otherOrder = new LinkedHashMap<>();
    otherOrder.put("db.orders", "200");
    otherOrder.put("users", "100");

    MultiTableCheckpoint one = MultiTableCheckpoint.of(oneOrder);
    MultiTableCheckpoint other = MultiTableCheckpoint.of(otherOrder);
    MultiTableCheckpoint stepwise = MultiTableCheckpoint.empty().withPosition("users", "100").withPosition("db.orders", "200");

    assertEquals(one, other);
    assertEquals(one.hashCode(), other.hashCode());
    assertEquals(one, stepwise);
    assertEquals(one.hashCode(), stepwise.hashCode());
    assertEquals(List.of("db.orders", "users"), List.copyOf(one.tables()));
  }

  @Test
  void checkpointsWithDifferentPositionsAreNotEqual() {
    MultiTableCheckpoint checkpoint = MultiTableCheckpoint.of(Map.of("users", "100"));

    assertFalse(checkpoint.equals(MultiTableCheckpoint.of(Map.of("users", "101"))));
    assertFalse(checkpoint.equals(MultiTableCheckpoint.of(Map.of("items", "100"))));
    assertFalse(checkpoint.equals(MultiTableCheckpoint.empty()));
    assertFalse(checkpoint.equals("users=100"));
  }

  @Test
  void ofEmptyMapIsTheEmptyCheckpoint() {
    assertEquals(MultiTableCheckpoint.empty(), MultiTableCheckpoint.of(Map.of()));
    assertTrue(MultiTableCheckpoint.of(Map.of()).isEmpty());
  }

  @Test
  void ofRejectsEmptyTableName() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> MultiTableCheckpoint.of(Map.of("", "100")));

    assertTrue(error.getMessage().contains("table name is empty"), error.getMessage());
  }

  @Test
  void ofRejectsEmptyInstant() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> MultiTableCheckpoint.of(Map.of("users", "")));

    assertTrue(error.getMessage().contains("instant of table users is empty"), error.getMessage());
  }

  @Test
  void ofRejectsNullTableNameAndNullInstant() {
    Map<String, String> nullTable = new HashMap<>();
    nullTable.put(null, "100");
    Map<String, String> nullInstant = new HashMap<>();
    nullInstant.put("users", null);

    assertThrows(IllegalArgumentException.class, () -> MultiTableCheckpoint.of(nullTable));
    assertThrows(IllegalArgumentException.class, () -> MultiTableCheckpoint.of(nullInstant));
  }

  @Test
  void withPositionRejectsEmptyTableOrInstant() {
    MultiTableCheckpoint checkpoint = MultiTableCheckpoint.of(Map.of("users", "100"));

    assertThrows(IllegalArgumentException.class, () -> checkpoint.withPosition("", "150"));
    assertThrows(IllegalArgumentException.class, () -> checkpoint.withPosition("users", ""));
    assertEquals(Map.of("users", "100"), checkpoint.positions());
  }
}
