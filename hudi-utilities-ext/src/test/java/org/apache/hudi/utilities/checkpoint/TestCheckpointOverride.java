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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TestCheckpointOverride {

  private static final List<String> TABLES = List.of("orders", "users", "items");
  private static final MultiTableCheckpointManager GRAMMAR = new MultiTableCheckpointManager(TABLES, "orders", true, false);
  private static final Option<String> STORED = Option.of("items=20261130100000000,orders=20261130100100000,"
      + "users=20261130100200000,@order=orders|users|items");

  @Test
  void movedTablesTakeTheirNewPositionsAndTheOthersKeepTheStoredOnes() {
    assertEquals("items=20261130100000000,orders=20261130090000000,users=20261130100200000,@order=orders|users|items",
        CheckpointOverride.build(GRAMMAR, TABLES, STORED, Map.of("orders", "20261130090000000")));
  }

  @Test
  void resetsAreSpelledOutAfterThePositionsAndApplyInTheStreamer() {
    Map<String, String> moves = new LinkedHashMap<>();
    moves.put("users", "latest");
    moves.put("items", "EARLIEST");
    String override = CheckpointOverride.build(GRAMMAR, TABLES, STORED, moves);
    assertEquals("orders=20261130100100000,items=EARLIEST,users=LATEST", override);
    RequestedCheckpoint parsed = GRAMMAR.parseRequest(override);
    assertEquals(Map.of("items", TableReset.EARLIEST, "users", TableReset.LATEST), parsed.resets());
    assertEquals(Option.of("20261130100100000"), parsed.positions().position("orders"));
  }

  @Test
  void withoutAStoredCheckpointOnlyTheMovedTablesAreNamed() {
    assertEquals("users=LATEST", CheckpointOverride.build(GRAMMAR, TABLES, Option.empty(), Map.of("users", "LATEST")));
  }

  @Test
  void unknownTablesAndValuesThatAreNeitherInstantsNorResetsAreRefused() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> CheckpointOverride.build(GRAMMAR, TABLES, STORED, Map.of("payments", "LATEST")));
    assertTrue(unknown.getMessage().startsWith("Cannot move table 'payments': it is not one of the configured tables "
        + "[orders, users, items]"), unknown.getMessage());
    IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
        () -> CheckpointOverride.build(GRAMMAR, TABLES, STORED, Map.of("users", "yesterday")));
    assertTrue(value.getMessage().contains("has 'yesterday' where a Hudi instant time (digits only), LATEST or EARLIEST "
        + "is expected"), value.getMessage());
  }
}
