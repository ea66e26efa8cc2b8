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

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A local Spark session configured as Hudi requires, for tests and benchmarks alike; and those settings alone, for the
 * Spark JVMs that tests launch.
 */
public final class LocalSpark {

  /**
   * What every session that reads or writes Hudi tables needs, in order: Kryo with Hudi's registrator, Hudi's SQL
   * extension; and no UI.
   */
  public static final Map<String, String> HUDI_SETTINGS = hudiSettings();

  private LocalSpark() {
  }

  /**
   * Starts (or returns the running) session in {@code local[2]}: Hudi's settings, two shuffle partitions and the
   * driver on 127.0.0.1.
   */
  public static SparkSession start(String appName) {
    SparkConf conf = new SparkConf()
        .setMaster("local[2]")
        .setAppName(appName)
        .set("spark.sql.shuffle.partitions", "2")
        .set("spark.default.parallelism", "2")
        .set("spark.driver.host", "127.0.0.1");
    HUDI_SETTINGS.forEach(conf::set);
    return SparkSession.builder().config(conf).getOrCreate();
  }

  private static Map<String, String> hudiSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    settings.put("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar");
    settings.put("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension");
    settings.put("spark.ui.enabled", "false");
    return Collections.unmodifiableMap(settings);
  }
}
