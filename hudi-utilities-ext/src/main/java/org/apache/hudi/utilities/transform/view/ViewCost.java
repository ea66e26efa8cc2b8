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

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * What a view's batch is estimated to cost incrementally and as a full recompute, from the rows the two plans read,
 * produce and write, so that strategy AUTO picks the cheaper. The rows come from commit metadata (each table's rows and
 * the records its window wrote) and the plans {@link ViewBatch} runs:
 * <ul>
 *   <li>a full recompute scans every table once, produces the result (as many rows as the largest table for a view
 *   without GROUP BY: its joins are N:1; few rows for a grouped view), reads the target's keys to delete what left the
 *   result, and upserts every result row;</li>
 *   <li>an incremental batch runs a pass per changed table: that table's changed rows at both states (from a CDC
 *   delta's images, else by a read of the table restricted to its changed keys, a scan) joined with every other table
 *   whole at both states, except the tables it reaches (joined to it by an equality, its changed rows few enough to
 *   list), scanned once for the batch; a table read as its latest state whose window may have removed records has the
 *   keys of the file groups its window deleted from read at both states, or its keys at both states where the window's
 *   removals cannot be placed in file groups ({@link RemovedKeysRead}); each changed row of a table produces about
 *   {@code largest rows / its rows} rows (the fact rows one dimension row joins); a grouped view that keeps no
 *   aggregate state reads its changed groups' rows, whole tables.
 *   It writes the rows it produced (a grouped view: few), and on a COPY_ON_WRITE target rewrites the files they fall
 *   in, taken to be all of them.</li>
 * </ul>
 * The weights turn rows into time; the defaults were measured on the benchmark (docs/views.md).
 */
public final class ViewCost {

  private final double incrementalMillis;
  private final double fullMillis;
  private final long producedRows;
  private final double changeFraction;
  private final String text;

  private ViewCost(double incrementalMillis, double fullMillis, long producedRows, double changeFraction, String text) {
    this.incrementalMillis = incrementalMillis;
    this.fullMillis = fullMillis;
    this.producedRows = producedRows;
    this.changeFraction = changeFraction;
    this.text = text;
  }

  /** How long a row takes in each kind of work, and what an incremental batch costs whatever its change. */
  public static final class Weights {
    private final double scanMicros;
    private final double outputMicros;
    private final double writeMicros;
    private final double rewriteMicros;
    private final double incrementalFixedMillis;

    /**
     * @param scanMicros             a row of a table scanned (the columns the query reads)
     * @param outputMicros           a row the query produces (joined, projected and handed to the write)
     * @param writeMicros            a row upserted into the target (its index lookup and merge)
     * @param rewriteMicros          a row of a COPY_ON_WRITE target's file rewritten because an upserted row falls in it
     * @param incrementalFixedMillis what an incremental batch costs beyond a full recompute whatever its change
     */
    public Weights(double scanMicros, double outputMicros, double writeMicros, double rewriteMicros,
                   double incrementalFixedMillis) {
      checkArgument(scanMicros >= 0 && outputMicros >= 0 && writeMicros >= 0 && rewriteMicros >= 0
          && incrementalFixedMillis >= 0, "A view's cost weights are times, never negative");
      this.scanMicros = scanMicros;
      this.outputMicros = outputMicros;
      this.writeMicros = writeMicros;
      this.rewriteMicros = rewriteMicros;
      this.incrementalFixedMillis = incrementalFixedMillis;
    }
  }

  /**
   * How a batch finds the record keys a table's window removed (a latest-state read returns no deleted record), and
   * how many rows that reads.
   */
  public static final class RemovedKeysRead {
    private static final RemovedKeysRead NONE = new RemovedKeysRead(false, 0, 0);
    private static final RemovedKeysRead WHOLE_TABLE = new RemovedKeysRead(true, 0, 0);

    private final boolean wholeTable;
    private final int fileGroups;
    private final long rows;

    private RemovedKeysRead(boolean wholeTable, int fileGroups, long rows) {
      this.wholeTable = wholeTable;
      this.fileGroups = fileGroups;
      this.rows = rows;
    }

