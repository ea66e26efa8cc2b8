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

import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.util.Option;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** A view's target as a batch finds it: its timeline, loaded once per batch. */
public final class ViewTarget {

  private final SparkSession spark;
  private final String path;
  private final SourceTimeline timeline;

  private ViewTarget(SparkSession spark, String path, SourceTimeline timeline) {
    this.spark = spark;
    this.path = path;
    this.timeline = timeline;
  }

  /** The target at a path; empty before the Streamer created it. */
  public static Option<ViewTarget> load(SparkSession spark, String path) {
    return SourceTimeline.load(path, spark.sparkContext().hadoopConfiguration())
        .map(timeline -> new ViewTarget(spark, path, timeline));
  }

  /**
   * The target's rows as its last commit left them (a snapshot read, lazily): the rows a full recompute's result
   * replaces, whatever wrote them. Empty if the target has no commit yet.
   */
  public Option<Dataset<Row>> stored() {
    return timeline.latestCompletedInstant()
        .map(instant -> spark.read().format("hudi").load(path));
  }

  /** The field the target orders records by (its table config's, which the Streamer writes from --source-ordering-field). */
  public Option<String> orderingField() {
    return Option.ofNullable(timeline.metaClient().getTableConfig().getPreCombineField());
  }

  /**
   * The payload class in the target's table config: the Streamer's {@code --payload-class}, which Hudi 0.14 writes there
   * for a MERGE_ON_READ table only, when the Streamer creates it and whenever it loads it with another class (before each
   * round reads its batch). Empty for a COPY_ON_WRITE target.
   */
  public Option<String> payloadClass() {
    HoodieTableConfig config = timeline.metaClient().getTableConfig();
    return config.contains(HoodieTableConfig.PAYLOAD_CLASS_NAME) ? Option.of(config.getPayloadClass()) : Option.empty();
  }

  /** Whether an upsert rewrites the files its rows fall in (COPY_ON_WRITE), rather than appending to logs. */
  public boolean rewritesFiles() {
    return timeline.metaClient().getTableType() == HoodieTableType.COPY_ON_WRITE;
  }
}
