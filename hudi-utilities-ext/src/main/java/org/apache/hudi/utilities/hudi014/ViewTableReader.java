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

import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.config.DeltaFormat;
import org.apache.hudi.utilities.exception.HoodieTransformPlanException;
import org.apache.hudi.utilities.transform.view.TableState;
import org.apache.hudi.utilities.transform.view.ViewCost;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static scala.collection.JavaConverters.asScalaBuffer;
import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * One source table of a view in one batch: its states at the batch's two positions, the record keys the batch's window
 * changed, and how large that change is against the table, estimated from commit metadata.
 */
public final class ViewTableReader {

  /** Write operations that add records without looking up whether their keys are stored. */
  private static final List<WriteOperationType> KEY_BLIND_OPERATIONS = Arrays.asList(WriteOperationType.INSERT,
      WriteOperationType.BULK_INSERT, WriteOperationType.INSERT_PREPPED, WriteOperationType.BULK_INSERT_PREPPED,
      WriteOperationType.INSERT_OVERWRITE, WriteOperationType.INSERT_OVERWRITE_TABLE);

  /** Records per byte of a table whose window wrote no base file to measure it by. */
  private static final double DEFAULT_RECORDS_PER_BYTE = 1.0 / 100;

  private final String table;
  private final List<String> recordKey;
  private final TableState state;
  private final long recordsWritten;
  private final long estimatedRows;
  private final ViewCost.RemovedKeysRead removedKeysRead;

  private ViewTableReader(String table, List<String> recordKey, TableState state, long recordsWritten,
                          long estimatedRows, ViewCost.RemovedKeysRead removedKeysRead) {
    this.table = table;
    this.recordKey = recordKey;
    this.state = state;
    this.recordsWritten = recordsWritten;
    this.estimatedRows = estimatedRows;
    this.removedKeysRead = removedKeysRead;
  }

  /**
   * @param previous the position before the batch; empty before the table's first batch
   * @param next     the position the batch commits
   * @param delta    the rows the batch read of the table, in {@code format}
   * @throws HoodieTransformPlanException if the table names no record key
   */
  public static ViewTableReader read(SparkSession spark, String table, String path, DeltaFormat format,
                                     Option<String> previous, Option<String> next, Dataset<Row> delta) {
    SourceTimeline timeline = SourceTimeline.load(path, spark.sparkContext().hadoopConfiguration())
        .orElseThrow(() -> new HoodieTransformPlanException(String.format("Cannot read table '%s' for the view: %s "
            + "holds no Hudi table", table, path)));
    List<String> recordKey = Arrays.asList(timeline.metaClient().getTableConfig().getRecordKeyFields()
        .orElse(new String[0]));
    if (recordKey.isEmpty()) {
      throw new HoodieTransformPlanException(String.format("Cannot maintain the view over table '%s': its "
          + "hoodie.properties names no record key (hoodie.table.recordkey.fields), by which its changed rows are "
          + "matched. Nothing was committed.", table));
    }
    Dataset<Row> before = withoutMetaColumns(TableSnapshot.asOf(spark, table, path, previous, delta));
    Dataset<Row> after = withoutMetaColumns(TableSnapshot.asOf(spark, table, path, next, delta));
    boolean unchanged = !next.isPresent() || next.equals(previous);
    if (unchanged) {
      // Sized by the last commit of its state, so that AUTO knows the rows of a table a batch did not change.
      Map<HoodieInstant, HoodieCommitMetadata> last = new LinkedHashMap<>();
      if (previous.isPresent() && !previous.get().equals(MultiTableCheckpoint.BEFORE_FIRST_INSTANT)) {
        timeline.completedCommits().findInstantsBeforeOrEquals(previous.get()).lastInstant()
            .ifPresent(instant -> last.put(instant, timeline.commitMetadata(instant)));
      }
      return new ViewTableReader(table, recordKey, new TableState(before, after, Option.empty()), 0,
          estimatedRows(before, last), ViewCost.RemovedKeysRead.none());
    }
    checkNoReadCommitRestored(table, timeline, previous, next.get());
    List<HoodieInstant> window = window(timeline, previous, next.get());
    // Each window commit's metadata, read once for the delete check, the records written and the size estimate.
    Map<HoodieInstant, HoodieCommitMetadata> metadata = new LinkedHashMap<>();
    window.forEach(instant -> metadata.put(instant, timeline.commitMetadata(instant)));
    Column[] keyColumns = recordKey.stream().map(column -> col(quoted(column))).toArray(Column[]::new);
    Dataset<Row> changedKeys;
    RemovedKeys removedKeys = RemovedKeys.none();
    if (format == DeltaFormat.CDC) {
      changedKeys = delta.select(recordKey.stream()
          .map(column -> coalesce(col("after." + quoted(column)), col("before." + quoted(column))).as(column))
          .toArray(Column[]::new));
    } else {
      // Incremental reads return no deleted record: the keys only the previous state holds, read from the file groups
      // the window deleted from.
      changedKeys = delta.select(keyColumns);
      removedKeys = RemovedKeys.find(spark, table, timeline, metadata, previous, next.get(), before, after, recordKey,
          recordsPerByte(metadata));
      if (removedKeys.keys().isPresent()) {
        changedKeys = changedKeys.unionByName(removedKeys.keys().get());
      }
    }
    if (mayHoldKeyTwice(timeline, metadata)) {
      checkKeysUnique(table, after, changedKeys, recordKey, next.get());
    }
    long recordsWritten = SourceTimeline.writtenIn(metadata.values()).records();
    TableState state = new TableState(before, after, Option.of(changedKeys));
    if (format == DeltaFormat.CDC && sameColumns(delta, before, ChangeDataReader.BEFORE)
        && sameColumns(delta, after, ChangeDataReader.AFTER)) {
      // The images are the changed keys' rows in each state: a pass restricted to them reads no snapshot.
      state = state.withChangedRows(image(delta, before, ChangeDataReader.BEFORE), image(delta, after,
          ChangeDataReader.AFTER));
    }
    return new ViewTableReader(table, recordKey, state, recordsWritten, estimatedRows(after, metadata),
        removedKeys.read());
  }

