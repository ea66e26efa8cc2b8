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

package org.apache.hudi.utilities.config;

import org.apache.hudi.common.config.ConfigClassProperty;
import org.apache.hudi.common.config.ConfigGroups;
import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.config.HoodieConfig;

import javax.annotation.concurrent.Immutable;

import java.time.Duration;
import java.util.Arrays;

import static org.apache.hudi.common.util.ConfigUtils.DELTA_STREAMER_CONFIG_PREFIX;
import static org.apache.hudi.common.util.ConfigUtils.STREAMER_CONFIG_PREFIX;
import static org.apache.hudi.common.util.ConfigUtils.enumNames;

/**
 * Configs of source freshness, read from the Streamer's properties by the commit callback
 * ({@code FreshnessCommitCallback}) and from each pipeline of the reporter's YAML file by the reporter
 * ({@code FreshnessReporterCli}). The sources themselves come from the Streamer's source configs.
 */
@Immutable
@ConfigClassProperty(name = "Source Freshness Configs",
    groupName = ConfigGroups.Names.HUDI_STREAMER,
    description = "Configurations of the post-commit callback that records, after every Streamer commit, how long "
        + "the oldest data of each source not yet committed has been waiting (time-in-queue), as metrics through "
        + "hoodie.metrics.* and as a history under the target table.")
public class HoodieFreshnessConfig extends HoodieConfig {

  /** The history folder under the target's base path, unless {@link #HISTORY_PATH} names another. */
  public static final String DEFAULT_HISTORY_FOLDER = ".hoodie/.aux/freshness";

  private static final String PREFIX = "freshness.";

  /** How a pipeline runs, the values of {@link #MODE}: each sets a default SLA. */
  public enum Mode {
    /** Continuous or frequently scheduled: default SLA 60 minutes. */
    STREAMING(Duration.ofMinutes(60)),
    /** Scheduled a few times a day: default SLA 1440 minutes (one day). */
    BATCH(Duration.ofMinutes(1440));

    private final Duration defaultSla;

    Mode(Duration defaultSla) {
      this.defaultSla = defaultSla;
    }

    /** The SLA of a pipeline of this mode that sets no {@link #SLA_MINUTES}. */
    public Duration defaultSla() {
      return defaultSla;
    }
  }

