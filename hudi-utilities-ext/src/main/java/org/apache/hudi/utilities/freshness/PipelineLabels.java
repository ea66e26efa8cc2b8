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

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * A pipeline's extra labels ({@code team: payments, tier: gold}), carried to every per-pipeline and per-source series
 * of {@link LabelledFreshnessMetrics}, so that dashboards and alert routes can select a team's or a tier's pipelines.
 * Immutable; empty for a pipeline that sets none, which then publishes exactly the series it would without them.
 */
public final class PipelineLabels {

  public static final PipelineLabels NONE = new PipelineLabels(new TreeMap<>());

  /**
   * Labels the observers set themselves, or that Prometheus and the pushgateway set on what they scrape: an extra label
   * of the same name would replace theirs, or be renamed {@code exported_*} by Prometheus.
   */
  public static final Set<String> RESERVED = Set.of(LabelledFreshnessMetrics.PIPELINE_LABEL,
      LabelledFreshnessMetrics.SOURCE_LABEL, LabelledFreshnessMetrics.SOURCE_KIND_LABEL,
      LabelledFreshnessMetrics.STATUS_LABEL, LabelledFreshnessMetrics.CLUSTER_LABEL, "observer", "reporter",
      "job", "instance");

  private final SortedMap<String, String> labels;

  private PipelineLabels(SortedMap<String, String> labels) {
    this.labels = Collections.unmodifiableSortedMap(labels);
  }

  /**
   * @param labels   label names to values
   * @param pipeline the pipeline's name, for messages
   * @throws IllegalArgumentException naming the pipeline and the label, if a name is not a Prometheus label name
   *     ({@code [a-zA-Z_][a-zA-Z0-9_]*}, not starting with {@code __}), is one of {@link #RESERVED}, or a value is
   *     empty
   */
  public static PipelineLabels of(Map<String, String> labels, String pipeline) {
    SortedMap<String, String> checked = new TreeMap<>();
    labels.forEach((name, value) -> {
      checkArgument(PrometheusNaming.isValidLegacyLabelName(name) && !name.startsWith("__"), () -> "Cannot label the "
          + "metrics of pipeline '" + pipeline + "' with '" + name + "': it is no Prometheus label name (use letters, "
          + "digits and '_', not starting with a digit or '__', e.g. team)");
      checkArgument(!RESERVED.contains(name), () -> "Cannot label the metrics of pipeline '" + pipeline + "' with '"
          + name + "': the reporter sets that label itself (rename it; reserved: " + new TreeSet<>(RESERVED) + ")");
      checkArgument(value != null && !value.isEmpty(), () -> "Cannot label the metrics of pipeline '" + pipeline
          + "' with '" + name + "': its value is empty, which Prometheus reads as no label (give it a value or "
          + "remove it)");
      checked.put(name, value);
    });
    return checked.isEmpty() ? NONE : new PipelineLabels(checked);
  }

  /**
   * Labels written as {@code name=value} pairs separated by commas ({@code team=payments,tier=gold}), as the
   * Streamer's properties set them.
   *
   * @param setting  the key they were read from, for messages
   * @param pipeline the pipeline's name, for messages
   * @throws IllegalArgumentException naming the key, if a pair has no '=' or a name is given twice, or as {@link #of}
   */
  public static PipelineLabels parse(String pairs, String setting, String pipeline) {
    Map<String, String> labels = new TreeMap<>();
    for (String pair : pairs.split(",")) {
      int equals = pair.indexOf('=');
      checkArgument(equals > 0, () -> "Cannot label the metrics of pipeline '" + pipeline + "': '" + pair.trim()
          + "' of " + setting + " is not name=value (write e.g. " + setting + "=team=payments,tier=gold)");
      String name = pair.substring(0, equals).trim();
      checkArgument(labels.put(name, pair.substring(equals + 1).trim()) == null, () -> "Cannot label the metrics of "
          + "pipeline '" + pipeline + "': " + setting + " sets '" + name + "' twice (keep one)");
    }
    return of(labels, pipeline);
  }

  /** These labels and the other's; the other's value wins for a name in both. */
  public PipelineLabels plus(PipelineLabels other) {
    SortedMap<String, String> both = new TreeMap<>(labels);
    both.putAll(other.labels);
    return both.isEmpty() ? NONE : new PipelineLabels(both);
  }

  /** The labels by name, sorted. */
  public SortedMap<String, String> asMap() {
    return labels;
  }

  /** The labels in Prometheus' model. */
  public Labels prometheus() {
    Labels.Builder builder = Labels.builder();
    labels.forEach(builder::label);
    return builder.build();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PipelineLabels && labels.equals(((PipelineLabels) other).labels);
  }

  @Override
  public int hashCode() {
    return labels.hashCode();
  }

  @Override
  public String toString() {
    return labels.toString();
  }
}
