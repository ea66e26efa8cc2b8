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

import org.apache.hudi.common.util.Option;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One source of a pipeline, named as in the target's checkpoint.
 *
 * <ul>
 *   <li>Hudi table: its name in a multi-table checkpoint ({@code name=instant}) and its base path.</li>
 *   <li>Kafka topic: the consumer properties to reach it; the topic and partitions come from the checkpoint
 *   ({@code topic,0:1200,1:980}).</li>
 * </ul>
 */
public final class SourceSpec {

  private final String name;
  private final SourceKind kind;
  private final String hudiPath;
  private final Map<String, String> kafkaProperties;

  private SourceSpec(String name, SourceKind kind, String hudiPath, Map<String, String> kafkaProperties) {
    if (name == null || name.trim().isEmpty()) {
      throw new IllegalArgumentException("Cannot define a freshness source without a name (name it as in the "
          + "target's checkpoint)");
    }
    this.name = name.trim();
    this.kind = kind;
    this.hudiPath = hudiPath;
    this.kafkaProperties = Collections.unmodifiableMap(new TreeMap<>(kafkaProperties));
  }

  /**
   * @param name the table's name in the target's checkpoint
   * @param path the table's base path
   */
  public static SourceSpec hudi(String name, String path) {
    if (path == null || path.trim().isEmpty()) {
      throw new IllegalArgumentException("Cannot read the timeline of Hudi source '" + name + "': its path is empty "
          + "(set the base path of the source table)");
    }
    return new SourceSpec(name, SourceKind.HUDI, path.trim(), Collections.emptyMap());
  }

  /**
   * @param name       a name for metrics and history, usually the topic
   * @param properties Kafka consumer properties (at least {@code bootstrap.servers}); may hold credentials, which are
   *                   passed to the consumer only
   */
  public static SourceSpec kafka(String name, Map<String, String> properties) {
    if (!properties.containsKey("bootstrap.servers")) {
      throw new IllegalArgumentException("Cannot reach Kafka source '" + name + "': bootstrap.servers is not set "
          + "(add it to the source's Kafka properties)");
    }
    return new SourceSpec(name, SourceKind.KAFKA, null, properties);
  }

  public String name() {
    return name;
  }

  public SourceKind kind() {
    return kind;
  }

  /** The base path of a Hudi source. */
  public Option<String> hudiPath() {
    return Option.ofNullable(hudiPath);
  }

  /** The consumer properties of a Kafka source, credentials included: never log them, use {@link #toString()}. */
  public Map<String, String> kafkaProperties() {
    return kafkaProperties;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof SourceSpec)) {
      return false;
    }
    SourceSpec that = (SourceSpec) other;
    return name.equals(that.name) && kind == that.kind && Objects.equals(hudiPath, that.hudiPath)
        && kafkaProperties.equals(that.kafkaProperties);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, kind, hudiPath, kafkaProperties);
  }

  @Override
  public String toString() {
    return "SourceSpec{" + name + " " + kind + (hudiPath == null ? "" : " " + hudiPath)
        + (kafkaProperties.isEmpty() ? "" : " " + Secrets.describe(kafkaProperties)) + "}";
  }
}