  /** The table's change as strategy AUTO's cost model counts it. */
  public ViewCost.TableChange change() {
    return new ViewCost.TableChange(table, estimatedRows, recordsWritten, state.changedRowsBefore().isPresent(),
        removedKeysRead);
  }

  public String table() {
    return table;
  }

  public List<String> recordKey() {
    return recordKey;
  }

  public TableState state() {
    return state;
  }

  /** Records the window's commits inserted, updated or deleted (0 for a table the batch reads nothing of). */
  public long recordsWritten() {
    return recordsWritten;
  }

  /**
   * The table's rows as of the batch's position, estimated from its files' size and the records per byte of the
   * window's commits (of its last commit, for a table the batch did not change).
   */
  public long estimatedRows() {
    return estimatedRows;
  }

  private static List<HoodieInstant> window(SourceTimeline timeline, Option<String> previous, String next) {
    HoodieTimeline completed = timeline.completedCommits();
    HoodieTimeline window = previous.isPresent() && !previous.get().equals(MultiTableCheckpoint.BEFORE_FIRST_INSTANT)
        ? completed.findInstantsInRange(previous.get(), next)
        : completed.findInstantsBeforeOrEquals(next);
    return window.getInstants();
  }

  /**
   * Fails if a restore completed in the batch's window took back commits the view read in earlier batches: their rows
   * are in the target, and no commit says which records went with them.
   */
  private static void checkNoReadCommitRestored(String table, SourceTimeline timeline, Option<String> previous,
                                                String next) {
    if (!previous.isPresent() || previous.get().equals(MultiTableCheckpoint.BEFORE_FIRST_INSTANT)) {
      return;
    }
    timeline.commitsRestoredIn(previous.get(), next).forEach((restore, commits) -> {
      List<String> read = commits.stream().filter(commit -> HoodieTimeline.compareTimestamps(commit,
          HoodieTimeline.LESSER_THAN_OR_EQUALS, previous.get())).collect(Collectors.toList());
      if (!read.isEmpty()) {
        throw new HoodieTransformPlanException(String.format("Cannot maintain the view over table '%s': restore %s "
            + "took back commit(s) %s, which earlier batches read up to %s, so the target holds rows the table no "
            + "longer has, and no commit names their keys. Nothing was committed. Rebuild the target: delete it and "
            + "run the Streamer again (the view is written from the tables' current state), or restore the target "
            + "to its last commit before %s too.", table, restore, read, previous.get(), read.get(0)));
      }
    });
  }

