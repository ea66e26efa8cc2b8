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

package org.apache.hudi.utilities.freshness.hudi014;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.config.HoodieIncrSourceConfig;
import org.apache.hudi.utilities.config.KafkaSourceConfig;
import org.apache.hudi.utilities.freshness.FreshnessPolicy;
import org.apache.hudi.utilities.freshness.PipelineMode;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.SourceSpec;

import org.apache.hadoop.fs.Path;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.apache.hudi.common.util.ConfigUtils.containsConfigProperty;
import static org.apache.hudi.common.util.ConfigUtils.getBooleanWithAltKeys;
import static org.apache.hudi.common.util.ConfigUtils.getIntWithAltKeys;
import static org.apache.hudi.common.util.ConfigUtils.getLongWithAltKeys;
import static org.apache.hudi.common.util.ConfigUtils.getStringWithAltKeys;
import static org.apache.hudi.common.util.ValidationUtils.checkArgument;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.HISTORY_ENABLE;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.HISTORY_MAX_ENTRIES;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.HISTORY_PATH;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.KAFKA_CONSUMER_PROPS_PREFIX;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.KAFKA_METADATA_TIMEOUT_MS;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.KAFKA_POLL_TIMEOUT_MS;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.LAG_CAP_MINUTES;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.MODE;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.PIPELINE_NAME;
import static org.apache.hudi.utilities.freshness.config.HoodieFreshnessConfig.SLA_MINUTES;

/**
 * The pipeline of a Streamer job, from the properties its writer (and so its commit callback) sees on Hudi 0.14: the
 * sources from the source configs ({@code HoodieIncrMultiSource} tables, a {@code HoodieIncrSource} table, or a Kafka
 * topic), the rest from {@code HoodieFreshnessConfig}.
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
    String name = getStringWithAltKeys(props, PIPELINE_NAME, tableName);
    PipelineSpec.Builder builder = PipelineSpec.builder(name, basePath).policy(policy(props));
    sources(props, name).forEach(builder::source);
    if (getBooleanWithAltKeys(props, HISTORY_ENABLE)) {
      builder.historyPath(getStringWithAltKeys(props, HISTORY_PATH,
          basePath.replaceAll("/+$", "") + "/" + PipelineSpec.DEFAULT_HISTORY_FOLDER));
      builder.historyMaxEntries(getIntWithAltKeys(props, HISTORY_MAX_ENTRIES));
    } else {
      builder.historyPath(null);
    }
    builder.kafkaPollTimeout(Duration.ofMillis(getLongWithAltKeys(props, KAFKA_POLL_TIMEOUT_MS)));
    builder.kafkaMetadataTimeout(Duration.ofMillis(getLongWithAltKeys(props, KAFKA_METADATA_TIMEOUT_MS)));
    return builder.build();
  }

  private static FreshnessPolicy policy(TypedProperties props) {
    String modeName = getStringWithAltKeys(props, MODE, true).trim().toUpperCase(Locale.ROOT);
    checkArgument(Arrays.stream(PipelineMode.values()).anyMatch(mode -> mode.name().equals(modeName)),
        "Cannot use freshness mode '" + modeName + "': set " + MODE.key() + " to one of "
            + Arrays.toString(PipelineMode.values()));
    PipelineMode mode = PipelineMode.valueOf(modeName);
    Duration sla = containsConfigProperty(props, SLA_MINUTES)
        ? Duration.ofMinutes(positive(SLA_MINUTES.key(), getStringWithAltKeys(props, SLA_MINUTES)))
        : mode.defaultSla();
    Duration cap = Duration.ofMinutes(positive(LAG_CAP_MINUTES.key(),
        String.valueOf(getLongWithAltKeys(props, LAG_CAP_MINUTES))));
    return FreshnessPolicy.of(sla, cap);
  }

  private static long positive(String key, String value) {
    long minutes;
    try {
      minutes = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      minutes = 0;
    }
    checkArgument(minutes > 0, "Cannot use '" + value + "' minutes from " + key + ": set a positive whole number of "
        + "minutes");
    return minutes;
  }

  private static List<SourceSpec> sources(TypedProperties props, String pipeline) {
    List<SourceSpec> sources = new ArrayList<>();
    if (containsConfigProperty(props, HoodieIncrMultiSourceConfig.TABLES)) {
      List<String> tables = new ArrayList<>(HoodieIncrMultiSourceConfig.tables(props));
      // The legacy table owns a bare checkpoint, and the freshness meter gives it to the first source.
      String legacy = getStringWithAltKeys(props, HoodieIncrMultiSourceConfig.CHECKPOINT_LEGACY_TABLE, tables.get(0))
          .trim();
      if (tables.remove(legacy)) {
        tables.add(0, legacy);
      }
      for (String table : tables) {
        String path = getStringWithAltKeys(props,
            HoodieIncrMultiSourceConfig.forTable(HoodieIncrMultiSourceConfig.TABLE_PATH, table), true);
        sources.add(SourceSpec.hudi(table, path));
      }
    } else if (containsConfigProperty(props, HoodieIncrSourceConfig.HOODIE_SRC_BASE_PATH)) {
      String path = getStringWithAltKeys(props, HoodieIncrSourceConfig.HOODIE_SRC_BASE_PATH);
      sources.add(SourceSpec.hudi(new Path(path).getName(), path));
    } else if (containsConfigProperty(props, KafkaSourceConfig.KAFKA_TOPIC_NAME)) {
      sources.add(SourceSpec.kafka(getStringWithAltKeys(props, KafkaSourceConfig.KAFKA_TOPIC_NAME),
          kafkaProperties(props)));
    } else {
      throw new IllegalArgumentException("Cannot measure the freshness of pipeline '" + pipeline + "': its "
          + "properties name no supported source (set " + HoodieIncrMultiSourceConfig.TABLES.key() + ", "
          + HoodieIncrSourceConfig.HOODIE_SRC_BASE_PATH.key() + " or " + KafkaSourceConfig.KAFKA_TOPIC_NAME.key()
          + ", or turn the freshness callback off)");
    }
    return sources;
  }

  /**
   * The Streamer's Kafka settings (every key that is not a Hudi key, as the Streamer's own consumer takes them),
   * without its group and deserializers, overridden by the keys under the freshness consumer prefix.
   */
  private static Map<String, String> kafkaProperties(TypedProperties props) {
    String overridePrefix = getStringWithAltKeys(props, KAFKA_CONSUMER_PROPS_PREFIX, true);
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
