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
import org.apache.hudi.common.util.Option;
import org.apache.hudi.metadata.MetadataPartitionType;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.exception.HoodieTransformException;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A source table's full state at a checkpoint position, with the same meta columns as the rows the batch read of it.
 */
public final class TableSnapshot {

  private TableSnapshot() {
  }

  /**
   * @param position the inclusive instant; empty, or before the first instant, for the state before any commit
   * @param rowsRead the batch's rows of the table, whose columns decide which Hudi meta columns the snapshot keeps
   * @return the table as of {@code position}, read with time travel (lazily); empty with the read rows' columns when
   *     there is no position
   * @throws HoodieTransformException if the source's cleaner or archival no longer keeps the table's state
   *     at {@code position}: Hudi's time travel would then leave out the file groups rewritten since, without an error
   */
  public static Dataset<Row> asOf(SparkSession spark, String table, String path, Option<String> position, Dataset<Row> rowsRead) {
    if (!position.isPresent() || position.get().equals(MultiTableCheckpoint.BEFORE_FIRST_INSTANT)) {
      // Not a provably empty relation: Spark 3.4 can mis-bind union columns after pruning one (see the source reader).
      return spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).<Row>emptyRDD(),
          rowsRead.schema());
    }
    SourceTimeline timeline = SourceTimeline.load(path, spark.sparkContext().hadoopConfiguration()).orElseThrow(() ->
        new HoodieTransformException(String.format("Cannot read a snapshot of table '%s': %s holds no Hudi "
            + "table", table, path)));
    checkRetained(table, SourceRetention.of(timeline), position.get());
    Dataset<Row> state = spark.read().format("hudi")
        .option(DataSourceReadOptions.TIME_TRAVEL_AS_OF_INSTANT().key(), position.get())
        .options(dataSkipping(timeline.metaClient()))
        .load(path);
    List<String> readColumns = Arrays.asList(rowsRead.columns());
    String[] absentMetaColumns = HoodieRecord.HOODIE_META_COLUMNS.stream()
        .filter(column -> !readColumns.contains(column))
        .toArray(String[]::new);
    return state.drop(absentMetaColumns);
  }

  /**
   * A snapshot as of a position whose file versions the cleaner may have removed, or that archival has passed, is
   * refused: Hudi builds the time-travel view from the files that exist and would silently read other versions or
   * fewer rows. Typically {@code <PREV:t>}, read at the previous position, when the source keeps just the commits the
   * next window needs.
   */
  private static void checkRetained(String table, SourceRetention retention, String position) {
    if (!retention.keepsStateAt(position)) {
      throw new HoodieTransformException(String.format("Cannot read table '%s' as of %s for <SNAP>/<PREV> in the SQL: "
          + "its source no longer keeps the table's state at that instant (%s), and the snapshot would silently hold "
          + "other versions or miss rows. Nothing was committed. Retain more commits on the source "
          + "(hoodie.cleaner.commits.retained, hoodie.keep.min.commits) so that its cleaner keeps the commit after the "
          + "previous position, or run the Streamer more often.", table, position, retention));
    }
  }

  /**
   * The read options that let filters on the snapshot skip files through the table's column stats: Hudi 0.14's
   * {@code HoodieFileIndex} prunes with them only if the reader enables the metadata table and data skipping
   * (both off for readers by default). Not on a table with a record-level index: for an equality or IN filter on
   * the record key, the file index then looks the keys up in the newest record index instead, which does not know
   * where a key was at an older instant (a key deleted or moved since would be skipped), and a snapshot is read as
   * of the batch's instant, often not the newest.
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
