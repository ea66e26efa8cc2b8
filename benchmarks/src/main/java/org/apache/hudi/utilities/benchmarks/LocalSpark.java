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

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The local Spark session of a benchmark, configured as Hudi requires: the settings of the plugin's test helper
 * {@code SharedSpark}. Not shared through a test-jar of the plugin: {@code run.sh} builds with
 * {@code -Dmaven.test.skip=true}, which packages no test-jar (the benchmarks' dependency would not resolve, or resolve to
 * a stale installed one), and compiling the plugin's tests instead makes the benchmark build several times longer.
 */
final class LocalSpark {

  private LocalSpark() {
  }

  static SparkSession start(String appName) {
    SparkConf conf = new SparkConf()
        .setMaster("local[2]")
        .setAppName(appName)
        .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .set("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
        .set("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
        .set("spark.ui.enabled", "false")
        .set("spark.sql.shuffle.partitions", "2")
        .set("spark.default.parallelism", "2")
        .set("spark.driver.host", "127.0.0.1");
    return SparkSession.builder().config(conf).getOrCreate();
  }
}
