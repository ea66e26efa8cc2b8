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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The reporter's YAML file: the metrics settings shared by all pipelines and the pipelines to watch.
 *
 * <pre>
 * metrics:                       # any hoodie.metrics.* settings; metrics are off without hoodie.metrics.on: true
 *   hoodie.metrics.on: true
 *   hoodie.metrics.reporter.type: PROMETHEUS_PUSHGATEWAY
 * pipelines:
 *   - name: joined               # name in metrics and history
 *     basePath: /data/joined     # the Streamer's target table
 *     mode: streaming            # streaming (default SLA 60 min) or batch (1440 min)
 *     slaInMinutes: 30           # optional, overrides the mode's default
 *     lagCapInMinutes: 10080     # optional, default 7 days
 *     historyPath: /data/joined/.hoodie/.aux/freshness   # optional; "" turns history off
 *     historyMaxEntries: 1000    # optional
 *     kafkaPollTimeoutMs: 500    # optional
 *     kafkaMetadataTimeoutMs: 5000   # optional
 *     sources:
 *       - {name: orders, type: hudi, path: /data/orders}     # name as in the checkpoint
 *       - {name: users, type: hudi, path: /data/users}
 *   - name: clicks
 *     basePath: /data/clicks
 *     sources:
 *       - name: clicks
 *         type: kafka                # alone in its pipeline; topic and partitions come from the checkpoint
 *         properties: {bootstrap.servers: "broker:9092", security.protocol: SASL_SSL, sasl.jaas.config: "..."}
 * </pre>
 *
 * <p>Unknown keys are rejected, so that a misspelt setting is not silently ignored.
 */
public final class ReporterConfig {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> TOP_KEYS = Set.of("metrics", "pipelines");
  private static final Set<String> PIPELINE_KEYS = Set.of("name", "basePath", "mode", "slaInMinutes",
      "lagCapInMinutes", "historyPath", "historyMaxEntries", "kafkaPollTimeoutMs", "kafkaMetadataTimeoutMs", "sources");
  private static final Set<String> SOURCE_KEYS = Set.of("name", "type", "path", "properties");

  private final Map<String, String> metricsProperties;
  private final List<PipelineSpec> pipelines;

  private ReporterConfig(Map<String, String> metricsProperties, List<PipelineSpec> pipelines) {
    this.metricsProperties = Collections.unmodifiableMap(metricsProperties);
    this.pipelines = Collections.unmodifiableList(pipelines);
  }

