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

package org.apache.hudi.utilities.testutils;

import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * The oracle of end-to-end tests over modelled sources: a source table's model (every version of every key, or its
 * delete, with the instant of the data commit that wrote it), and the check of a target against the models at the
 * positions of its stored checkpoint: no row lost, none duplicated, none newer than its table's position, none the
 * sources never wrote.
 *
 * <p>Sources have the columns of {@link #ROWS} (and may gain a nullable {@code note}); the target is written by
 * {@link #unionSql}, keyed on rk = '&lt;table&gt;:&lt;id&gt;'. An incremental read does not carry deletes: a deleted row
 * stays in the target in the version of the last committed batch that read it, or is absent if none did, which the
 * check derives from the positions of every committed batch.
 */
public final class SourceModel {

  public static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("v", DataTypes.LongType)
      .add("ts", DataTypes.LongType)
      .add("part", DataTypes.StringType);

  private final String name;
  private final Map<String, List<Version>> versions = new LinkedHashMap<>();
  private final Set<String> deleted = new TreeSet<>();

  /** The model of the table that {@link #unionSql} reads as {@code <SRC:name>}. */
  public SourceModel(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  /** Records one row that the data commit {@code instant} wrote ({@code delete}: deleted). */
  public void record(String instant, String id, long v, long ts, String note, boolean delete) {
    versions.computeIfAbsent(id, key -> new ArrayList<>()).add(new Version(instant, v, ts, note, delete));
    if (delete) {
      deleted.add(id);
    }
  }

  /** Every key written, deleted ones included, in the order first written. */
  public Set<String> keys() {
    return versions.keySet();
  }

  /** The key's version as of the position; empty if it had none then, or its last one was a delete. */
  public Option<Version> liveAt(String id, String position) {
    List<Version> upTo = versions.getOrDefault(id, List.of()).stream().filter(version -> atOrBefore(version, position))
        .collect(Collectors.toList());
    return upTo.isEmpty() || upTo.get(upTo.size() - 1).delete ? Option.empty() : Option.of(upTo.get(upTo.size() - 1));
  }

  /** The keys written and not deleted, in the order first written. */
  public List<String> liveKeys() {
    return versions.keySet().stream().filter(id -> !deleted.contains(id)).collect(Collectors.toList());
  }

  /** The SQL of the target: the union of the tables' deltas, keyed rk = '&lt;table&gt;:&lt;id&gt;'. */
  public static String unionSql(List<String> tables) {
    return tables.stream().map(table -> String.format("SELECT concat('%s:', id) AS rk, '%s' AS src, id, v, ts FROM "
            + "<SRC:%s>", table, table, table))
        .collect(Collectors.joining("\nUNION ALL\n"));
  }

  /** The positions a checkpoint string ({@code a=<instant>,b=<instant>}) holds, by table. */
  public static Map<String, String> positionsOf(String checkpoint) {
    Map<String, String> positions = new TreeMap<>();
    for (String entry : checkpoint.split(",")) {
      String[] tableAndInstant = entry.split("=", 2);
      positions.put(tableAndInstant[0], tableAndInstant[1]);
    }
    return positions;
  }

  /**
   * Checks a target, into which no source deleted rows, against the models at the positions of its checkpoint.
   *
   * @param positions each modelled table's position, by table name
   * @return how many rows the target holds
   */
  public static int checkTarget(String targetPath, Map<String, String> positions, List<SourceModel> sources,
                                ModelCheck into) {
    checkArgument(sources.stream().allMatch(source -> source.deleted.isEmpty()),
        "a source deleted rows: pass the positions of every committed batch");
    return checkTarget(targetPath, List.of(positions), sources, key -> false, into).size();
  }

  /**
   * Checks a target against the models at the positions of its committed batches, for a target that also holds rows
   * the caller checks.
   *
   * @param committedPositions each committed batch's positions, by table name, oldest first, from the target's first
   *                           batch on: the last are those of the target's checkpoint
   * @param checkedByCaller    the keys (rk) of the rows that are not one source's rows, which the caller checks
   * @return the target's rows by key, with the columns this check selects (rk, src, id, v, ts, note after the record
   *     key)
   */
  public static Map<String, Row> checkTarget(String targetPath, List<Map<String, String>> committedPositions,
                                             List<SourceModel> sources, Predicate<String> checkedByCaller,
                                             ModelCheck into) {
    Dataset<Row> target = SharedSpark.session().read().format("hudi").load(targetPath);
    boolean hasNote = Arrays.asList(target.columns()).contains("note");
    List<Row> rows = target.selectExpr("_hoodie_record_key", "rk", "src", "id", "v", "ts",
        hasNote ? "note" : "CAST(NULL AS STRING) AS note").collectAsList();
    Map<String, Row> byKey = new HashMap<>();
    for (Row row : rows) {
      if (byKey.put(row.getString(1), row) != null) {
        into.duplicate(row);
      }
    }
    for (SourceModel source : sources) {
      List<String> windowEnds = committedPositions.stream().map(positions -> positions.get(source.name)).distinct()
          .collect(Collectors.toList());
      source.check(windowEnds, byKey, into);
    }
    Set<String> known = sources.stream().flatMap(source -> source.keys().stream().map(id -> source.name + ":" + id))
        .collect(Collectors.toSet());
    byKey.values().stream().filter(row -> !known.contains(row.getString(1)) && !checkedByCaller.test(row.getString(1)))
        .forEach(row -> into.unexpected("a key no source wrote: " + row));
    return byKey;
  }

  /**
   * The target's rows of this table (keyed by rk, columns as {@link #checkTarget} selects) against the model.
   *
   * @param windowEnds the table's position after each committed batch that moved it, oldest first
   */
  private void check(List<String> windowEnds, Map<String, Row> target, ModelCheck into) {
    String position = windowEnds.get(windowEnds.size() - 1);
    for (Map.Entry<String, List<Version>> key : versions.entrySet()) {
      Row row = target.get(name + ":" + key.getKey());
      into.checked();
      Option<Version> held = row == null ? Option.empty() : Option.fromJavaOptional(key.getValue().stream()
          .filter(version -> !version.delete && version.ts == row.getLong(5)).findFirst());
      Option<Version> expected = lastReadVersion(key.getValue(), windowEnds);
      if (row != null && (!held.isPresent() || held.get().v != row.getLong(4)
          || !String.valueOf(held.get().note).equals(String.valueOf(row.getString(6))))) {
        into.unexpected("not a version " + name + " wrote: " + row);
      } else if (held.isPresent() && !atOrBefore(held.get(), position)) {
        into.ahead("ahead of " + name + "'s position " + position + ": " + row);
      } else if (expected.isPresent() && !held.equals(expected)) {
        into.lost(name + ":" + key.getKey() + " at " + position + " should be ts=" + expected.get().ts + ", is " + row);
      } else if (!expected.isPresent() && row != null) {
        into.unexpected("no committed batch of " + name + " read this version (window ends " + windowEnds + "): " + row);
      }
    }
  }

  /**
   * The version of a key that the last committed batch reading it wrote to the target: a batch reading the window
   * (previous end, end] reads a key's latest state at the end if that state is no delete and was written inside the
   * window.
   */
  private static Option<Version> lastReadVersion(List<Version> versions, List<String> windowEnds) {
    for (int k = windowEnds.size() - 1; k >= 0; k--) {
      String end = windowEnds.get(k);
      List<Version> upToEnd = versions.stream().filter(version -> atOrBefore(version, end)).collect(Collectors.toList());
      if (upToEnd.isEmpty()) {
        return Option.empty();
      }
      Version atEnd = upToEnd.get(upToEnd.size() - 1);
      if (!atEnd.delete && (k == 0 || !atOrBefore(atEnd, windowEnds.get(k - 1)))) {
        return Option.of(atEnd);
      }
    }
    return Option.empty();
  }

  private static boolean atOrBefore(Version version, String position) {
    return HoodieTimeline.compareTimestamps(version.instant, HoodieTimeline.LESSER_THAN_OR_EQUALS, position);
  }

  /** One version of a row, or its delete, as the model wrote it. */
  public static final class Version {

    private final String instant;
    private final long v;
    private final long ts;
    private final String note;
    private final boolean delete;

    Version(String instant, long v, long ts, String note, boolean delete) {
      this.instant = instant;
      this.v = v;
      this.ts = ts;
      this.note = note;
      this.delete = delete;
    }

    public long value() {
      return v;
    }

    public long ts() {
      return ts;
    }
  }

  /** What checks found, added up over checks: rows checked, and each kind of problem with its descriptions. */
  public static final class ModelCheck {

    private long rowsChecked;
    private long losses;
    private long duplicates;
    private long unexpected;
    private long aheadOfCheckpoint;
    private final List<String> problems = new ArrayList<>();

    public void checked() {
      rowsChecked++;
    }

    public void lost(String problem) {
      losses++;
      problems.add(problem);
    }

    void duplicate(Row row) {
      duplicates++;
      problems.add("duplicate: " + row);
    }

    public void unexpected(String problem) {
      unexpected++;
      problems.add(problem);
    }

    void ahead(String problem) {
      aheadOfCheckpoint++;
      problems.add(problem);
    }

    public long rowsChecked() {
      return rowsChecked;
    }

    public long losses() {
      return losses;
    }

    public long duplicates() {
      return duplicates;
    }

    public long unexpected() {
      return unexpected;
    }

    public long aheadOfCheckpoint() {
      return aheadOfCheckpoint;
    }

    /** Whether no check found any problem. */
    public boolean clean() {
      return problems.isEmpty();
    }

    public List<String> problems() {
      return problems;
    }

    @Override
    public String toString() {
      return String.format("rows checked=%d, losses=%d, duplicates=%d, unexpected=%d, ahead of checkpoint=%d",
          rowsChecked, losses, duplicates, unexpected, aheadOfCheckpoint);
    }
  }
}
