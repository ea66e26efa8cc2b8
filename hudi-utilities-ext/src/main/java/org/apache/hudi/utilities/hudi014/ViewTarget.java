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

import org.apache.hudi.common.util.Option;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** A view's target as a batch finds it. */
public final class ViewTarget {

  private ViewTarget() {
  }

  /**
   * The target's rows as its last commit left them (a snapshot read, lazily): the rows a full recompute's result
   * replaces, whatever wrote them. Empty if the target has no commit yet.
   */
  public static Option<Dataset<Row>> stored(SparkSession spark, String path) {
    return SourceTimeline.load(path, spark.sparkContext().hadoopConfiguration())
        .flatMap(SourceTimeline::latestCompletedInstant)
        .map(instant -> spark.read().format("hudi").load(path));
  }
}
