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

import org.apache.hudi.AvroConversionUtils;
import org.apache.hudi.DataSourceReadOptions;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.cdc.HoodieCDCUtils;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.config.DeltaFormat;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.exception.HoodieReadFromSourceException;
import org.apache.hudi.utilities.sources.multi.TableWindow;
import org.apache.hudi.utilities.sources.multi.WindowReadability;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.List;

import static org.apache.hudi.common.model.HoodieRecord.COMMIT_TIME_METADATA_FIELD;
import static org.apache.hudi.common.util.ValidationUtils.checkArgument;
import static org.apache.spark.sql.functions.call_udf;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.from_json;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.when;

/**
 * Reads a table's delta as {@link DeltaFormat#CDC}: per record changed in a window, its net change over the window,
 * from Hudi 0.14's CDC query ({@code hoodie.datasource.query.incremental.format=cdc}).
 *
 * <p>Hudi's CDC query returns one row per change and commit, {@code op, ts_ms, before, after}, its images as JSON
 * strings. This reader parses the images into structs of the table's columns (without Hudi's meta columns) and folds
 * the changes of each record key into one: {@code before} as of the window's start, {@code after} as of its end, so
 * that a record inserted and updated in one window is one insert, and one inserted and deleted is no row. The delta
 * then holds, per changed key, exactly the difference between the table's state at the previous position
 * ({@code <PREV:t>}) and at the next one ({@code <SNAP:t>}).
 */
final class ChangeDataReader {

  private static final Logger LOG = LoggerFactory.getLogger(ChangeDataReader.class);
  static final String OP = HoodieCDCUtils.CDC_OPERATION_TYPE;
  static final String TS = HoodieCDCUtils.CDC_COMMIT_TIMESTAMP;
  static final String BEFORE = HoodieCDCUtils.CDC_BEFORE_IMAGE;
  static final String AFTER = HoodieCDCUtils.CDC_AFTER_IMAGE;

  /** Types whose values Hudi 0.14 writes into the JSON images as plain JSON values (dates and timestamps as numbers). */
  private static final List<DataType> IMAGE_TYPES = Arrays.asList(DataTypes.StringType, DataTypes.BooleanType,
      DataTypes.ByteType, DataTypes.ShortType, DataTypes.IntegerType, DataTypes.LongType, DataTypes.FloatType,
      DataTypes.DoubleType, DataTypes.DateType, DataTypes.TimestampType);

  private final SparkSession spark;

  ChangeDataReader(SparkSession spark) {
    this.spark = spark;
  }

  /**
   * A table configured for CDC must keep change data: checked at startup (see {@link MultiTableReader}) and, for a
   * table that did not exist then, when it is read.
   *
   * @throws IllegalArgumentException naming the key and the fix, if the table does not keep change data
   */
  static void checkEnabled(SourceTable table, HoodieTableConfig tableConfig) {
    String key = formatKey(table);
    checkArgument(tableConfig.isCDCEnabled(), () -> String.format("Cannot read table '%s' as CDC (%s=%s): its "
        + "hoodie.properties at %s does not set %s=true, so Hudi keeps no change data for it. Nothing was committed. "
        + "(Create the table with %s=true, or set %s=%s and find deletes with the PREV/SNAP recipe)", table.name(),
        key, DeltaFormat.CDC, table.path(), HoodieTableConfig.CDC_ENABLED.key(), HoodieTableConfig.CDC_ENABLED.key(),
        key, DeltaFormat.LATEST_STATE));
  }

  /** The key of the table's delta format, which every message about its CDC delta names. */
  static String formatKey(SourceTable table) {
    return HoodieIncrMultiSourceConfig.forTable(HoodieIncrMultiSourceConfig.TABLE_INCR_FORMAT, table.name()).key();
  }