  /**
   * Whether the table may hold a record key twice: a partitioned table (on a non-global index a row that changes
   * partition is written to the new one and stays in the old), or commits that insert without looking up keys.
   */
  private static boolean mayHoldKeyTwice(SourceTimeline timeline, Map<HoodieInstant, HoodieCommitMetadata> window) {
    return timeline.metaClient().getTableConfig().isTablePartitioned()
        || window.values().stream().anyMatch(commit -> KEY_BLIND_OPERATIONS.contains(commit.getOperationType()));
  }

  /** Fails if a changed record key is held by more than one row of the table as of the batch's position. */
  private static void checkKeysUnique(String table, Dataset<Row> after, Dataset<Row> changedKeys,
                                      List<String> recordKey, String position) {
    Column[] keyColumns = recordKey.stream().map(column -> col(quoted(column))).toArray(Column[]::new);
    List<Row> repeated = after.select(keyColumns).join(changedKeys.distinct(), asScalaBuffer(recordKey)
        .toSeq(), "left_semi").groupBy(keyColumns).count().where(col("count").gt(1)).limit(3).collectAsList();
    if (!repeated.isEmpty()) {
      throw new HoodieTransformPlanException(String.format("Cannot maintain the view over table '%s': its record key "
          + "%s is held by more than one row as of %s (key and rows: %s). A view matches a table's changes by its "
          + "record key and would keep one of those rows silently. Nothing was committed. Such rows come from insert "
          + "or bulk_insert, which do not look up existing keys, or from a row that moved partition on a non-global "
          + "index: remove the extra rows from the table, and write it with upsert (with hoodie.index.type="
          + "GLOBAL_SIMPLE or GLOBAL_BLOOM where rows change partition).", table, recordKey, position, repeated));
    }
  }

  /** The rows of a state: its files' size times the records per byte of the commits' base files. */
  private static long estimatedRows(Dataset<Row> state, Map<HoodieInstant, HoodieCommitMetadata> commits) {
    // The files' size, from the scan: Spark scales a projection's estimate down by the columns it drops.
    double bytes = seqAsJavaList(state.queryExecution().optimizedPlan().collectLeaves()).stream()
        .mapToDouble(leaf -> leaf.stats().sizeInBytes().doubleValue()).sum();
    return (long) (bytes * recordsPerByte(commits));
  }

  /** Records per byte of the base files the window wrote (a base file's write stat counts all its records). */
  private static double recordsPerByte(Map<HoodieInstant, HoodieCommitMetadata> window) {
    long records = 0;
    long bytes = 0;
    for (HoodieCommitMetadata metadata : window.values()) {
      for (HoodieWriteStat stat : metadata.getWriteStats()) {
        if (stat.getPath() != null && stat.getPath().endsWith(".parquet") && stat.getFileSizeInBytes() > 0) {
          records += stat.getNumWrites();
          bytes += stat.getFileSizeInBytes();
        }
      }
    }
    return bytes == 0 ? DEFAULT_RECORDS_PER_BYTE : (double) records / bytes;
  }

  /** The rows of a CDC delta's image column that hold one, as rows of the state's columns. */
  private static Dataset<Row> image(Dataset<Row> delta, Dataset<Row> state, String image) {
    return delta.where(col(image).isNotNull()).select(Arrays.stream(state.columns())
        .map(column -> col(image + "." + quoted(column)).as(column)).toArray(Column[]::new));
  }

  /** Whether a CDC delta's image holds the state's columns, of the same types (not so after a column was added). */
  private static boolean sameColumns(Dataset<Row> delta, Dataset<Row> state, String image) {
    DataType imageType = delta.schema().apply(image).dataType();
    if (!(imageType instanceof StructType)) {
      return false;
    }
    StructField[] imageFields = ((StructType) imageType).fields();
    StructField[] stateFields = state.schema().fields();
    if (imageFields.length != stateFields.length) {
      return false;
    }
    for (int i = 0; i < stateFields.length; i++) {
      if (!imageFields[i].name().equals(stateFields[i].name())
          || !imageFields[i].dataType().sameType(stateFields[i].dataType())) {
        return false;
      }
    }
    return true;
  }

  private static Dataset<Row> withoutMetaColumns(Dataset<Row> rows) {
    return rows.drop(HoodieRecord.HOODIE_META_COLUMNS.toArray(new String[0]));
  }

  private static String quoted(String column) {
    return "`" + column.replace("`", "``") + "`";
  }
}
