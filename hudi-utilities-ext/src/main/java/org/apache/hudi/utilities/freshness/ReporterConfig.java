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

import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.config.ConfigValues;
import org.apache.hudi.utilities.config.HoodieFreshnessConfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The reporter's YAML file: the metrics settings shared by all pipelines and the pipelines to watch. Each pipeline
 * carries the properties of its Streamer job (its source settings and the {@code hoodie.streamer.freshness.*}
 * settings of {@link HoodieFreshnessConfig}), read by the parser of the commit callback, {@link StreamerPipelineSpec}.
 *
 * <pre>
 * metrics:                         # any hoodie.metrics.* settings; metrics are off without hoodie.metrics.on: true
 *   hoodie.metrics.on: true
 *   hoodie.metrics.reporter.type: PROMETHEUS_PUSHGATEWAY
 * pipelines:
 *   - name: joined                 # the target table name (--target-table), the default pipeline name
 *     basePath: /data/joined       # the Streamer's target table (--target-base-path)
 *     properties:                  # as in the Streamer's properties file
 *       hoodie.streamer.freshness.sla.minutes: 30
 *       hoodie.streamer.source.multi.hudi.tables: orders,users
 *       hoodie.streamer.source.hudi.orders.path: /data/orders
 *       hoodie.streamer.source.hudi.users.path: /data/users
 *       hoodie.streamer.source.multi.hudi.checkpoint.legacy.table: orders
 *   - name: clicks
 *     basePath: /data/clicks
 *     properties:
 *       hoodie.streamer.source.kafka.topic: clicks
 *       bootstrap.servers: broker:9092
 *       sasl.jaas.config: "..."     # passed to the freshness consumer only
 *   - name: views
 *     basePath: /data/views
 *     kafkaCluster: main           # the connection of a kafkaClusters block, defined once; its name is the
 *                                  # label cluster of the source's series (else bootstrap.servers)
 *     labels:                      # optional extra labels of every series of the pipeline (PipelineLabels)
 *       team: payments
 *       tier: gold
 *     properties:
 *       hoodie.streamer.source.kafka.topic: views
 * kafkaClusters:
 *   - name: main
 *     properties:                  # Kafka consumer properties, merged into the properties of its pipelines
 *       bootstrap.servers: broker:9092
 *       security.protocol: SASL_SSL
 *       sasl.jaas.config: ${env:KAFKA_JAAS_CONFIG}
 *       ssl.truststore.password: ${file:/run/secrets/truststore-password}
 * </pre>
 *
 * <p>Unknown keys are rejected, and so are unknown {@code hoodie.streamer.freshness.*} properties, so that a misspelt
 * setting is not silently ignored. A property set both by a pipeline and by its cluster block is rejected too. Every
 * property value may hold {@code ${env:NAME}} and {@code ${file:/path}} references ({@link Secrets#resolve}).
 */
public final class ReporterConfig {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> TOP_KEYS = Set.of("metrics", "pipelines", "kafkaClusters");
  private static final Set<String> PIPELINE_KEYS = Set.of("name", "basePath", "properties", "kafkaCluster",
      "labels");
  private static final Set<String> CLUSTER_KEYS = Set.of("name", "properties");
  private static final Set<String> FRESHNESS_PREFIXES = Set.of("hoodie.streamer.freshness.",
      "hoodie.deltastreamer.freshness.");

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
    return parse(yaml, origin, System::getenv);
  }

  /**
   * @param origin      where the text comes from, for messages
   * @param environment the environment variables {@code ${env:NAME}} references read
   * @throws IllegalArgumentException naming the entry and the key that is wrong
   */
  public static ReporterConfig parse(String yaml, String origin, Function<String, String> environment)
      throws IOException {
    JsonNode root = YAML.readTree(yaml);
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("Cannot read reporter config " + origin + ": it is empty or not a mapping "
          + "(start with 'pipelines:')");
    }
    checkKeys(root, TOP_KEYS, "reporter config " + origin);
    Map<String, String> metrics = stringMap(root.path("metrics"), "'metrics' of " + origin, environment);
    Map<String, Map<String, String>> clusters = kafkaClusters(root.path("kafkaClusters"), origin, environment);
    JsonNode list = root.path("pipelines");
    if (!list.isArray() || list.isEmpty()) {
      throw new IllegalArgumentException("Cannot read reporter config " + origin + ": 'pipelines' is missing or "
          + "empty (list at least one pipeline with name, basePath and properties)");
    }
    List<PipelineSpec> pipelines = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      pipelines.add(pipeline(list.get(i), "pipelines[" + i + "] of " + origin, clusters, environment));
    }
    return new ReporterConfig(metrics, pipelines);
  }

  /** Each {@code kafkaClusters} block's name to its properties. */
  private static Map<String, Map<String, String>> kafkaClusters(JsonNode list, String origin,
                                                                Function<String, String> environment) {
    Map<String, Map<String, String>> clusters = new LinkedHashMap<>();
    if (list.isMissingNode() || list.isNull()) {
      return clusters;
    }
    if (!list.isArray()) {
      throw new IllegalArgumentException("Cannot read 'kafkaClusters' of " + origin + ": it must be a list of "
          + "clusters, each with name and properties");
    }
    for (int i = 0; i < list.size(); i++) {
      String where = "kafkaClusters[" + i + "] of " + origin;
      JsonNode node = list.get(i);
      checkKeys(node, CLUSTER_KEYS, where);
      String name = required(node, "name", where);
      Map<String, String> properties = stringMap(node.path("properties"), "'properties' of " + where, environment);
      if (!properties.containsKey("bootstrap.servers")) {
        throw new IllegalArgumentException("Cannot read " + where + ": its properties have no bootstrap.servers "
            + "(set the cluster's brokers)");
      }
      if (clusters.put(name, properties) != null) {
        throw new IllegalArgumentException("Cannot read " + where + ": Kafka cluster '" + name + "' is defined "
            + "twice (give each block its own name)");
      }
    }
    return clusters;
  }

  private static PipelineSpec pipeline(JsonNode node, String where, Map<String, Map<String, String>> clusters,
                                       Function<String, String> environment) {
    checkKeys(node, PIPELINE_KEYS, where);
    String name = required(node, "name", where);
    String basePath = required(node, "basePath", where);
    Map<String, String> properties = stringMap(node.path("properties"), "'properties' of " + where, environment);
    String cluster = null;
    if (node.has("kafkaCluster")) {
      cluster = required(node, "kafkaCluster", where);
      properties.putAll(clusterProperties(cluster, clusters, properties, where));
    }
    TypedProperties props = new TypedProperties();
    props.putAll(properties);
    checkFreshnessKeys(props, where);
    try {
      PipelineSpec.Builder builder = StreamerPipelineSpec.builder(props, basePath, name)
          .addLabels(PipelineLabels.of(stringMap(node.path("labels"), "'labels' of " + where, environment), name));
      if (cluster != null) {
        builder.kafkaCluster(cluster);
      }
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot read " + where + ": " + e.getMessage(), e);
    }
  }

  /** The properties of the cluster a pipeline names, none of which the pipeline sets itself. */
  private static Map<String, String> clusterProperties(String cluster, Map<String, Map<String, String>> clusters,
                                                       Map<String, String> own, String where) {
    Map<String, String> properties = clusters.get(cluster);
    if (properties == null) {
      throw new IllegalArgumentException("Cannot read " + where + ": 'kafkaCluster' names cluster '" + cluster
          + "', which no kafkaClusters block defines (defined: " + clusters.keySet() + ")");
    }
    Set<String> twice = new TreeSet<>(properties.keySet());
    twice.retainAll(own.keySet());
    if (!twice.isEmpty()) {
      throw new IllegalArgumentException("Cannot read " + where + ": " + twice + " are set both in its properties "
          + "and in Kafka cluster '" + cluster + "' (set each in one place)");
    }
    return properties;
  }

  /** Rejects {@code hoodie.streamer.freshness.*} properties that are no setting of {@link HoodieFreshnessConfig}. */
  private static void checkFreshnessKeys(TypedProperties props, String where) {
    Set<String> known = new TreeSet<>();
    for (ConfigProperty<?> property : ConfigValues.declared(HoodieFreshnessConfig.class)) {
      known.add(property.key());
      known.addAll(property.getAlternatives());
    }
    String consumerPrefix = ConfigValues.valueOrDefault(props, HoodieFreshnessConfig.KAFKA_CONSUMER_PROPS_PREFIX).get();
    Set<String> unknown = new TreeSet<>();
    for (String key : props.stringPropertyNames()) {
      if (FRESHNESS_PREFIXES.stream().anyMatch(key::startsWith) && !known.contains(key)
          && !key.startsWith(consumerPrefix)) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("Cannot read 'properties' of " + where + ": unknown freshness settings "
          + unknown + " (see HoodieFreshnessConfig; allowed: " + known + ")");
    }
  }

  private static String required(JsonNode node, String key, String where) {
    JsonNode value = node.get(key);
    if (value == null || !value.isValueNode() || value.asText().trim().isEmpty()) {
      throw new IllegalArgumentException("Cannot read " + where + ": '" + key + "' is missing (set it)");
    }
    return value.asText().trim();
  }

  private static Map<String, String> stringMap(JsonNode node, String where, Function<String, String> environment) {
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
      if (!field.getValue().isValueNode()) {
        throw new IllegalArgumentException("Cannot read " + where + ": the value of '" + field.getKey() + "' must be "
            + "a single value");
      }
      map.put(field.getKey(), Secrets.resolve(field.getValue().asText(), "'" + field.getKey() + "' of " + where,
          environment));
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
