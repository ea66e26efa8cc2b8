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

package org.apache.hudi.utilities.freshness;

import java.time.Duration;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Names of the freshness metrics in Hudi's metrics system, in dotted form
 * ({@code hudi_freshness.<pipeline>.source.<source>.lag_seconds}), for Hudi's reporters that name metrics by path
 * (Graphite, JMX, Datadog, CloudWatch). Hudi 0.14's registry has no labels, so pipeline and source names become name
 * parts (every character other than letters, digits and '_' becomes '_'). Prometheus gets the same values with the
 * pipeline and source as labels from {@link LabelledFreshnessMetrics}.
 */
public final class MetricNames {

  public static final String ROOT = "hudi_freshness";

  /** Seconds the oldest uncommitted data has waited, floored at 0 and capped. */
  public static final String LAG_SECONDS = "lag_seconds";
  /** Signed lag before flooring and capping; negative means clock skew. */
  public static final String RAW_LAG_SECONDS = "raw_lag_seconds";
  /** lag / SLA clamped to 0.0 - 1.0. */
  public static final String SLA_RATIO = "sla_ratio";
  /** Completed commits between the earliest instant the source retains and the checkpoint. */
  public static final String RETENTION_HEADROOM_COMMITS = "retention_headroom_commits";
  /** Seconds between the earliest instant the source retains and the checkpoint; negative once passed. */
  public static final String RETENTION_HEADROOM_SECONDS = "retention_headroom_seconds";
  /** Kafka sources: records retention removed below the checkpoint before the pipeline read them (data loss). */
  public static final String RECORDS_LOST = "records_lost";
  /** Kafka sources: offsets by which the checkpoint is past the log's end. */
  public static final String CHECKPOINT_AHEAD_OF_LOG_OFFSETS = "checkpoint_ahead_of_log_offsets";
  /** Sources that could not be read in the last measurement. */
  public static final String UNREADABLE_SOURCES = "unreadable_sources";
  /** Commits the reporter looked at to find the checkpoint. */
  public static final String CHECKPOINT_SEARCH_DEPTH = "checkpoint_search_depth";
  /** Measurements that failed as a whole since the process started: a counter. */
  public static final String FAILURES = "failures";

  private static final Pattern NOT_ALLOWED = Pattern.compile("[^A-Za-z0-9_]");

  private final String pipelinePrefix;

  /**
   * @param pipeline the pipeline's name. Hudi's {@code hoodie.metrics.reporter.metricsname.prefix} is not used: it
   *                 defaults to the table name inside a writer but not elsewhere, and the callback and the reporter
   *                 must publish the same names.
   */
  public MetricNames(String pipeline) {
    this.pipelinePrefix = ROOT + "." + part(pipeline) + ".";
  }

  /** A metric of the whole pipeline. */
  public String pipeline(String metric) {
    return pipelinePrefix + metric;
  }

  /** A metric of one source. */
  public String source(String source, String metric) {
    return pipelinePrefix + "source." + part(source) + "." + metric;
  }

  /** Every name this pipeline's metrics start with, for removing them. */
  public String pipelinePrefix() {
    return pipelinePrefix;
  }

  /**
   * The values of one measurement by metric name. A value that cannot be known (no checkpoint, no timestamp,
   * unreadable source) has no entry at all: "No Data", never a made-up 0.
   */
  public SortedMap<String, Double> values(PipelineFreshness freshness) {
    SortedMap<String, Double> values = new TreeMap<>();
    for (SourceFreshness source : freshness.sources()) {
      source.lag().ifPresent(lag -> values.put(source(source.source(), LAG_SECONDS), seconds(lag)));
      source.rawLag().ifPresent(raw -> values.put(source(source.source(), RAW_LAG_SECONDS), seconds(raw)));
      source.slaRatio().ifPresent(ratio -> values.put(source(source.source(), SLA_RATIO), ratio));
      source.pending().ifPresent(pending ->
          values.put(source(source.source(), source.kind().pendingMetric()), (double) pending));
      source.headroom().ifPresent(headroom -> {
        values.put(source(source.source(), RETENTION_HEADROOM_COMMITS), (double) headroom.commits());
        values.put(source(source.source(), RETENTION_HEADROOM_SECONDS), seconds(headroom.time()));
      });
      source.checkpointInLog().ifPresent(inLog -> {
        values.put(source(source.source(), RECORDS_LOST), (double) inLog.recordsLost());
        values.put(source(source.source(), CHECKPOINT_AHEAD_OF_LOG_OFFSETS), (double) inLog.offsetsAheadOfLog());
      });
    }
    freshness.maxLag().ifPresent(lag -> values.put(pipeline(LAG_SECONDS), seconds(lag)));
    freshness.maxSlaRatio().ifPresent(ratio -> values.put(pipeline(SLA_RATIO), ratio));
    values.put(pipeline(UNREADABLE_SOURCES), (double) freshness.unreadableSources());
    freshness.searchDepth().ifPresent(depth -> values.put(pipeline(CHECKPOINT_SEARCH_DEPTH), (double) depth));
    return values;
  }

  private static double seconds(Duration duration) {
    return duration.toMillis() / 1000.0;
  }

  static String part(String name) {
    return NOT_ALLOWED.matcher(name).replaceAll("_");
  }
}
