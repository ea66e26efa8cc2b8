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

package org.apache.hudi.utilities.benchmarks;

import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.keygen.NonpartitionedKeyGenerator;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes the source tables of every benchmark: COPY_ON_WRITE unless told otherwise, non-partitioned, ordered by a {@code ts} column, each
 * write's shuffle on 2 partitions (the cores of the machine measured). Immutable: each {@code with...} returns a new
 * writer, so that a benchmark states once the options its tables need.
 */
final class HudiTableWriter {

  private static final String SHUFFLE_PARALLELISM = "2";

  private final Map<String, String> options;

  private HudiTableWriter(Map<String, String> options) {
    this.options = Collections.unmodifiableMap(options);
  }

  /**
   * A writer of table {@code table}, records keyed by the column {@code recordKey}, with Hudi's defaults for every
   * option not named here (metadata table on, small-file handling on, 120 MiB parquet files).
   */
  static HudiTableWriter nonPartitioned(String table, String recordKey) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("hoodie.table.name", table);
    options.put("hoodie.datasource.write.recordkey.field", recordKey);
    options.put("hoodie.datasource.write.precombine.field", "ts");
    options.put("hoodie.datasource.write.partitionpath.field", "");
    options.put("hoodie.datasource.write.keygenerator.class", NonpartitionedKeyGenerator.class.getName());
    return new HudiTableWriter(options);
  }

  /**
   * Small-file handling off (limit 0) and parquet files of at most {@code maxFileMib}: each commit's rows land in new
   * files, as an append-only table's do. A commit that rewrote older files would make an incremental read of it scan
   * their old rows too.
   */
  HudiTableWriter withoutSmallFiles(int maxFileMib) {
    return with("hoodie.parquet.small.file.limit", "0")
        .with("hoodie.parquet.max.file.size", String.valueOf(maxFileMib * 1024L * 1024L));
  }

  /** Tables of {@code tableType} ({@code COPY_ON_WRITE} or {@code MERGE_ON_READ}). */
  HudiTableWriter withTableType(String tableType) {
    return with("hoodie.datasource.write.table.type", tableType);
  }

  /** Records ordered by {@code column} instead of {@code ts}. */
  HudiTableWriter withOrderingField(String column) {
    return with("hoodie.datasource.write.precombine.field", column);
  }

  /**
   * Hudi's bucket index with {@code buckets} buckets hashed on the record key: an upsert finds a key's file group by
   * its hash, without the Bloom index's lookup, which reads the keys of every file a key may be in. Takes effect only
   * on the table's first write, which creates it.
   */
  HudiTableWriter withBucketIndex(int buckets) {
    return with("hoodie.index.type", "BUCKET")
        .with("hoodie.bucket.index.num.buckets", String.valueOf(buckets))
        .with("hoodie.bucket.index.hash.field", options.get("hoodie.datasource.write.recordkey.field"));
  }

  /** No metadata table: a write, and a read that plans from the file system, do not pay for it. */
  HudiTableWriter withoutMetadataTable() {
    return with("hoodie.metadata.enable", "false");
  }

  /**
   * The metadata table with its column stats index (of every column), as a table written for data skipping is; and
   * Hudi's spill files (merge handles' spillable maps) under {@code spillDirectory} rather than the system's
   * temporary directory, so that a benchmark's work directory holds everything it writes.
   */
  HudiTableWriter withColumnStats(String spillDirectory) {
    return with("hoodie.metadata.enable", "true")
        .with("hoodie.metadata.index.column.stats.enable", "true")
        .with("hoodie.common.spillable.diskmap.base.path", spillDirectory);
  }

  /**
   * Hudi's record-level index: the metadata table's record_index partition, which the writer keeps and reads as its
   * index (a global one). Takes effect only on the table's first write, which creates it.
   */
  HudiTableWriter withRecordIndex() {
    return with("hoodie.metadata.enable", "true")
        .with("hoodie.metadata.record.index.enable", "true")
        .with("hoodie.index.type", "RECORD_INDEX");
  }

  /**
   * Change data kept with every write ({@code hoodie.table.cdc.enabled}, before and after images logged), so that the
   * table can be read as CDC deltas. Takes effect only on the table's first write, which creates it.
   */
  HudiTableWriter withChangeData() {
    return with("hoodie.table.cdc.enabled", "true")
        .with("hoodie.table.cdc.supplemental.logging.mode", "DATA_BEFORE_AFTER");
  }

  /** A bulk insert writes its rows in the order they come, without sorting them by record key. */
  HudiTableWriter withInputOrder() {
    return with("hoodie.bulkinsert.sort.mode", "NONE");
  }

  /** Parquet files of at most {@code maxFileMib}, small-file handling as Hudi's default. */
  HudiTableWriter withMaxFileMib(int maxFileMib) {
    return with("hoodie.parquet.max.file.size", String.valueOf(maxFileMib * 1024L * 1024L));
  }

  private HudiTableWriter with(String key, String value) {
    Map<String, String> more = new LinkedHashMap<>(options);
    more.put(key, value);
    return new HudiTableWriter(more);
  }

  /**
   * The write options of one {@code operation}, as a writer or a Streamer takes them (the operation itself is not
   * among them: a Streamer takes it as {@code --op}).
   */
  Map<String, String> options(WriteOperationType operation) {
    Map<String, String> all = new LinkedHashMap<>(options);
    String parallelism = shuffleParallelismKey(operation);
    if (parallelism != null) {
      all.put(parallelism, SHUFFLE_PARALLELISM);
    }
    return all;
  }

  /** Appends {@code rows} to the table at {@code path} (created on the first write) in one commit. */
  void write(Dataset<Row> rows, WriteOperationType operation, String path) {
    rows.write().format("hudi")
        .options(options(operation))
        .option("hoodie.datasource.write.operation", operation.value())
        .mode(SaveMode.Append)
        .save(path);
  }

  /** Hudi's key for the shuffle parallelism of the operation, or null where it has none of its own. */
  private static String shuffleParallelismKey(WriteOperationType operation) {
    switch (operation) {
      case BULK_INSERT:
        return "hoodie.bulkinsert.shuffle.parallelism";
      case INSERT:
        return "hoodie.insert.shuffle.parallelism";
      case UPSERT:
        return "hoodie.upsert.shuffle.parallelism";
      default:
        return null;
    }
  }
}
