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

package org.apache.hudi.utilities.faults;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.transform.Transformer;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A transformer chained after the job's transformers. Passes the batch through; when {@link CrashPoint#AFTER_READ}
 * is armed, evaluates the batch (so every source is really read and the SQL really run) and halts the JVM before the
 * Streamer starts a commit on the target.
 */
public class HaltAfterReadTransformer implements Transformer {

  @Override
  public Dataset<Row> apply(JavaSparkContext jsc, SparkSession sparkSession, Dataset<Row> rows,
                            TypedProperties properties) {
    if (CrashPoint.AFTER_READ.isArmed()) {
      long count = rows.count();
      CrashPoint.AFTER_READ.haltIfArmed("the batch was read and transformed into " + count + " rows");
    }
    return rows;
  }
}
