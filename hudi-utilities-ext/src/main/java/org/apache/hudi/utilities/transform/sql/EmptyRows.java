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

package org.apache.hudi.utilities.transform.sql;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * Rows of some columns, none of them: read from an empty RDD rather than a provably empty relation
 * ({@code spark.emptyDataFrame()}, a local relation of no rows), because Spark 3.4's optimizer can mis-bind the columns
 * of a union once it prunes a provably empty branch (the SPARK-39887 family), and these rows are unioned with others.
 */
public final class EmptyRows {

  private EmptyRows() {
  }

  public static Dataset<Row> of(SparkSession spark, StructType columns) {
    return spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).<Row>emptyRDD(), columns);
  }
}
