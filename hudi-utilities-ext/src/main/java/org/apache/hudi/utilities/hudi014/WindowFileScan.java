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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.IncrementalRelation;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.timeline.TimelineUtils.HollowCommitHandling;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.collection.Pair;
import org.apache.hudi.utilities.transform.sql.EmptyRows;

import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

import static org.apache.spark.sql.functions.col;

/**
 * Reads a copy-on-write table's incremental window straight from the files its commits wrote, as a Spark file scan,
 * where Hudi 0.14's {@link IncrementalRelation} would read the same files and filter, then hand Spark every row of
 * every column through a {@code TableScan}, which the query can neither prune nor filter.
 *
 * <p>The scan is the relation's, step for step: the window's commits are the completed commits after the position
 * (as many as num_instants allows); each commit's metadata names the files it wrote, a later commit's file of a file
 * group replacing an earlier one; the files are read with the relation's columns (the meta columns, then the table's
 * latest schema, with its nullability) and filtered to the window's commit times; the stock source then drops the meta
 * columns. A file group that a replace commit of the window (clustering, insert overwrite) replaced is not read, as
 * the relation does not read it ({@link WindowFiles}). Being a file scan, it is pruned to the query's columns, takes
 * its filters, and tells Spark its size: that of the window's rows in its files ({@link WindowFileIndex}).
 *
 * <p>A window the relation reads differently takes the stock read, and the log says why: a merge-on-read table, a
 * base file format other than parquet, tables without meta fields, schema evolution on read, positions compared by
 * completion time, a window with the bootstrap commit, a position before the active timeline, files Spark cannot read
 * (one cleaned: the relation then fails or falls back to a full table scan, as configured).
 */
final class WindowFileScan {

  private final SparkSession spark;
  private final HollowCommitHandling hollowCommits;
  private final Set<String> droppedMetaColumns;

  /**
   * @param droppedMetaColumns the meta columns the stock source drops from what it reads
   */
  WindowFileScan(SparkSession spark, HollowCommitHandling hollowCommits, Set<String> droppedMetaColumns) {
    this.spark = spark;
    this.hollowCommits = hollowCommits;
    this.droppedMetaColumns = droppedMetaColumns;
  }

  /** A window's rows from its files, or why the window needs the stock read. */
  static final class Outcome {
    private final Option<Pair<Dataset<Row>, String>> rowsAndEnd;
    private final String how;

    private Outcome(Option<Pair<Dataset<Row>, String>> rowsAndEnd, String how) {
      this.rowsAndEnd = rowsAndEnd;
      this.how = how;
    }

    static Outcome stockRead(String why) {
      return new Outcome(Option.empty(), "through Hudi's incremental relation: " + why);
    }

    /** The window's rows and its last instant (the table's new position), if its files were read. */
    Option<Pair<Dataset<Row>, String>> rowsAndEnd() {
      return rowsAndEnd;
    }

    /** How the window was read, for the log. */
    String how() {
      return how;
    }
  }

  /**
   * Reads the window after a position from its files, where the incremental relation would read the same files.
   *
   * @param timeline     the table's timeline of this batch
   * @param position     the inclusive instant the table was consumed up to
   * @param numInstants  how many commits the window may hold
   * @param tableColumns the relation's columns, the five meta columns and then the table's latest schema; asked for
   *                     only once the window qualifies, and empty if they cannot be resolved
   */
  Outcome read(SourceTimeline timeline, String position, int numInstants, Supplier<Option<StructType>> tableColumns) {
    HoodieTableConfig config = timeline.metaClient().getTableConfig();
    Option<String> unlikeHudisRead = ParquetFileScan.whyNotLikeHudisRead(spark, config);
    if (unlikeHudisRead.isPresent()) {
      return Outcome.stockRead(unlikeHudisRead.get());
    }
    if (hollowCommits == HollowCommitHandling.USE_TRANSITION_TIME) {
      return Outcome.stockRead("positions are completion times (" + hollowCommits + ")");
    }
    HoodieTimeline readable = timeline.readableCommits(hollowCommits);
    if (readable.isBeforeTimelineStarts(position)) {
      return Outcome.stockRead("the position is before the active timeline");
    }
    List<HoodieInstant> window = readable.findInstantsAfter(position, numInstants).getInstants();
    if (window.isEmpty()) {
      return Outcome.stockRead("no commit after the position");
    }
    if (window.stream().anyMatch(commit -> HoodieTimeline.METADATA_BOOTSTRAP_INSTANT_TS.equals(commit.getTimestamp()))) {
      return Outcome.stockRead("the window holds the bootstrap commit");
    }
    Option<StructType> columns = tableColumns.get();
    if (!columns.isPresent()) {
      return Outcome.stockRead("the table's latest schema cannot be resolved from its commits");
    }
    WindowFiles files = WindowFiles.of(timeline, window);
    if (!files.everyFileNamed()) {
      return Outcome.stockRead("a commit of the window names a file group without a file");
    }
    String first = window.get(0).getTimestamp();
    String end = window.get(window.size() - 1).getTimestamp();
    Dataset<Row> scan;
    try {
      scan = files.paths().isEmpty() ? EmptyRows.of(spark, columns.get())
          : ParquetFileScan.of(spark, files.paths(), columns.get(), files.windowBytes());
    } catch (Exception e) {
      // Spark checks that every path exists when the files are named; the stock read then fails or falls back to a
      // full table scan, as configured.
      if (!(e instanceof AnalysisException)) {
        throw e;
      }
      return Outcome.stockRead("Spark cannot read the window's files: " + e.getMessage());
    }
    Dataset<Row> rows = scan
        .filter(col(HoodieRecord.COMMIT_TIME_METADATA_FIELD).geq(first))
        .filter(col(HoodieRecord.COMMIT_TIME_METADATA_FIELD).leq(end))
        .drop(droppedMetaColumns.toArray(new String[0]));
    return new Outcome(Option.of(Pair.of(rows, end)), String.format(Locale.ROOT, "from %d files of %d commit(s)",
        files.paths().size(), window.size()));
  }
}
