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

import org.apache.hudi.common.config.HoodieCommonConfig;
import org.apache.hudi.common.model.HoodieFileFormat;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.util.Option;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.FileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.types.StructType;

import java.util.List;

/**
 * A Spark file scan of named parquet files of a Hudi table, read with the columns Hudi's own read of them would have:
 * pruned to the query's columns and filtered in the scan, as Hudi's relations are not.
 */
final class ParquetFileScan {

  private ParquetFileScan() {
  }

  /**
   * Why a file scan of a table's base files would not give the rows Hudi's read of them gives: a merge-on-read table
   * (its log files), base files in another format, no meta fields, or schema evolution on read (Hudi maps columns by
   * id); empty if it would.
   */
  static Option<String> whyNotLikeHudisRead(SparkSession spark, HoodieTableConfig config) {
    if (config.getTableType() != HoodieTableType.COPY_ON_WRITE) {
      return Option.of("a merge-on-read table");
    }
    if (config.getBaseFileFormat() != HoodieFileFormat.PARQUET) {
      return Option.of("base files in " + config.getBaseFileFormat());
    }
    if (!config.populateMetaFields()) {
      return Option.of("a table without meta fields");
    }
    if (Boolean.parseBoolean(spark.conf().get(HoodieCommonConfig.SCHEMA_EVOLUTION_ENABLE.key(),
        String.valueOf(HoodieCommonConfig.SCHEMA_EVOLUTION_ENABLE.defaultValue())))) {
      return Option.of("schema evolution on read (" + HoodieCommonConfig.SCHEMA_EVOLUTION_ENABLE.key() + ")");
    }
    return Option.empty();
  }

  /**
   * @param paths       the files, at least one
   * @param columns     the columns, as declared: Spark's reader of files would make every column nullable, where
   *                    Hudi keeps the table schema's nullability (which a target's schema inherits)
   * @param sizeInBytes the size to tell Spark; empty for the files' size
   * @throws org.apache.spark.sql.AnalysisException (undeclared, as Spark throws it) if a file does not exist
   */
  static Dataset<Row> of(SparkSession spark, List<String> paths, StructType columns, Option<Long> sizeInBytes) {
    Dataset<Row> scan = spark.read().schema(columns).parquet(paths.toArray(new String[0]));
    HadoopFsRelation relation = (HadoopFsRelation) ((LogicalRelation) scan.queryExecution().analyzed()).relation();
    FileIndex index = sizeInBytes.isPresent() ? new WindowFileIndex(relation.location(), sizeInBytes.get())
        : relation.location();
    return spark.baseRelationToDataFrame(new HadoopFsRelation(index, relation.partitionSchema(), columns,
        relation.bucketSpec(), relation.fileFormat(), relation.options(), spark));
  }
}