    /** Nothing is read: the window removed no record, or its delta names the removed keys (a CDC delta). */
    public static RemovedKeysRead none() {
      return NONE;
    }

    /** The table's keys are read at both states, and those only the previous state holds are the removed ones. */
    public static RemovedKeysRead wholeTable() {
      return WHOLE_TABLE;
    }

    /**
     * The keys of the file groups the window deleted from are read at both states, and compared.
     *
     * @param fileGroups the file groups read
     * @param rows       their rows, at both states together
     */
    public static RemovedKeysRead fromFileGroups(int fileGroups, long rows) {
      checkArgument(fileGroups >= 0 && rows >= 0, "A read of removed keys counts file groups and rows, never negative");
      return new RemovedKeysRead(false, fileGroups, rows);
    }

    /** The rows read, of a table of {@code tableRows} rows. */
    long rows(long tableRows) {
      return wholeTable ? 2 * tableRows : rows;
    }

    /** What is read, for the cost's text; empty if nothing is. */
    String describe() {
      if (wholeTable) {
        return "removed keys from its keys at both states";
      }
      return this == NONE ? "" : String.format(Locale.ROOT, "removed keys from %d file group(s) at both states (~%d "
          + "rows)", fileGroups, rows);
    }
  }

  /** One table of the view as a batch finds it. */
  public static final class TableChange {
    private final String table;
    private final long rows;
    private final long changedRecords;
    private final boolean changedRowsFromImages;
    private final RemovedKeysRead removedKeys;
    private final Set<String> reached;

    /**
     * @param rows                  the table's estimated rows
     * @param changedRecords        the records the batch's window wrote (inserted, updated, deleted)
     * @param changedRowsFromImages whether the changed rows come from a CDC delta's images, not from a read of the table
     * @param removedKeys           how the keys the window removed are found
     */
    public TableChange(String table, long rows, long changedRecords, boolean changedRowsFromImages,
                       RemovedKeysRead removedKeys) {
      this(table, rows, changedRecords, changedRowsFromImages, removedKeys, Collections.emptySet());
    }

    private TableChange(String table, long rows, long changedRecords, boolean changedRowsFromImages,
                        RemovedKeysRead removedKeys, Set<String> reached) {
      this.table = table;
      this.rows = Math.max(1, rows);
      this.changedRecords = changedRecords;
      this.changedRowsFromImages = changedRowsFromImages;
      this.removedKeys = removedKeys;
      this.reached = reached;
    }

    /**
     * This change with the tables its pass reads only where they join its changed rows (the query joins them to it by
     * an equality, and its changed rows are few enough to list their values): read once for the batch, as of the new
     * state, instead of whole at both states.
     */
    TableChange reaching(Set<String> tables) {
      return new TableChange(table, rows, changedRecords, changedRowsFromImages, removedKeys,
          Collections.unmodifiableSet(new HashSet<>(tables)));
    }

    /**
     * This change reaching the tables joined to it (see {@link #reaching}) if its changed rows are few enough to list by
     * the batch's rule, else reaching none.
     *
     * <p>The rule is the batch's ({@link ListLimit#lists}); what it counts differs, because AUTO decides before the
     * batch runs. The batch counts the table's distinct changed keys, a Spark job over the delta (and, where the window
     * may have removed records, over both states' keys) that only an incremental batch runs; here it counts the
     * records the window's commits wrote (inserts, updates and deletes of their write stats), known from the commit
     * metadata already read. The two agree for a window that wrote each key once. A key written by several commits of
     * the window counts once per commit here, so the estimate may read a table whole where the batch lists; records a
     * replace commit removed are in no write stat, so it may count fewer. Nor does it count the values the changed rows
     * join by, which the batch lists by the same rule before it reaches a table.
     *
     * @param joined the tables the query joins to this one by an equality of their columns
     */
    public TableChange reachingIfListed(Set<String> joined, ListLimit listLimit) {
      return reaching(listLimit.lists(changedRecords) ? joined : Collections.emptySet());
    }

    boolean changed() {
      return changedRecords > 0;
    }
  }

