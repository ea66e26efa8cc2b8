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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * Builds the {@code --checkpoint} value that moves some tables of a pipeline and keeps the others where the target's
 * stored checkpoint has them, spelled out in full so that an operator sees every position the next run starts from.
 */
public final class CheckpointOverride {

  private CheckpointOverride() {
  }

  /**
   * @param grammar the job's checkpoint grammar (its tables, format and parsing)
   * @param tables  the configured tables
   * @param stored  the target's stored checkpoint; empty if it has none
   * @param moves   per table to move: an instant, {@code LATEST} or {@code EARLIEST}
   * @return the override: the moved tables' new positions or resets, the others' stored positions
   * @throws IllegalArgumentException if a moved table is not configured, or a move is neither an instant nor a reset
   */
  public static String build(MultiTableCheckpointManager grammar, List<String> tables, Option<String> stored,
                             Map<String, String> moves) {
    MultiTableCheckpoint positions = grammar.parse(stored.orElse(null)).retainTables(tables);
    Map<String, TableReset> resets = new TreeMap<>();
    for (Map.Entry<String, String> move : moves.entrySet()) {
      String table = move.getKey();
      checkArgument(tables.contains(table), () -> String.format("Cannot move table '%s': it is not one of the "
          + "configured tables %s (check hoodie.streamer.source.multi.hudi.tables in --props)", table, tables));
      RequestedCheckpoint request = grammar.parseRequest(table + MultiTableCheckpointManager.POSITION_SEPARATOR
          + move.getValue());
      if (request.resets().containsKey(table)) {
        resets.put(table, request.resets().get(table));
        positions = positions.retainTables(without(positions, table));
      } else {
        positions = positions.withPosition(table, request.positions().position(table).get());
      }
    }
    StringBuilder override = new StringBuilder(grammar.format(positions));
    for (Map.Entry<String, TableReset> reset : resets.entrySet()) {
      override.append(override.length() == 0 ? "" : MultiTableCheckpointManager.ENTRY_SEPARATOR)
          .append(reset.getKey()).append(MultiTableCheckpointManager.POSITION_SEPARATOR).append(reset.getValue());
    }
    return override.toString();
  }

  /**
   * @param moves per table to move: an instant, {@code LATEST} or {@code EARLIEST}
   * @return the instants the moves name, by table; tables reset to LATEST or EARLIEST left out
   */
  public static Map<String, String> movedPositions(MultiTableCheckpointManager grammar, Map<String, String> moves) {
    Map<String, String> positions = new TreeMap<>();
    moves.forEach((table, move) -> grammar.parseRequest(table + MultiTableCheckpointManager.POSITION_SEPARATOR + move)
        .positions().position(table).ifPresent(instant -> positions.put(table, instant)));
    return positions;
  }

  private static List<String> without(MultiTableCheckpoint positions, String table) {
    List<String> kept = new ArrayList<>(positions.tables());
    kept.remove(table);
    return kept;
  }
}
