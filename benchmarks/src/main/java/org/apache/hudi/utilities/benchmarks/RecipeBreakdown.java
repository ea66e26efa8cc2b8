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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.hudi014.MultiTableReader;
import org.apache.hudi.utilities.hudi014.TableSnapshot;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;
import org.apache.hudi.utilities.sources.InputBatch;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.QueryExecution;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where one batch of the exact-join recipe spends its time, phase by phase, each phase timed on its own (median of
 * several runs): the source's timeline loads, the source's fetch (timelines, incremental relations, the carrier), the
 * time-travel relations of the {@code SNAP} tables (each with its file index), the transformer (those relations,
 * unpacking, binding and analysing the SQL), Spark's planning of the result, and its execution.
 */
final class RecipeBreakdown {

  private final SparkSession spark;
  private final JavaSparkContext jsc;
  private final TypedProperties props;
  private final String checkpoint;
  private final Map<String, String> snapshotPaths;

  /**
   * @param snapshotPaths the tables the recipe reads as {@code SNAP}, by name, with their base paths
   */
  RecipeBreakdown(SparkSession spark, JavaSparkContext jsc, TypedProperties props, String checkpoint,
                  Map<String, String> snapshotPaths) {
    this.spark = spark;
    this.jsc = jsc;
    this.props = props;
    this.checkpoint = checkpoint;
    this.snapshotPaths = snapshotPaths;
  }

  /** The median milliseconds of each phase over {@code runs} runs after one warm-up, in batch order. */
  Map<String, Double> measure(int runs) {
    Map<String, List<Long>> nanos = new LinkedHashMap<>();
    for (int run = 0; run <= runs; run++) {
      Map<String, Long> once = once();
      if (run > 0) {
        once.forEach((phase, time) -> nanos.computeIfAbsent(phase, p -> new ArrayList<>()).add(time));
      }
    }
    Map<String, Double> medians = new LinkedHashMap<>();
    nanos.forEach((phase, times) -> medians.put(phase, ResultTable.medianMillis(times)));
    return medians;
  }

  private Map<String, Long> once() {
    Map<String, Long> phases = new LinkedHashMap<>();
    long start = System.nanoTime();
    new MultiTableReader(props, MultiTableReadConf.from(props), jsc, spark, Clock.systemUTC()).loadTimelines();
    phases.put("timeline loads (source)", System.nanoTime() - start);

    start = System.nanoTime();
    InputBatch<Dataset<Row>> batch = new HoodieIncrMultiSource(props, jsc, spark, null)
        .fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
    phases.put("source fetch (timelines, incremental relations, carrier)", System.nanoTime() - start);

    Dataset<Row> carrier = batch.getBatch().get();
    start = System.nanoTime();
    for (Map.Entry<String, String> table : snapshotPaths.entrySet()) {
      String position = batch.getCheckpointForNextBatch().replaceAll(".*" + table.getKey() + "=(\\d+).*", "$1");
      TableSnapshot.asOf(spark, table.getKey(), table.getValue(), Option.of(position), spark.emptyDataFrame()).schema();
    }
    phases.put("time-travel relations with file index (SNAP)", System.nanoTime() - start);

    start = System.nanoTime();
    Dataset<Row> rows = new MultiDatasetSqlFileTransformer().apply(jsc, spark, carrier, props);
    phases.put("transformer (SNAP relations, SQL binding, analysis)", System.nanoTime() - start);

    QueryExecution execution = rows.queryExecution();
    start = System.nanoTime();
    execution.executedPlan();
    phases.put("Spark planning (optimizer, physical plan)", System.nanoTime() - start);

    start = System.nanoTime();
    execution.toRdd().count();
    phases.put("execution", System.nanoTime() - start);
    return phases;
  }
}