  /**
   * @param grouped        whether the view ends with a GROUP BY or DISTINCT
   * @param keepsState     for a grouped view, whether it keeps aggregate state (its changed groups are updated from it)
   * @param rewritesFiles  whether the target is COPY_ON_WRITE: an upsert rewrites every file a row falls in
   */
  public static ViewCost estimate(List<TableChange> tables, boolean grouped, boolean keepsState, boolean rewritesFiles,
                                  Weights weights) {
    checkArgument(!tables.isEmpty(), "A view reads at least one table");
    long allRows = 0;
    long largestRows = 0;
    for (TableChange table : tables) {
      allRows += table.rows;
      largestRows = Math.max(largestRows, table.rows);
    }
    long resultRows = grouped ? 0 : largestRows;

    long fullScanned = allRows + resultRows;
    double fullMillis = millis(weights.scanMicros * fullScanned + (weights.outputMicros + weights.writeMicros
        + (rewritesFiles ? weights.rewriteMicros : 0)) * resultRows);

    long scanned = 0;
    long produced = 0;
    double changeFraction = 0;
    List<String> passes = new ArrayList<>();
    Set<String> reachedTables = new HashSet<>();
    for (TableChange table : tables) {
      if (!table.changed()) {
        continue;
      }
      long ownRows = table.changedRowsFromImages ? table.changedRecords : 2 * table.rows;
      long otherRows = 0;
      for (TableChange other : tables) {
        if (other != table && !table.reached.contains(other.table)) {
          otherRows += 2 * other.rows;
        } else if (other != table) {
          reachedTables.add(other.table);
        }
      }
      long keyRows = table.removedKeys.rows(table.rows);
      long reached = (long) Math.min((double) table.changedRecords * largestRows / table.rows, 2.0 * largestRows);
      scanned += ownRows + otherRows + keyRows;
      changeFraction += (double) table.changedRecords / table.rows;
      produced += reached;
      String removed = table.removedKeys.describe();
      passes.add(String.format(Locale.ROOT, "%s: %d changed of ~%d rows, %s%s, produces ~%d rows", table.table,
          table.changedRecords, table.rows, table.changedRowsFromImages ? "rows from the delta's images"
              : "rows read from both states", removed.isEmpty() ? "" : ", " + removed, reached));
    }
    if (passes.isEmpty()) {
      return new ViewCost(0, fullMillis, 0, 0, String.format(Locale.ROOT,
          "no table changed; a full recompute ~%.0f ms", fullMillis));
    }
    for (TableChange table : tables) {
      if (reachedTables.contains(table.table)) {
        scanned += table.rows;
      }
    }
    if (grouped && !keepsState) {
      scanned += allRows;
    }
    long written = grouped ? 0 : Math.min(produced, 2 * largestRows);
    double incrementalMillis = weights.incrementalFixedMillis + millis(weights.scanMicros * scanned
        + weights.outputMicros * produced + weights.writeMicros * written
        + (rewritesFiles && written > 0 ? weights.rewriteMicros * resultRows : 0));
    String text = String.format(Locale.ROOT, "estimated cost: incremental ~%.0f ms (%s; ~%d rows scanned, ~%d written) "
        + "%s full recompute ~%.0f ms (~%d rows scanned, ~%d written)", incrementalMillis, String.join("; ", passes),
        scanned, written, incrementalMillis <= fullMillis ? "<=" : ">", fullMillis, fullScanned, resultRows);
    return new ViewCost(incrementalMillis, fullMillis, produced, changeFraction, text);
  }

  private static double millis(double micros) {
    return micros / 1000;
  }

  /** Whether the incremental batch is estimated to cost no more than the full recompute. */
  public boolean incrementalIsCheaper() {
    return incrementalMillis <= fullMillis;
  }

  public double incrementalMillis() {
    return incrementalMillis;
  }

  public double fullMillis() {
    return fullMillis;
  }

  /** The rows the incremental batch is estimated to produce: the changed rows and those they reach through joins. */
  public long producedRows() {
    return producedRows;
  }

  /** The records the batch's windows wrote over their tables' rows, summed over the tables. */
  public double changeFraction() {
    return changeFraction;
  }

  /** The tables' changes, the rows each plan touches and both costs. */
  @Override
  public String toString() {
    return text;
  }
}