  public static final ConfigProperty<String> PIPELINE_NAME = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "pipeline.name")
      .noDefaultValue("the target table name")
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "pipeline.name")
      .withDocumentation("Name of the pipeline in metric names and history entries; letters, digits and '_' are "
          + "kept, any other character becomes '_' in metric names.");

  public static final ConfigProperty<String> LABELS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "labels")
      .noDefaultValue()
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "labels")
      .withDocumentation("Extra labels of every labelled series of the pipeline (the Prometheus metrics of the commit "
          + "callback and of the reporter), as name=value pairs separated by commas, e.g. team=payments,tier=gold: "
          + "to route and group its alerts and dashboards by them. The reporter publishes them too for a pipeline "
          + "whose properties set them; the 'labels' of its YAML add to them and win for a name set in both. Names "
          + "follow Prometheus' rules and may not be one the metrics set themselves (pipeline, source, source_kind, "
          + "status, cluster, observer, reporter, job, instance).");

  public static final ConfigProperty<String> MODE = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "mode")
      .defaultValue(Mode.STREAMING.name())
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "mode")
      .withValidValues(enumNames(Mode.class))
      .withDocumentation("How the pipeline runs, which sets the default SLA. Possible values (case-insensitive): "
          + Arrays.toString(Mode.values()) + " (STREAMING: 60 minutes, BATCH: 1440 minutes).");

  public static final ConfigProperty<String> SLA_MINUTES = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "sla.minutes")
      .noDefaultValue("60 for STREAMING, 1440 for BATCH")
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "sla.minutes")
      .withDocumentation("The lag, in minutes, at which the pipeline breaks its freshness promise. The sla_ratio "
          + "metric is lag / SLA clamped to 0.0 - 1.0: warn at 0.7, page at 1.0.");

  public static final ConfigProperty<Long> LAG_CAP_MINUTES = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "lag.cap.minutes")
      .defaultValue(7 * 24 * 60L)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "lag.cap.minutes")
      .markAdvanced()
      .withDocumentation("Largest lag reported, in minutes (default 7 days), so that a source idle for months does "
          + "not dominate dashboards. raw_lag_seconds is not capped.");

  public static final ConfigProperty<Boolean> HISTORY_ENABLE = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "history.enable")
      .defaultValue(true)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "history.enable")
      .withDocumentation("Whether measurements are also written as JSON entries to the freshness history: every "
          + "measurement of the commit callback, and those of the reporter that change what the history says (a "
          + "commit, a checkpoint, a source's position, state, status or reason), one a status window otherwise.");

  public static final ConfigProperty<String> HISTORY_PATH = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "history.path")
      .noDefaultValue("<target base path>/" + DEFAULT_HISTORY_FOLDER)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "history.path")
      .markAdvanced()
      .withDocumentation("Folder of the freshness history: one small JSON file per entry. The reporter reads "
          + "the same folder by default, so both observers' entries form one history.");

  public static final ConfigProperty<Integer> HISTORY_MAX_ENTRIES = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "history.max.entries")
      .defaultValue(1000)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "history.max.entries")
      .markAdvanced()
      .withDocumentation("Most history entries kept; older ones are deleted when a new one is written.");

  public static final ConfigProperty<Long> KAFKA_POLL_TIMEOUT_MS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "kafka.poll.timeout.ms")
      .defaultValue(5000L)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "kafka.poll.timeout.ms")
      .markAdvanced()
      .withDocumentation("Most time spent polling a Kafka source for the first record after the checkpoint of each "
          + "lagging partition; the read ends as soon as every lagging partition answered. When any of them gives no "
          + "record in time, the source's lag is left out (state UNREADABLE, with the reason), never the age of the "
          + "partitions that answered, which is only a lower bound. The default leaves a loaded broker seconds to "
          + "answer, since a healthy read ends at once. The reporter reads the sources of a cluster together, within "
          + "the longest of their timeouts.");

  public static final ConfigProperty<Long> KAFKA_METADATA_TIMEOUT_MS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "kafka.metadata.timeout.ms")
      .defaultValue(5000L)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "kafka.metadata.timeout.ms")
      .markAdvanced()
      .withDocumentation("Bound of each Kafka metadata request (partitions, beginning and end offsets), so that an "
          + "unreachable broker delays a commit by seconds, not minutes. The reporter asks for the sources of a "
          + "cluster together, within the longest of their timeouts: an unreachable cluster costs one timeout a "
          + "round, whatever the number of its pipelines.");

  public static final ConfigProperty<String> KAFKA_CONSUMER_PROPS_PREFIX = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "kafka.consumer.props.prefix")
      .defaultValue(STREAMER_CONFIG_PREFIX + PREFIX + "kafka.consumer.")
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "kafka.consumer.props.prefix")
      .markAdvanced()
      .withDocumentation("Properties starting with this prefix, prefix removed, override the Kafka consumer "
          + "properties that the freshness consumer takes from the Streamer (e.g. "
          + "hoodie.streamer.freshness.kafka.consumer.sasl.jaas.config for a read-only principal, or .group.id). "
          + "The freshness consumer never uses the Streamer's group.id and never commits offsets.");

  public static final ConfigProperty<String> STATUS_WINDOW_MINUTES = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "status.window.minutes")
      .noDefaultValue("the SLA")
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "status.window.minutes")
      .markAdvanced()
      .withDocumentation("Window, in minutes, over which each source's status is rated from the history: STALLED "
          + "when data waited at an unchanged position for a whole window, LAGGING when the lag grew across it while "
          + "the position moved (see StatusRules).");

  public static final ConfigProperty<String> PUSHGATEWAY_ADDRESS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "prometheus.pushgateway.address")
      .noDefaultValue("not pushed")
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "prometheus.pushgateway.address")
      .withDocumentation("Prometheus pushgateway (host:port) that receives the labelled freshness metrics "
          + "(hudi_freshness_lag_seconds{pipeline,source,source_kind} and the others) after every measurement, "
          + "grouped by job, pipeline and observer. Independent of hoodie.metrics.*, which keeps publishing the "
          + "per-pipeline names to Hudi's reporters.");

  public static final ConfigProperty<String> PUSHGATEWAY_JOB = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + PREFIX + "prometheus.pushgateway.job")
      .defaultValue("hudi_freshness")
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + PREFIX + "prometheus.pushgateway.job")
      .markAdvanced()
      .withDocumentation("Pushgateway job of the labelled freshness metrics.");
}
