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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.config.ConfigValues;
import org.apache.hudi.utilities.config.HoodieFreshnessConfig;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.config.HoodieIncrSourceConfig;
import org.apache.hudi.utilities.config.KafkaSourceConfig;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;

import org.apache.hadoop.fs.Path;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.HISTORY_ENABLE;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.HISTORY_MAX_ENTRIES;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.HISTORY_PATH;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.KAFKA_CONSUMER_PROPS_PREFIX;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.KAFKA_METADATA_TIMEOUT_MS;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.KAFKA_POLL_TIMEOUT_MS;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.LABELS;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.LAG_CAP_MINUTES;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.MODE;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.PIPELINE_NAME;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.PUSHGATEWAY_ADDRESS;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.PUSHGATEWAY_JOB;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.SLA_MINUTES;
import static org.apache.hudi.utilities.config.HoodieFreshnessConfig.STATUS_WINDOW_MINUTES;

/**
 * The one parser of a pipeline's freshness settings: from the properties of a Streamer job, as its writer (and so the
 * commit callback) sees them, or as the reporter's YAML file lists them for each pipeline. The sources come from the
 * source configs ({@code HoodieIncrMultiSource} tables through {@link MultiTableReadConf}, a {@code HoodieIncrSource}
 * table, or a Kafka topic), the rest from {@link HoodieFreshnessConfig}, every value read through {@link ConfigValues}.
 */
public final class StreamerPipelineSpec {

  /** Kafka consumer settings the freshness consumer must not take from the Streamer. */
  private static final List<String> STREAMER_ONLY_KAFKA_KEYS = Arrays.asList("group.id", "group.instance.id",
      "enable.auto.commit", "key.deserializer", "value.deserializer");

  private StreamerPipelineSpec() {
  }

  /**
   * @param props     the Streamer's properties
   * @param basePath  the target's base path
   * @param tableName the target's table name, the default pipeline name
   * @throws IllegalArgumentException naming the key to set when no supported source is configured or a value is
   *     invalid
   */
  public static PipelineSpec from(TypedProperties props, String basePath, String tableName) {
    return builder(props, basePath, tableName).build();
  }

  /**
   * {@link #from}'s settings, for the reporter's YAML to add what only it sets (labels, the Kafka cluster's name)
   * before {@link PipelineSpec.Builder#build()} checks them together.
   */
  public static PipelineSpec.Builder builder(TypedProperties props, String basePath, String tableName) {
    String name = ConfigValues.raw(props, PIPELINE_NAME).orElse(tableName);
    String cannot = "measure the freshness of pipeline '" + name + "'";
    PipelineSpec.Builder builder = PipelineSpec.builder(name, basePath).policy(policy(props, cannot));
    sources(props, builder, cannot);
    if (ConfigValues.booleanValue(props, HISTORY_ENABLE, cannot)) {
      builder.historyPath(ConfigValues.raw(props, HISTORY_PATH)
          .orElse(basePath.replaceAll("/+$", "") + "/" + HoodieFreshnessConfig.DEFAULT_HISTORY_FOLDER));
      builder.historyMaxEntries(ConfigValues.positiveInt(props, HISTORY_MAX_ENTRIES, cannot));
    } else {
      builder.historyPath(null);
    }
    builder.kafkaPollTimeout(Duration.ofMillis(ConfigValues.atLeast(props, KAFKA_POLL_TIMEOUT_MS, 1, cannot)));
    builder.kafkaMetadataTimeout(Duration.ofMillis(ConfigValues.atLeast(props, KAFKA_METADATA_TIMEOUT_MS, 1, cannot)));
    builder.pushgatewayAddress(ConfigValues.raw(props, PUSHGATEWAY_ADDRESS).orElse(null));
    builder.pushgatewayJob(ConfigValues.valueOrDefault(props, PUSHGATEWAY_JOB).get());
    return builder.labels(labels(props, name));
  }

  /** The extra labels the properties set ({@link HoodieFreshnessConfig#LABELS}); none if they set none. */
  private static PipelineLabels labels(TypedProperties props, String pipeline) {
    Option<String> labels = ConfigValues.raw(props, LABELS);
    return labels.isPresent() && !labels.get().trim().isEmpty()
        ? PipelineLabels.parse(labels.get(), LABELS.key(), pipeline) : PipelineLabels.NONE;
  }

  private static FreshnessPolicy policy(TypedProperties props, String cannot) {
    Duration modeSla = ConfigValues.enumValue(props, MODE, HoodieFreshnessConfig.Mode.class, cannot).defaultSla();
    Duration sla = ConfigValues.raw(props, SLA_MINUTES).isPresent()
        ? Duration.ofMinutes(ConfigValues.atLeast(props, SLA_MINUTES, 1, cannot))
        : modeSla;
    Duration window = ConfigValues.raw(props, STATUS_WINDOW_MINUTES).isPresent()
        ? Duration.ofMinutes(ConfigValues.atLeast(props, STATUS_WINDOW_MINUTES, 1, cannot))
        : sla;
    return FreshnessPolicy.of(sla, Duration.ofMinutes(ConfigValues.atLeast(props, LAG_CAP_MINUTES, 1, cannot)),
        window);
  }

  private static void sources(TypedProperties props, PipelineSpec.Builder builder, String cannot) {
    if (ConfigValues.raw(props, HoodieIncrMultiSourceConfig.TABLES).isPresent()) {
      MultiTableReadConf conf = MultiTableReadConf.from(props);
      for (SourceTable table : conf.tables()) {
        builder.source(SourceSpec.hudi(table.name(), table.path()));
      }
      builder.checkpoints(conf.checkpoints());
    } else if (ConfigValues.raw(props, HoodieIncrSourceConfig.HOODIE_SRC_BASE_PATH).isPresent()) {
      String path = ConfigValues.raw(props, HoodieIncrSourceConfig.HOODIE_SRC_BASE_PATH).get();
      builder.source(SourceSpec.hudi(new Path(path).getName(), path));
    } else if (ConfigValues.raw(props, KafkaSourceConfig.KAFKA_TOPIC_NAME).isPresent()) {
      builder.source(SourceSpec.kafka(ConfigValues.raw(props, KafkaSourceConfig.KAFKA_TOPIC_NAME).get(),
          kafkaProperties(props)));
    } else {
      throw new IllegalArgumentException("Cannot " + cannot + ": its properties name no supported source (set "
          + HoodieIncrMultiSourceConfig.TABLES.key() + ", " + HoodieIncrSourceConfig.HOODIE_SRC_BASE_PATH.key()
          + " or " + KafkaSourceConfig.KAFKA_TOPIC_NAME.key() + ", as the Streamer job does)");
    }
  }

  /**
   * The Streamer's Kafka settings (every key that is not a Hudi key, as the Streamer's own consumer takes them),
   * without its group and deserializers, overridden by the keys under the freshness consumer prefix.
   */
  private static Map<String, String> kafkaProperties(TypedProperties props) {
    String overridePrefix = ConfigValues.valueOrDefault(props, KAFKA_CONSUMER_PROPS_PREFIX).get();
    Map<String, String> kafka = new TreeMap<>();
    Map<String, String> overrides = new TreeMap<>();
    for (String key : props.stringPropertyNames()) {
      if (key.startsWith(overridePrefix)) {
        overrides.put(key.substring(overridePrefix.length()), props.getProperty(key));
      } else if (!key.startsWith("hoodie.") && !STREAMER_ONLY_KAFKA_KEYS.contains(key)) {
        kafka.put(key, props.getProperty(key));
      }
    }
    kafka.putAll(overrides);
    return kafka;
  }
}