  /** Reads the file through Hadoop's file systems (local, HDFS, object stores). */
  public static ReporterConfig read(String path, Configuration conf) throws IOException {
    Path file = new Path(path);
    try (FSDataInputStream in = file.getFileSystem(conf).open(file)) {
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), path);
    }
  }

  /**
   * @param origin where the text comes from, for messages
   * @throws IllegalArgumentException naming the entry and the key that is wrong
   */
  public static ReporterConfig parse(String yaml, String origin) throws IOException {
    JsonNode root = YAML.readTree(yaml);
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("Cannot read reporter config " + origin + ": it is empty or not a mapping "
          + "(start with 'pipelines:')");
    }
    checkKeys(root, TOP_KEYS, "reporter config " + origin);
    Map<String, String> metrics = stringMap(root.path("metrics"), "'metrics' of " + origin);
    JsonNode list = root.path("pipelines");
    if (!list.isArray() || list.isEmpty()) {
      throw new IllegalArgumentException("Cannot read reporter config " + origin + ": 'pipelines' is missing or "
          + "empty (list at least one pipeline with name, basePath and sources)");
    }
    List<PipelineSpec> pipelines = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      pipelines.add(pipeline(list.get(i), "pipelines[" + i + "] of " + origin));
    }
    return new ReporterConfig(metrics, pipelines);
  }

  private static PipelineSpec pipeline(JsonNode node, String where) {
    checkKeys(node, PIPELINE_KEYS, where);
    PipelineSpec.Builder builder = PipelineSpec.builder(required(node, "name", where), required(node, "basePath",
        where));
    PipelineMode mode = mode(node.path("mode").asText(PipelineMode.STREAMING.name()), where);
    Duration sla = node.has("slaInMinutes") ? Duration.ofMinutes(positive(node, "slaInMinutes", where))
        : mode.defaultSla();
    Duration cap = node.has("lagCapInMinutes") ? Duration.ofMinutes(positive(node, "lagCapInMinutes", where))
        : FreshnessPolicy.DEFAULT_LAG_CAP;
    builder.policy(FreshnessPolicy.of(sla, cap));
    if (node.has("historyPath")) {
      builder.historyPath(node.get("historyPath").asText());
    }
    if (node.has("historyMaxEntries")) {
      builder.historyMaxEntries((int) positive(node, "historyMaxEntries", where));
    }
    if (node.has("kafkaPollTimeoutMs")) {
      builder.kafkaPollTimeout(Duration.ofMillis(positive(node, "kafkaPollTimeoutMs", where)));
    }
    if (node.has("kafkaMetadataTimeoutMs")) {
      builder.kafkaMetadataTimeout(Duration.ofMillis(positive(node, "kafkaMetadataTimeoutMs", where)));
    }
    JsonNode sources = node.path("sources");
    if (!sources.isArray() || sources.isEmpty()) {
      throw new IllegalArgumentException("Cannot read " + where + ": 'sources' is missing or empty (list each source "
          + "with name and type hudi or kafka)");
    }
    for (int i = 0; i < sources.size(); i++) {
      builder.source(source(sources.get(i), "sources[" + i + "] of " + where));
    }
    return builder.build();
  }

  private static SourceSpec source(JsonNode node, String where) {
    checkKeys(node, SOURCE_KEYS, where);
    String name = required(node, "name", where);
    String type = required(node, "type", where).toLowerCase(Locale.ROOT);
    switch (type) {
      case "hudi":
        return SourceSpec.hudi(name, required(node, "path", where));
      case "kafka":
        return SourceSpec.kafka(name, stringMap(node.path("properties"), "'properties' of " + where));
      default:
        throw new IllegalArgumentException("Cannot read " + where + ": type '" + type + "' is not supported (use "
            + "hudi or kafka)");
    }
  }

  private static PipelineMode mode(String value, String where) {
    try {
      return PipelineMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot read " + where + ": mode '" + value + "' is not one of "
          + Arrays.toString(PipelineMode.values()));
    }
  }

  private static String required(JsonNode node, String key, String where) {
    JsonNode value = node.get(key);
    if (value == null || !value.isValueNode() || value.asText().trim().isEmpty()) {
      throw new IllegalArgumentException("Cannot read " + where + ": '" + key + "' is missing (set it)");
    }
    return value.asText().trim();
  }

  private static long positive(JsonNode node, String key, String where) {
    JsonNode value = node.get(key);
    if (!value.canConvertToLong() || value.asLong() < 1) {
      throw new IllegalArgumentException("Cannot read " + where + ": '" + key + "' must be a positive whole number");
    }
    return value.asLong();
  }

  private static Map<String, String> stringMap(JsonNode node, String where) {
    Map<String, String> map = new LinkedHashMap<>();
    if (node.isMissingNode() || node.isNull()) {
      return map;
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException("Cannot read " + where + ": it must be a mapping of keys to values");
    }
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      map.put(field.getKey(), field.getValue().asText());
    }
    return map;
  }

  private static void checkKeys(JsonNode node, Set<String> allowed, String where) {
    if (!node.isObject()) {
      throw new IllegalArgumentException("Cannot read " + where + ": it must be a mapping");
    }
    Set<String> unknown = new TreeSet<>();
    node.fieldNames().forEachRemaining(key -> {
      if (!allowed.contains(key)) {
        unknown.add(key);
      }
    });
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("Cannot read " + where + ": unknown keys " + unknown + " (allowed: "
          + new TreeSet<>(allowed) + ")");
    }
  }

  /** The {@code hoodie.metrics.*} settings of every pipeline's metrics. */
  public Map<String, String> metricsProperties() {
    return metricsProperties;
  }

  public List<PipelineSpec> pipelines() {
    return pipelines;
  }
}
