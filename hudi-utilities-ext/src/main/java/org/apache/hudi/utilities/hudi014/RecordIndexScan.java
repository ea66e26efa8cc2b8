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

import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.model.HoodieBaseFile;
import org.apache.hudi.common.model.HoodieRecordGlobalLocation;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.metadata.HoodieMetadataFileSystemView;
import org.apache.hudi.metadata.HoodieTableMetadata;
import org.apache.hudi.metadata.MetadataPartitionType;
import org.apache.hudi.utilities.transform.sql.EmptyRows;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.apache.spark.sql.functions.col;

/**
 * Reads the rows of a copy-on-write table's snapshot that have given record keys from only the file groups that the
 * table's record-level index (Hudi 0.14's {@code record_index} partition of the metadata table) places those keys in.
 * Column stats skip a file only when its range of the key misses every key; the index names each key's file group,
 * whatever the table's layout.
 *
 * <p>Hudi 0.14's index holds the newest location of each key, so it says where a key is at the table's latest
 * commit only. A snapshot as of an older instant (a batch's previous position, a window that num_instants cut short)
 * is not read through it, nor one whose table committed while the keys were looked up: the latest completed commit
 * is checked to be the snapshot's instant before the lookup and again after it. The index is global: a table whose
 * writers kept one key in several partitions (a non-global write index beside the metadata table's record index) is
 * not one Hudi's own readers can use it on either.
 *
 * <p>Read this way only where the file scan gives the rows Hudi's snapshot read gives: a copy-on-write table in
 * parquet, with meta fields and partition columns in its files, no schema evolution on read, a single record key
 * field of type string that is the joined column, and a key generator that writes that field's value as the record
 * key (simple or non-partitioned). Anything else returns empty, and the log says why: the caller reads the snapshot
 * with the keys as a filter instead.
 */
public final class RecordIndexScan {

  private static final Logger LOG = LoggerFactory.getLogger(RecordIndexScan.class);

  /** Key generators whose record key of a single string field is the field's value. */
  private static final Set<String> VALUE_AS_KEY_GENERATORS = Set.of("org.apache.hudi.keygen.SimpleKeyGenerator",
      "org.apache.hudi.keygen.SimpleAvroKeyGenerator", "org.apache.hudi.keygen.NonpartitionedKeyGenerator",
      "org.apache.hudi.keygen.NonpartitionedAvroKeyGenerator");

  private RecordIndexScan() {
  }

  /**
   * @param snapshot the table read as of {@code instant}, whose columns the rows keep
   * @param column   the snapshot's column the keys are values of
   * @param keys     the keys, non-null strings
   * @return the snapshot's rows whose {@code column} is one of the keys, read from the file groups that hold them;
   *     empty if the index cannot say which those are
   */
  public static Option<Dataset<Row>> rowsWithKeys(SparkSession spark, String table, String path, String instant,
                                                  Dataset<Row> snapshot, String column, List<Object> keys) {
    // The timeline is loaded only for a table whose configuration allows the lookup.
    HoodieTableMetaClient metaClient = HoodieTableMetaClient.builder()
        .setConf(spark.sparkContext().hadoopConfiguration()).setBasePath(path).build();
    Option<String> notIndexed = whyNotIndexed(spark, metaClient, snapshot.schema(), column);
    if (!notIndexed.isPresent() && !isLatestCommit(metaClient, instant)) {
      notIndexed = Option.of("the snapshot's instant " + instant + " is not the table's latest commit");
    }
    if (notIndexed.isPresent()) {
      LOG.info("Not reading snapshot of {} through its record-level index: {}", table, notIndexed.get());
      return Option.empty();
    }
    // Distinct: Hudi's lookup fails on a key asked for twice.
    List<String> keyStrings = keys.stream().map(String.class::cast).distinct().collect(Collectors.toList());
    HoodieTableMetadata metadata = HoodieTableMetadata.create(new HoodieLocalEngineContext(metaClient.getHadoopConf()),
        HoodieMetadataConfig.newBuilder().enable(true).build(), path);
    try {
      Collection<HoodieRecordGlobalLocation> locations = metadata.readRecordIndex(keyStrings).values();
      metaClient.reloadActiveTimeline();
      if (!isLatestCommit(metaClient, instant)) {
        LOG.info("Not reading snapshot of {} through its record-level index: a commit after {} completed during the "
            + "lookup", table, instant);
        return Option.empty();
      }
      Option<List<String>> baseFiles = latestBaseFiles(metaClient, metadata, instant, locations);
      if (!baseFiles.isPresent()) {
        return Option.empty();
      }
      List<String> files = baseFiles.get();
      LOG.info("Reading snapshot of {} at {} from the {} file group(s) that its record-level index places {} of the "
          + "{} keys in", table, instant, files.size(), locations.size(), keys.size());
      if (files.isEmpty()) {
        return Option.of(EmptyRows.of(spark, snapshot.schema()));
      }
      return Option.of(ParquetFileScan.of(spark, files, snapshot.schema(), Option.empty())
          .filter(col(quoted(column)).isin(keys.toArray())));
    } finally {
      close(metadata);
    }
  }

