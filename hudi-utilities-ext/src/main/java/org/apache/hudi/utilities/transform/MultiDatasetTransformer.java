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

package org.apache.hudi.utilities.transform;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.streamer.BaseErrorTableWriter;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.apache.spark.sql.functions.lit;

/**
 * A transformer of several datasets into one, e.g. a join of the incremental changes of several Hudi tables read by
 * {@code HoodieIncrMultiSource}.
 *
 * <p>It plugs into the stock Streamer as an ordinary {@link Transformer}: {@link #apply(JavaSparkContext,
 * SparkSession, Dataset, TypedProperties)} splits a {@link MultiDatasetCarrier} into its datasets, or treats any other
 * dataset as a list of one, so the same implementation serves single-source pipelines. It must be the first
 * transformer of a chain; stock transformers may follow it.
 */
public interface MultiDatasetTransformer extends Transformer {

  /**
   * Transforms the datasets of one batch.
   *
   * @param datasets one dataset per source table, in the order of {@code hoodie.streamer.source.multi.hudi.tables};
   *                 a table without new data has an empty dataset with its current schema
   * @return the dataset to write
   */
  Dataset<Row> apply(JavaSparkContext jsc, SparkSession sparkSession, List<Dataset<Row>> datasets,
                     TypedProperties properties);

  /**
   * Transforms a batch whose manifest may tell the tables and positions of its datasets; by default, its datasets.
   */
  default Dataset<Row> apply(JavaSparkContext jsc, SparkSession sparkSession, MultiDatasetBatch batch,
                             TypedProperties properties) {
    return apply(jsc, sparkSession, batch.datasets(), properties);
  }

  @Override
  default Dataset<Row> apply(JavaSparkContext jsc, SparkSession sparkSession, Dataset<Row> rowDataset,
                             TypedProperties properties) {
    MultiDatasetBatch batch = MultiDatasetCarrier.isCarrier(rowDataset)
        ? MultiDatasetCarrier.unpack(rowDataset)
        : new MultiDatasetBatch(Collections.singletonList(rowDataset), Option.empty());
    Dataset<Row> transformed = apply(jsc, sparkSession, batch, properties);
    // With the error table on, the chain adds this column before the first transformer and checks it after each one.
    String errorColumn = BaseErrorTableWriter.ERROR_TABLE_CURRUPT_RECORD_COL_NAME;
    boolean errorColumnExpected = Arrays.asList(rowDataset.columns()).contains(errorColumn);
    return errorColumnExpected && !Arrays.asList(transformed.columns()).contains(errorColumn)
        ? transformed.withColumn(errorColumn, lit(null).cast("string"))
        : transformed;
  }
}