  /**
   * The columns of the table's rows, without Hudi's meta columns: the columns of the before and after images.
   *
   * @throws HoodieReadFromSourceException for a column whose type Hudi's CDC images do not keep faithfully
   */
  StructType imageColumns(SourceTable table, SourceTimeline timeline) {
    StructType columns;
    try {
      columns = AvroConversionUtils.convertAvroSchemaToStructType(
          new TableSchemaResolver(timeline.metaClient()).getTableAvroSchema(false));
    } catch (Exception e) {
      throw new HoodieReadFromSourceException(String.format("Cannot resolve the schema of table '%s' at %s",
          table.name(), table.path()), e);
    }
    for (StructField field : columns.fields()) {
      if (!IMAGE_TYPES.contains(field.dataType())) {
        throw new HoodieReadFromSourceException(String.format("Cannot read table '%s' as CDC: its column '%s' has "
            + "type %s, which Hudi 0.14's CDC query does not write faithfully into its before and after images (only "
            + "strings, booleans, numbers other than decimals, dates and timestamps). Nothing was committed. (Set %s=%s "
            + "for this table)", table.name(), field.name(), field.dataType().simpleString(),
            formatKey(table), DeltaFormat.LATEST_STATE));
      }
    }
    return columns;
  }

  /** The columns of a CDC delta whose images have these columns. */
  static StructType deltaColumns(StructType imageColumns) {
    return new StructType().add(OP, DataTypes.StringType).add(TS, DataTypes.StringType)
        .add(BEFORE, imageColumns).add(AFTER, imageColumns);
  }

  /** The columns of the images, if these are the columns of a CDC delta; empty for any other rows. */
  static Option<StructType> imageColumns(StructType rows) {
    if (!Arrays.asList(rows.fieldNames()).equals(Arrays.asList(OP, TS, BEFORE, AFTER))) {
      return Option.empty();
    }
    // Field names, not types: the images of a first read come from a snapshot, whose nullability may differ.
    DataType before = rows.apply(BEFORE).dataType();
    DataType after = rows.apply(AFTER).dataType();
    return before instanceof StructType && after instanceof StructType
        && Arrays.equals(((StructType) before).fieldNames(), ((StructType) after).fieldNames())
        ? Option.of((StructType) before) : Option.empty();
  }

  /**
   * The net changes of a window with commits (lazily). Without a position, the table had no state before the window:
   * every row it holds at the window's end is an insert, read with time travel.
   *
   * @throws HoodieReadFromSourceException if the position is older than the active timeline, which Hudi's CDC query
   *     cannot read
   */
  Dataset<Row> read(SourceTable table, SourceTimeline timeline, TableWindow window, StructType imageColumns) {
    String end = window.end().get();
    if (!TableSnapshot.isState(window.position())) {
      Dataset<Row> state = TableSnapshot.withMetaColumns(spark, table.path(), timeline.metaClient(), end);
      Column commitTime = commitTime(state, end);
      Column[] columns = Arrays.stream(imageColumns.fieldNames()).map(column -> state.col(column)).toArray(Column[]::new);
      return state.select(lit("i").as(OP), commitTime.as(TS), lit(null).cast(imageColumns).as(BEFORE),
          struct(columns).as(AFTER));
    }
    String position = window.position().get();
    // No full-scan fallback for a CDC read: an archived position fails whatever the table's settings.
    WindowReadability readability = timeline.retention().readability(position);
    if (readability.archived()) {
      throw new HoodieReadFromSourceException(String.format("Cannot read table '%s' as CDC after %s: that position is "
          + "older than the table's active timeline (which starts at %s), and Hudi's CDC query reads active commits "
          + "only. Nothing was committed. Move the table with --checkpoint '%s=EARLIEST' (its rows again, as inserts) "
          + "or '%s=LATEST' (skip to now).", table.name(), position, readability.activeTimelineStart().orElse("<none>"),
          table.name(), table.name()));
    }
    Option<String> withoutChangeLog = writeWithoutChangeLog(timeline, window);
    if (withoutChangeLog.isPresent()) {
      LOG.warn("Reading table '{}' as CDC over ({}, {}] by comparing its snapshots at both ends (two full reads): {}",
          table.name(), window.fromExclusive(), end, withoutChangeLog.get());
      return changesBetweenSnapshots(table, timeline, position, end, imageColumns);
    }
    Dataset<Row> changes = spark.read().format("hudi")
        .option(DataSourceReadOptions.QUERY_TYPE().key(), DataSourceReadOptions.QUERY_TYPE_INCREMENTAL_OPT_VAL())
        .option(DataSourceReadOptions.INCREMENTAL_FORMAT().key(), DataSourceReadOptions.INCREMENTAL_FORMAT_CDC_VAL())
        // Hudi's CDC range is (begin, end]: the window's.
        .option(DataSourceReadOptions.BEGIN_INSTANTTIME().key(), window.fromExclusive())
        .option(DataSourceReadOptions.END_INSTANTTIME().key(), end)
        .load(table.path())
        .select(col(OP), col(TS), image(col(BEFORE), imageColumns).as(BEFORE), image(col(AFTER), imageColumns).as(AFTER));
    return netChanges(changes, recordKeyFields(table, timeline));
  }

