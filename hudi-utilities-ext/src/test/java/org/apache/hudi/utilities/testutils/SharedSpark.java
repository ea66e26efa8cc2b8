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

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * One local Spark session for every test class of a run: starting Spark dominates small tests. Hudi's counter
 * registries are made safe for writers beside a Streamer first ({@link ConcurrentHudiRegistries}).
 */
public final class SharedSpark {

  private static SparkSession session;

  private SharedSpark() {
  }

  public static synchronized SparkSession session() {
    if (session == null) {
      ConcurrentHudiRegistries.install();
      session = LocalSpark.start("hudi-utilities-ext-tests");
    }
    return session;
  }

  public static JavaSparkContext jsc() {
    return JavaSparkContext.fromSparkContext(session().sparkContext());
  }
}