  private static Option<String> whyNotIndexed(SparkSession spark, HoodieTableMetaClient metaClient, StructType columns,
                                              String column) {
    HoodieTableConfig config = metaClient.getTableConfig();
    if (!config.isMetadataPartitionAvailable(MetadataPartitionType.RECORD_INDEX)) {
      return Option.of("the table has none");
    }
    Option<String> unlikeHudisRead = ParquetFileScan.whyNotLikeHudisRead(spark, config);
    if (unlikeHudisRead.isPresent()) {
      return unlikeHudisRead;
    }
    if (config.shouldDropPartitionColumns()) {
      return Option.of("partition columns are not in the files (" + HoodieTableConfig.DROP_PARTITION_COLUMNS.key() + ")");
    }
    List<String> keyFields = config.getRecordKeyFields().map(Arrays::asList).orElse(new ArrayList<>());
    if (keyFields.size() != 1 || !keyFields.get(0).equalsIgnoreCase(column)) {
      return Option.of("the joined column " + column + " is not the table's one record key field " + keyFields);
    }
    if (Arrays.stream(columns.fields()).noneMatch(field -> field.name().equalsIgnoreCase(column)
        && field.dataType().equals(DataTypes.StringType))) {
      return Option.of("the record key column " + column + " is not a string column");
    }
    if (!VALUE_AS_KEY_GENERATORS.contains(config.getKeyGeneratorClassName())) {
      return Option.of("key generator " + config.getKeyGeneratorClassName() + " may write keys other than the "
          + "field's value");
    }
    return Option.empty();
  }

  private static boolean isLatestCommit(HoodieTableMetaClient metaClient, String instant) {
    return metaClient.getCommitsTimeline().filterCompletedInstants().lastInstant()
        .map(HoodieInstant::getTimestamp).map(instant::equals).orElse(false);
  }

  /**
   * The latest base file, at the table's latest commit {@code instant}, of each file group a key is located in; empty
   * if one has none (the index and the table disagree: the caller reads with the keys as a filter instead).
   */
  private static Option<List<String>> latestBaseFiles(HoodieTableMetaClient metaClient, HoodieTableMetadata metadata,
                                                      String instant, Collection<HoodieRecordGlobalLocation> locations) {
    // Not closed: closing the view closes the metadata reader, which the caller closes.
    HoodieTableFileSystemView view = new HoodieMetadataFileSystemView(metaClient,
        metaClient.getCommitsTimeline().filterCompletedInstants().findInstantsBeforeOrEquals(instant), metadata);
    Set<String> files = new TreeSet<>();
    for (HoodieRecordGlobalLocation location : locations) {
      Option<HoodieBaseFile> file = view.getLatestBaseFile(location.getPartitionPath(), location.getFileId());
      if (!file.isPresent()) {
        LOG.warn("The record-level index of {} places keys in file group {} of partition '{}', which has no base file "
            + "at {}", metaClient.getBasePath(), location.getFileId(), location.getPartitionPath(), instant);
        return Option.empty();
      }
      files.add(file.get().getPath());
    }
    return Option.of(new ArrayList<>(files));
  }

  private static String quoted(String column) {
    return "`" + column.replace("`", "``") + "`";
  }

  private static void close(HoodieTableMetadata metadata) {
    try {
      metadata.close();
    } catch (Exception e) {
      LOG.warn("Could not close a metadata table reader", e);
    }
  }
}