  /**
   * A write of the window whose changes Hudi 0.14's CDC query cannot read, described; empty if there is none.
   *
   * <p>{@code HoodieMergeHandleWithChangeLog} writes no change log file when a merge keeps no record of the file
   * group's previous version (all deleted, with or without new inserts), and {@code HoodieCDCExtractor} infers the
   * changes of a base file without one only for a delete operation that empties the file and for a file of inserts
   * only. Any other such write, as an upsert whose {@code _hoodie_is_deleted} rows empty a file group or deletes and
   * inserts in one file group, fails the CDC query with "There should be a cdc log file." in every later batch.
   */
  static Option<String> writeWithoutChangeLog(SourceTimeline timeline, TableWindow window) {
    for (HoodieInstant commit : timeline.completedCommits().getInstants()) {
      if (!window.instants().contains(commit.getTimestamp())) {
        continue;
      }
      HoodieCommitMetadata metadata = timeline.commitMetadata(commit);
      if (!WriteOperationType.isDataChange(metadata.getOperationType())) {
        continue;
      }
      for (HoodieWriteStat stat : metadata.getWriteStats()) {
        boolean hasChangeLog = stat.getCdcStats() != null && !stat.getCdcStats().isEmpty();
        boolean emptiedByDelete = WriteOperationType.isDelete(metadata.getOperationType())
            && stat.getNumWrites() == 0 && stat.getNumDeletes() != 0;
        boolean insertsOnly = stat.getNumUpdateWrites() == 0 && stat.getNumDeletes() == 0
            && stat.getNumWrites() == stat.getNumInserts();
        if (!hasChangeLog && FSUtils.isBaseFile(new Path(stat.getPath())) && !emptiedByDelete && !insertsOnly) {
          return Option.of(String.format("commit %s (%s) wrote %s with %d deletes, %d inserts and no record of its "
              + "previous version, and no change log file", commit.getTimestamp(), metadata.getOperationType(),
              stat.getPath(), stat.getNumDeletes(), stat.getNumInserts()));
        }
      }
    }
    return Option.empty();
  }

  /**
   * The net changes of a window as the difference between the table's states at its two ends, by record key: the
   * rows of {@link #netChanges}, with {@code ts_ms} the commit of the row's after image, or the window's end for a
   * deleted row.
   */
  private Dataset<Row> changesBetweenSnapshots(SourceTable table, SourceTimeline timeline, String position, String end,
                                               StructType imageColumns) {
    String[] recordKeyFields = recordKeyFields(table, timeline);
    Dataset<Row> before;
    try {
      before = images(TableSnapshot.withMetaColumns(spark, table.path(), timeline.metaClient(), position),
          recordKeyFields, imageColumns, end);
    } catch (IllegalArgumentException e) {
      throw new HoodieReadFromSourceException(String.format("Cannot read table '%s' as CDC after %s: a commit of the "
          + "window has no change log that Hudi's CDC query can read, and the table's state at %s, which the changes "
          + "are then computed from, is cleaned (%s). Nothing was committed. Retain more commits on the source "
          + "(hoodie.cleaner.commits.retained), or move the table with --checkpoint '%s=EARLIEST' (its rows again, as "
          + "inserts).", table.name(), position, position, e.getMessage(), table.name()), e);
    }
    Dataset<Row> after = images(TableSnapshot.withMetaColumns(spark, table.path(), timeline.metaClient(), end),
        recordKeyFields, imageColumns, end);
    return before.as("b").join(after.as("a"), col("b.key").equalTo(col("a.key")), "full_outer")
        .where(not(col("b.image").eqNullSafe(col("a.image"))))
        .select(when(col("b.image").isNull(), "i").when(col("a.image").isNull(), "d").otherwise("u").as(OP),
            coalesce(col("a.commit"), lit(end)).as(TS), col("b.image").as(BEFORE), col("a.image").as(AFTER));
  }

