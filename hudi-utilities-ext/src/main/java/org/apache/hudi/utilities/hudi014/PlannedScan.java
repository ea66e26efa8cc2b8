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

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.HoodieUnsafeUtils;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.LogicalRelation;

import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * Plans the scan of a copy-on-write incremental read in the thread that fetched it, so that the tables of a batch
 * build their scans in parallel ({@code read.parallelism}) rather than one after another when Spark plans the batch's
 * one query.
 *
 * <p>Hudi 0.14's {@link IncrementalRelation} (a copy-on-write table's incremental read) builds its scan when Spark
 * plans a query over it: it reads the window's commit metadata and lists the window's files, one request after another
 * on an object store. It is a {@code TableScan}, which reads every column and takes no filter, so planning it early
 * changes nothing a later query could push into it: the dataset returned reads the same rows from the same files.
 * Other relations (merge-on-read incremental reads, snapshot reads) take pruned columns and filters from the query
 * and are left to Spark's planning.
 */
final class PlannedScan {

  private PlannedScan() {
  }

  /**
   * The rows of {@code read} with their scan planned now, if every relation it reads is an {@link IncrementalRelation};
   * otherwise {@code read} itself.
   */
  static Dataset<Row> planNow(SparkSession spark, Dataset<Row> read) {
    if (!readsOnlyIncrementalRelations(read.queryExecution().analyzed())) {
      return read;
    }
    return HoodieUnsafeUtils.createDataFrameFromRDD(spark, read.queryExecution().toRdd(), read.schema());
  }

  private static boolean readsOnlyIncrementalRelations(LogicalPlan plan) {
    return seqAsJavaList(plan.collectLeaves()).stream().allMatch(leaf -> leaf instanceof LogicalRelation
        && ((LogicalRelation) leaf).relation() instanceof IncrementalRelation);
  }
}
