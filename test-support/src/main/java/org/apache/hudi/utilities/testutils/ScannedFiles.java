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

package org.apache.hudi.utilities.testutils;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;

import java.util.ArrayList;
import java.util.List;

import scala.collection.JavaConverters;

/**
 * What the parquet scans of a query read: how data skipping shows (a snapshot read restricted by a delta's keys reads
 * fewer files).
 */
public final class ScannedFiles {

  private ScannedFiles() {
  }

  /**
   * Runs the query and returns the files its parquet scans read: the sum of Spark's {@code numFiles} metric over every
   * file scan of the executed plan, adaptive query stages included.
   */
  public static long filesRead(Dataset<?> query) {
    QueryExecution execution = query.queryExecution();
    execution.toRdd().count();
    List<FileSourceScanExec> scans = new ArrayList<>();
    collectScans(execution.executedPlan(), scans);
    return scans.stream().mapToLong(scan -> scan.metrics().apply("numFiles").value()).sum();
  }

  private static void collectScans(SparkPlan plan, List<FileSourceScanExec> scans) {
    if (plan instanceof FileSourceScanExec) {
      scans.add((FileSourceScanExec) plan);
    } else if (plan instanceof AdaptiveSparkPlanExec) {
      collectScans(((AdaptiveSparkPlanExec) plan).executedPlan(), scans);
    } else if (plan instanceof QueryStageExec) {
      collectScans(((QueryStageExec) plan).plan(), scans);
    }
    JavaConverters.seqAsJavaList(plan.children()).forEach(child -> collectScans(child, scans));
  }
}
