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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

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
 * <p>A {@code --checkpoint} override uses the same form, may name only some tables (the others keep their stored
 * positions) and may name a {@link TableReset} instead of an instant: {@code users=LATEST}.
 *
 * <p>Parsing is strict by default: an entry that is not {@code table=instant}, a repeated table, or an instant that
 * is not a Hudi instant time fails with a message naming the entry and the {@code --checkpoint} value that repairs
 * it. Lenient parsing skips such entries and reports them in {@link RequestedCheckpoint#malformedEntries()}.
 */
public final class MultiTableCheckpointManager {

  private static final Logger LOG = LoggerFactory.getLogger(MultiTableCheckpointManager.class);

  static final String ENTRY_SEPARATOR = ",";
  static final String POSITION_SEPARATOR = "=";
  static final String ORDER_ENTRY = "@order";
  static final String ORDER_SEPARATOR = "|";
  static final String VIEW_ENTRY = "@view";
  private static final Pattern VIEW_DEFINITION = Pattern.compile("[0-9a-f]{16}");
  private static final Pattern INSTANT = Pattern.compile("\\d+");

  private final List<String> tables;
  private final String legacyTable;
  private final boolean multiTableFormat;
  private final boolean lenient;

  /**
   * @param tables           the configured tables, in declaration order
   * @param legacyTable      the table that a bare checkpoint belongs to; one of {@code tables}
   * @param multiTableFormat whether to write the multi-table form; false writes the bare form, for one table only
   * @param lenient          whether to skip malformed entries instead of failing
   */
  public MultiTableCheckpointManager(List<String> tables, String legacyTable, boolean multiTableFormat,
                                     boolean lenient) {
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
    this.lenient = lenient;
  }

  /**
   * Parses a stored checkpoint.
   *
   * @param stored the checkpoint string, or null / empty when there is none
   * @return the positions it holds; empty for a null or empty string
   * @throws IllegalArgumentException if the string is malformed (in strict mode), or asks for a reset, naming the entry
   *     and how to repair it
   */
  public MultiTableCheckpoint parse(String stored) {
    RequestedCheckpoint request = parseRequest(stored);
    if (!request.resets().isEmpty()) {
      throw malformed(stored, request.resets().firstKey() + POSITION_SEPARATOR + request.resets().get(request.resets().firstKey()),
          "asks for a reset, which only a --checkpoint override can do");
    }
    return request.positions();
  }

  /**
   * Parses a resume string: a stored checkpoint, or a {@code --checkpoint} override that may name only some tables
   * and may use {@link TableReset} names ({@code users=LATEST}) instead of instants.
   *
   * @throws IllegalArgumentException in strict mode, if the string is malformed, naming the entry and the repair; in
   *     lenient mode, malformed entries are skipped (and logged) instead
   */
  public RequestedCheckpoint parseRequest(String text) {
    Map<String, String> positions = new LinkedHashMap<>();
    SortedMap<String, TableReset> resets = new TreeMap<>();
    List<String> malformedEntries = new ArrayList<>();
    List<String> order = new ArrayList<>();
    Option<String> viewDefinition = Option.empty();
    String trimmed = text == null ? "" : text.trim();
    if (!trimmed.isEmpty() && !trimmed.contains(POSITION_SEPARATOR)) {
      if (INSTANT.matcher(trimmed).matches()) {
        LOG.info("Read bare checkpoint '{}' as the position of legacy table '{}'", trimmed, legacyTable);
        positions.put(legacyTable, trimmed);
      } else {
        reject(text, trimmed, "is neither a Hudi instant time (digits only) nor of the form <table>=<instant>",
            malformedEntries);
      }
    } else if (!trimmed.isEmpty()) {
      for (String rawEntry : trimmed.split(ENTRY_SEPARATOR, -1)) {
        String entry = rawEntry.trim();
        int separator = entry.indexOf(POSITION_SEPARATOR);
        // The order key is read like a table name, blanks around it ignored: "@order = b|a" is never a table "@order".
        String key = separator > 0 ? entry.substring(0, separator).trim() : "";
        if (key.equals(ORDER_ENTRY)) {
          order.addAll(Arrays.asList(entry.substring(separator + 1).trim().split(Pattern.quote(ORDER_SEPARATOR))));
        } else if (key.equals(VIEW_ENTRY) && VIEW_DEFINITION.matcher(entry.substring(separator + 1).trim()).matches()) {
          viewDefinition = Option.of(entry.substring(separator + 1).trim());
        } else {
          parseEntry(text, entry, positions, resets, malformedEntries);
        }
      }
    }
    if (!malformedEntries.isEmpty()) {
      LOG.warn("Skipped {} malformed entries {} of checkpoint '{}' (lenient parsing); tables without a position start "
          + "from their missing.checkpoint.strategy", malformedEntries.size(), malformedEntries, text);
    }
    MultiTableCheckpoint checkpoint = MultiTableCheckpoint.of(positions);
    // Without an order entry, the tables were declared in name order (see format).
    List<String> tableOrder = order.isEmpty() ? new ArrayList<>(checkpoint.tables()) : order;
    return new RequestedCheckpoint(checkpoint, resets, malformedEntries, tableOrder, viewDefinition);
  }

  private void parseEntry(String text, String entry, Map<String, String> positions, SortedMap<String, TableReset> resets,
                          List<String> malformedEntries) {
    int separator = entry.indexOf(POSITION_SEPARATOR);
    if (separator <= 0 || separator != entry.lastIndexOf(POSITION_SEPARATOR)) {
      reject(text, entry, "is not of the form <table>=<instant>", malformedEntries);
      return;
    }
    String table = entry.substring(0, separator).trim();
    String value = entry.substring(separator + 1).trim();
    if (positions.containsKey(table) || resets.containsKey(table)) {
      reject(text, entry, "repeats table '" + table + "'", malformedEntries);
    } else if (INSTANT.matcher(value).matches()) {
      positions.put(table, value);
    } else if (TableReset.named(value).isPresent()) {
      resets.put(table, TableReset.named(value).get());
    } else {
      reject(text, entry, "has '" + value + "' where a Hudi instant time (digits only), LATEST or EARLIEST is expected",
          malformedEntries);
    }
  }

  private void reject(String text, String entry, String problem, List<String> malformedEntries) {
    if (!lenient) {
      throw malformed(text, entry, problem);
    }
    malformedEntries.add(entry);
  }

  /**
   * The positions a batch resumes from.
   *
   * @param stored         the positions of the target's last commit, for the tables the request does not name
   * @param request        what the resume string asks for
   * @param latestInstant  the latest completed instant of a table, or empty if it has none; for {@link TableReset#LATEST}
   * @return {@code stored}, overridden by the request's instants and resets
   */
  public MultiTableCheckpoint resolve(MultiTableCheckpoint stored, RequestedCheckpoint request,
                                      Function<String, Option<String>> latestInstant) {
    MultiTableCheckpoint resolved = merge(stored, request.positions());
    for (Map.Entry<String, TableReset> reset : request.resets().entrySet()) {
      String table = reset.getKey();
      String position = reset.getValue() == TableReset.EARLIEST
          ? MultiTableCheckpoint.BEFORE_FIRST_INSTANT
          : latestInstant.apply(table).orElse(MultiTableCheckpoint.BEFORE_FIRST_INSTANT);
      LOG.warn("Checkpoint override: table '{}' reset to {} (position {})", table, reset.getValue(), position);
      resolved = resolved.withPosition(table, position);
    }
    return resolved;
  }

  /** Writes a checkpoint in the configured form, for a job whose SQL is no view; see {@link #format(MultiTableCheckpoint, Option)}. */
  public String format(MultiTableCheckpoint checkpoint) {
    return format(checkpoint, Option.empty());
  }

  /**
   * Writes a checkpoint in the configured form.
   *
   * @param viewDefinition the fingerprint of the view the batch writes, if the job's SQL is a view
   * @return the multi-table form, tables in name order, followed by {@code @order=b|a} only when the tables were
   *     declared in another order (so that positional SQL can notice a reordering), then by {@code @view=<fingerprint>}
   *     for a view (so that the next batch can notice an edited definition); in the bare form, the legacy table's
   *     instant; an empty string for a checkpoint without positions
   */
  public String format(MultiTableCheckpoint checkpoint, Option<String> viewDefinition) {
    if (!multiTableFormat) {
      return checkpoint.position(legacyTable).orElse("");
    }
    String fingerprint = viewDefinition.orElse("");
    checkArgument(fingerprint.isEmpty() || VIEW_DEFINITION.matcher(fingerprint).matches(),
        "Cannot record view definition '" + fingerprint + "': a fingerprint is 16 hex digits");
    String positions = checkpoint.positions().entrySet().stream()
        .map(position -> position.getKey() + POSITION_SEPARATOR + position.getValue())
        .collect(Collectors.joining(ENTRY_SEPARATOR));
    List<String> declared = tables.stream().filter(checkpoint.tables()::contains).collect(Collectors.toList());
    String ordered = declared.equals(new ArrayList<>(checkpoint.tables()))
        ? positions
        : positions + ENTRY_SEPARATOR + ORDER_ENTRY + POSITION_SEPARATOR + String.join(ORDER_SEPARATOR, declared);
    return fingerprint.isEmpty() || ordered.isEmpty()
        ? ordered
        : ordered + ENTRY_SEPARATOR + VIEW_ENTRY + POSITION_SEPARATOR + fingerprint;
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
          + "a table added back later starts from its missing.checkpoint.strategy", removed, tables);
    }
    return merged.retainTables(tables);
  }

  private IllegalArgumentException malformed(String stored, String entry, String problem) {
    String repair = tables.stream().map(table -> table + POSITION_SEPARATOR + "<instant>")
        .collect(Collectors.joining(ENTRY_SEPARATOR));
    return new IllegalArgumentException(String.format("Cannot parse the multi-table checkpoint '%s': entry '%s' %s. "
        + "Nothing was read or committed. Repair it by running the Streamer once with --checkpoint '%s' (per table: "
        + "the last completed instant consumed, or LATEST, or EARLIEST).", stored, entry, problem, repair));
  }

  @Override
  public String toString() {
    return "MultiTableCheckpointManager{tables=" + tables + ", legacyTable=" + legacyTable + ", multiTableFormat="
        + multiTableFormat + ", lenient=" + lenient + "}";
  }
}
