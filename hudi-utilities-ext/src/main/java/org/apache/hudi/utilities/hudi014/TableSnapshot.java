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

import org.apache.hudi.DataSourceReadOptions;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.TimelineUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.metadata.MetadataPartitionType;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.exception.HoodieTransformException;
import org.apache.hudi.utilities.transform.sql.EmptyRows;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A source table's full state at a checkpoint position, with the same meta columns as the rows the batch read of it
 * (none for a CDC delta, whose before and after images hold the table's columns without them).
 */
public final class TableSnapshot {

  private TableSnapshot() {
  }

  /**
   * @param position the inclusive instant; empty, or before the first instant, for the state before any commit
   * @param rowsRead the batch's rows of the table, whose columns decide which Hudi meta columns the snapshot keeps
   * @return the table as of {@code position}, read with time travel (lazily); empty with the read rows' columns when
   *     there is no position
   * @throws HoodieTransformException if Hudi refuses the time travel, typically because the source's cleaner has
   *     passed the position: the message names the table, the position and the fix
   */
  public static Dataset<Row> asOf(SparkSession spark, String table, String path, Option<String> position, Dataset<Row> rowsRead) {
    StructType rowColumns = ChangeDataReader.imageColumns(rowsRead.schema()).orElse(rowsRead.schema());
    if (!isState(position)) {
      return EmptyRows.of(spark, rowColumns);
    }
    Dataset<Row> state;
    try {
      state = withMetaColumns(spark, path, position.get());
    } catch (IllegalArgumentException e) {
      // Hudi checks the instant against the cleaner's earliest commit to retain, but names neither table nor fix.
      throw new HoodieTransformException(String.format("Cannot read table '%s' as of %s for <SNAP>/<PREV> in the SQL: "
          + "%s. Nothing was committed. Retain more commits on the source (hoodie.cleaner.commits.retained, "
          + "hoodie.keep.min.commits) so that its cleaner still keeps the batch's previous position, or run the "
          + "Streamer more often.", table, position.get(), e.getMessage()), e);
    }
    List<String> readColumns = Arrays.asList(rowColumns.fieldNames());
    String[] absentMetaColumns = HoodieRecord.HOODIE_META_COLUMNS.stream()
        .filter(column -> !readColumns.contains(column))
        .toArray(String[]::new);
    return state.drop(absentMetaColumns);
  }

  /** Whether a position stands for a state of the table, rather than for the table before its first commit. */
  public static boolean isState(Option<String> position) {
    return position.isPresent() && !position.get().equals(MultiTableCheckpoint.BEFORE_FIRST_INSTANT);
  }

  /**
   * The table as of an instant, read with time travel (lazily), with all its Hudi meta columns. Builds a meta client of
   * the table: the transformer, which calls this through {@link #asOf}, is handed no timeline of the batch.
   *
   * @throws IllegalArgumentException now, not when the read runs (within the target's write), if Hudi refuses time
   *     travel to the instant: before the cleaner's earliest commit to retain
   */
  static Dataset<Row> withMetaColumns(SparkSession spark, String path, String instant) {
    return withMetaColumns(spark, path, HoodieTableMetaClient.builder().setConf(spark.sparkContext().hadoopConfiguration())
        .setBasePath(path).setLoadActiveTimelineOnLoad(true).build(), instant);
  }

  /**
   * As {@link #withMetaColumns(SparkSession, String, String)}, with the table's meta client of the batch, whose timeline
   * holds the instant.
   */
  static Dataset<Row> withMetaColumns(SparkSession spark, String path, HoodieTableMetaClient metaClient, String instant) {
    TimelineUtils.validateTimestampAsOf(metaClient, instant);
    return spark.read().format("hudi")
        .option(DataSourceReadOptions.TIME_TRAVEL_AS_OF_INSTANT().key(), instant)
        .options(dataSkipping(metaClient))
        .load(path);
  }

  /**
   * The read options that let filters on the snapshot skip files through the table's column stats: Hudi 0.14's
   * {@code HoodieFileIndex} prunes with them only if the reader enables the metadata table and data skipping
   * (both off for readers by default). Not on a table with a record-level index: for an equality or IN filter on
   * the record key, the file index then looks the keys up in the newest record index instead, which does not know
   * where a key was at an older instant (a key deleted or moved since would be skipped), and a snapshot is read as
   * of the batch's instant, often not the newest. {@link RecordIndexScan} uses that index where it does describe the
   * snapshot.
   */
  private static Map<String, String> dataSkipping(HoodieTableMetaClient metaClient) {
    Set<String> indexes = metaClient.getTableConfig().getMetadataPartitions();
    if (!indexes.contains(MetadataPartitionType.COLUMN_STATS.getPartitionPath())
        || indexes.contains(MetadataPartitionType.RECORD_INDEX.getPartitionPath())) {
      return Collections.emptyMap();
    }
    Map<String, String> options = new HashMap<>();
    options.put(HoodieMetadataConfig.ENABLE.key(), "true");
    options.put(HoodieMetadataConfig.ENABLE_METADATA_INDEX_COLUMN_STATS.key(), "true");
    options.put(DataSourceReadOptions.ENABLE_DATA_SKIPPING().key(), "true");
    return options;
  }
}
