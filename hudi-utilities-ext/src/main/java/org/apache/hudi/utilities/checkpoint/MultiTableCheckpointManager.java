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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads and writes the checkpoint string of a multi-table pipeline, the only place where a
 * {@link MultiTableCheckpoint} exists as text.
 *
 * <p>Forms, as stored in {@code deltastreamer.checkpoint.key}:
 * <ul>
 *   <li>multi-table: {@code db.orders=20250606182826197,users=20250606182830145}, table names in name order, dots
 *   kept;</li>
 *   <li>bare (legacy): {@code 20250606182826197}, a single instant as written by {@code HoodieIncrSource}; it is the
 *   position of the legacy table, which lets an existing single-table job be upgraded without losing its place.</li>
 * </ul>
 *
 * <p>Parsing is strict: an entry that is not {@code <table>=<instant>}, a repeated table, or an instant that is not
 * a Hudi instant time fails with a message naming the entry and the {@code --checkpoint} value that repairs it.
 */
public final class MultiTableCheckpointManager {

  private static final Logger LOG = LoggerFactory.getLogger(MultiTableCheckpointManager.class);

  static final String ENTRY_SEPARATOR = ",";
  static final String POSITION_SEPARATOR = "=";
  private static final Pattern INSTANT = Pattern.compile("\\d+");

  private final List<String> tables;
  private final String legacyTable;
  private final boolean multiTableFormat;

  /**
   * @param tables           the configured tables, in declaration order
   * @param legacyTable      the table that a bare checkpoint belongs to; one of {@code tables}
   * @param multiTableFormat whether to write the multi-table form; false writes the bare form, for one table only
   */
  public MultiTableCheckpointManager(List<String> tables, String legacyTable, boolean multiTableFormat) {
    if (!tables.contains(legacyTable)) {
      throw new IllegalArgumentException(String.format(
          "Cannot use '%s' as the legacy checkpoint table: it is not one of the configured tables %s", legacyTable, tables));
    }
    if (!multiTableFormat && tables.size() != 1) {
      throw new IllegalArgumentException(String.format("Cannot keep %d tables %s in a bare single-instant checkpoint: "
          + "it would lose or re-read data. Enable the multi-table checkpoint format, or configure one table only.",
          tables.size(), tables));
    }
    this.tables = new ArrayList<>(tables);
    this.legacyTable = legacyTable;
    this.multiTableFormat = multiTableFormat;
  }

  /**
   * Parses a stored checkpoint.
   *
   * @param stored the checkpoint string, or null / empty when there is none
   * @return the positions it holds; empty for a null or empty string
   * @throws IllegalArgumentException if the string is malformed, naming the entry and how to repair it
   */
  public MultiTableCheckpoint parse(String stored) {
    if (stored == null || stored.trim().isEmpty()) {
      return MultiTableCheckpoint.empty();
    }
    String trimmed = stored.trim();
    if (!trimmed.contains(POSITION_SEPARATOR)) {
      checkInstant(trimmed, stored, trimmed);
      LOG.info("Read bare checkpoint '{}' as the position of legacy table '{}'", trimmed, legacyTable);
      return MultiTableCheckpoint.of(Map.of(legacyTable, trimmed));
    }
    Map<String, String> positions = new LinkedHashMap<>();
    for (String rawEntry : trimmed.split(ENTRY_SEPARATOR, -1)) {
      String entry = rawEntry.trim();
      int separator = entry.indexOf(POSITION_SEPARATOR);
      if (separator <= 0 || separator != entry.lastIndexOf(POSITION_SEPARATOR)) {
        throw malformed(stored, entry, "is not of the form <table>=<instant>");
      }
      String table = entry.substring(0, separator).trim();
      String instant = entry.substring(separator + 1).trim();
      checkInstant(instant, stored, entry);
      if (positions.put(table, instant) != null) {
        throw malformed(stored, entry, "repeats table '" + table + "'");
      }
    }
    return MultiTableCheckpoint.of(positions);
  }

  /**
   * Writes a checkpoint in the configured form.
   *
   * @return the multi-table form, tables in name order; in the bare form, the legacy table's instant; an empty
   *     string for a checkpoint without positions
   */
  public String format(MultiTableCheckpoint checkpoint) {
    if (!multiTableFormat) {
      return checkpoint.position(legacyTable).orElse("");
    }
    return checkpoint.positions().entrySet().stream()
        .map(position -> position.getKey() + POSITION_SEPARATOR + position.getValue())
        .collect(Collectors.joining(ENTRY_SEPARATOR));
  }

  /**
   * The checkpoint to commit after a batch.
   *
   * @param previous the checkpoint the batch resumed from
   * @param advanced the positions the batch read up to; tables it did not advance are absent
   * @return the configured tables' positions of {@code previous}, overridden by those of {@code advanced}; positions
   *     of tables no longer configured are dropped (and logged)
   */
  public MultiTableCheckpoint merge(MultiTableCheckpoint previous, MultiTableCheckpoint advanced) {
    MultiTableCheckpoint merged = previous;
    for (Map.Entry<String, String> position : advanced.positions().entrySet()) {
      merged = merged.withPosition(position.getKey(), position.getValue());
    }
    Set<String> removed = new TreeSet<>(merged.tables());
    removed.removeAll(tables);
    if (!removed.isEmpty()) {
      LOG.warn("Dropping the checkpoint positions of tables {} that are no longer configured (configured: {}); "
          + "a table added back later starts from its missing_checkpoint_strategy", removed, tables);
    }
    return merged.retainTables(tables);
  }

  private void checkInstant(String instant, String stored, String entry) {
    if (!INSTANT.matcher(instant).matches()) {
      throw malformed(stored, entry, "has '" + instant + "' where a Hudi instant time (digits only) is expected");
    }
  }

  private IllegalArgumentException malformed(String stored, String entry, String problem) {
    String repair = tables.stream().map(table -> table + POSITION_SEPARATOR + "<instant>")
        .collect(Collectors.joining(ENTRY_SEPARATOR));
    return new IllegalArgumentException(String.format("Cannot parse the multi-table checkpoint '%s': entry '%s' %s. "
        + "Nothing was read or committed. Repair it by running the Streamer once with --checkpoint '%s' (one "
        + "completed instant per table, at or before the last one consumed).", stored, entry, problem, repair));
  }
}