  /** A table's state as rows of its record key, its image and the commit that wrote it (the window's end if unknown). */
  private static Dataset<Row> images(Dataset<Row> state, String[] recordKeyFields, StructType imageColumns,
                                     String end) {
    return state.select(struct(Arrays.stream(recordKeyFields).map(state::col).toArray(Column[]::new)).as("key"),
        struct(Arrays.stream(imageColumns.fieldNames()).map(state::col).toArray(Column[]::new)).as("image"),
        commitTime(state, end).as("commit"));
  }

  /** The commit that wrote each row of a state; the window's end for a table that keeps no meta columns. */
  private static Column commitTime(Dataset<Row> state, String end) {
    return Arrays.asList(state.columns()).contains(COMMIT_TIME_METADATA_FIELD) ? col(COMMIT_TIME_METADATA_FIELD)
        : lit(end);
  }

  /**
   * One row per record key: the image before its first change in the window and after its last one (ts_ms is the
   * commit's instant). A key inserted and deleted in the window has no row. One commit can change a key twice: under a
   * global index, a row moved to another partition is deleted from its old file group and inserted into its new one at
   * the same instant; of a commit's changes, the image before is the delete's and the image after the insert's, so the
   * move is the update it is.
   */
  private static Dataset<Row> netChanges(Dataset<Row> changes, String[] recordKeyFields) {
    Column[] key = Arrays.stream(recordKeyFields)
        .map(field -> coalesce(col(AFTER + "." + field), col(BEFORE + "." + field)))
        .toArray(Column[]::new);
    return changes.groupBy(struct(key))
        .agg(max(col(TS)).as(TS), call_udf("min_by", col(BEFORE), struct(col(TS), col(BEFORE).isNull())).as(BEFORE),
            call_udf("max_by", col(AFTER), struct(col(TS), col(AFTER).isNotNull())).as(AFTER))
        .where(col(BEFORE).isNotNull().or(col(AFTER).isNotNull()))
        .select(when(col(BEFORE).isNull(), "i").when(col(AFTER).isNull(), "d").otherwise("u").as(OP), col(TS),
            col(BEFORE), col(AFTER));
  }

  private static String[] recordKeyFields(SourceTable table, SourceTimeline timeline) {
    String[] fields = timeline.metaClient().getTableConfig().getRecordKeyFields().orElse(new String[0]);
    if (fields.length > 0) {
      return fields;
    }
    throw new HoodieReadFromSourceException(String.format("Cannot read table '%s' as CDC: its "
            + "hoodie.properties names no record key fields (%s), by which the changes of a record are folded. "
            + "Nothing was committed. (Set %s=%s for this table)", table.name(),
            HoodieTableConfig.RECORDKEY_FIELDS.key(),
            formatKey(table), DeltaFormat.LATEST_STATE));
  }

  /**
   * An image as a struct of the table's columns; null where there is none. Hudi writes a date as its day number
   * and a timestamp as microseconds since the epoch, which the JSON reader would take for seconds.
   */
  private static Column image(Column json, StructType columns) {
    StructType jsonColumns = new StructType(Arrays.stream(columns.fields())
        .map(field -> field.copy(field.name(), jsonType(field.dataType()), true, field.metadata()))
        .toArray(StructField[]::new));
    Column parsed = from_json(json, jsonColumns);
    Column[] fields = Arrays.stream(columns.fields())
        .map(field -> fromJson(parsed.getField(field.name()), field.dataType()).as(field.name()))
        .toArray(Column[]::new);
    // Hudi writes a missing image of its CDC log files as the JSON text 'null', which from_json reads as a struct of
    // nulls.
    return when(json.isNull().or(json.equalTo("null")), lit(null).cast(columns)).otherwise(struct(fields));
  }

  private static DataType jsonType(DataType type) {
    if (type.equals(DataTypes.DateType)) {
      return DataTypes.IntegerType;
    }
    return type.equals(DataTypes.TimestampType) ? DataTypes.LongType : type;
  }

  private static Column fromJson(Column value, DataType type) {
    if (type.equals(DataTypes.DateType)) {
      return call_udf("date_from_unix_date", value);
    }
    return type.equals(DataTypes.TimestampType) ? call_udf("timestamp_micros", value) : value;
  }
}
