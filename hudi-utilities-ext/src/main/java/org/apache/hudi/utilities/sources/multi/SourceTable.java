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

package org.apache.hudi.utilities.sources.multi;

import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper.MissingCheckpointStrategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ConfigUtils.containsConfigProperty;
import static org.apache.hudi.common.util.ConfigUtils.getBooleanWithAltKeys;
import static org.apache.hudi.common.util.ConfigUtils.getRawValueWithAltKeys;
import static org.apache.hudi.common.util.ConfigUtils.getStringWithAltKeys;
import static org.apache.hudi.common.util.ValidationUtils.checkArgument;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLE_FULL_TABLE_SCAN_FALLBACK;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLE_MISSING_CHECKPOINT_STRATEGY;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLE_NUM_INSTANTS;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLE_PARTITION_EXTRACTOR_CLASS;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLE_PARTITION_FIELDS;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLE_PATH;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLE_SKIP_ON_SCHEMA_FAILURE;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.forTable;

/**
 * How one source table of a multi-table pipeline is read: its resolved, validated per-table configs.
 */
public final class SourceTable {

  /** The job-wide switch of Hudi's incremental reads, the default of the per-table one. */
  static final String JOB_FULL_TABLE_SCAN_FALLBACK = "hoodie.datasource.read.incr.fallback.fulltablescan.enable";

  private final String name;
  private final String path;
  private final int numInstants;
  private final MissingCheckpointStrategy missingCheckpointStrategy;
  private final boolean missingCheckpointStrategyExplicit;
  private final boolean skipOnSchemaFailure;
  private final boolean fullTableScanFallback;
  private final List<String> partitionFields;
  private final String partitionExtractorClass;

  private SourceTable(String name, String path, int numInstants, MissingCheckpointStrategy missingCheckpointStrategy,
                      boolean missingCheckpointStrategyExplicit, boolean skipOnSchemaFailure,
                      boolean fullTableScanFallback, List<String> partitionFields, String partitionExtractorClass) {
    this.name = name;
    this.path = path;
    this.numInstants = numInstants;
    this.missingCheckpointStrategy = missingCheckpointStrategy;
    this.missingCheckpointStrategyExplicit = missingCheckpointStrategyExplicit;
    this.skipOnSchemaFailure = skipOnSchemaFailure;
    this.fullTableScanFallback = fullTableScanFallback;
    this.partitionFields = Collections.unmodifiableList(new ArrayList<>(partitionFields));
    this.partitionExtractorClass = partitionExtractorClass;
  }

  /**
   * The configured tables, in declaration order.
   *
   * @throws IllegalArgumentException naming the key and the fix, for the first invalid config
   */
  public static List<SourceTable> allFrom(TypedProperties props) {
    return HoodieIncrMultiSourceConfig.tables(props).stream()
        .map(table -> from(table, props))
        .collect(Collectors.toList());
  }

  private static SourceTable from(String table, TypedProperties props) {
    for (ConfigProperty<?> template : Arrays.asList(TABLE_PATH, TABLE_NUM_INSTANTS, TABLE_MISSING_CHECKPOINT_STRATEGY,
        TABLE_SKIP_ON_SCHEMA_FAILURE, TABLE_FULL_TABLE_SCAN_FALLBACK, TABLE_PARTITION_FIELDS, TABLE_PARTITION_EXTRACTOR_CLASS)) {
      checkNoConflictingAlternative(props, forTable(template, table));
    }
    String pathKey = forTable(TABLE_PATH, table).key();
    String path = getStringWithAltKeys(props, forTable(TABLE_PATH, table), true);
    checkArgument(path != null && !path.trim().isEmpty(),
        String.format("Cannot read table '%s': %s is not set (set it to the table's base path)", table, pathKey));

    String numInstantsKey = forTable(TABLE_NUM_INSTANTS, table).key();
    Object rawNumInstants = getRawValueWithAltKeys(props, forTable(TABLE_NUM_INSTANTS, table))
        .orElse(TABLE_NUM_INSTANTS.defaultValue());
    int numInstants = parsePositiveInt(rawNumInstants.toString(), table, numInstantsKey);

    String strategyKey = forTable(TABLE_MISSING_CHECKPOINT_STRATEGY, table).key();
    String strategy = getStringWithAltKeys(props, forTable(TABLE_MISSING_CHECKPOINT_STRATEGY, table), true).trim();
    checkArgument(Arrays.stream(MissingCheckpointStrategy.values()).anyMatch(value -> value.name().equals(strategy)),
        String.format("Cannot read table '%s': %s=%s is not one of %s", table, strategyKey, strategy,
            Arrays.toString(MissingCheckpointStrategy.values())));

    String fields = getStringWithAltKeys(props, forTable(TABLE_PARTITION_FIELDS, table), true);
    List<String> partitionFields = fields == null ? Collections.emptyList() : Arrays.stream(fields.split(","))
        .map(String::trim).filter(field -> !field.isEmpty()).collect(Collectors.toList());

    return new SourceTable(table, path.trim(), numInstants, MissingCheckpointStrategy.valueOf(strategy),
        containsConfigProperty(props, forTable(TABLE_MISSING_CHECKPOINT_STRATEGY, table)),
        getBooleanWithAltKeys(props, forTable(TABLE_SKIP_ON_SCHEMA_FAILURE, table)),
        Boolean.parseBoolean(getRawValueWithAltKeys(props, forTable(TABLE_FULL_TABLE_SCAN_FALLBACK, table))
            .orElse(props.getString(JOB_FULL_TABLE_SCAN_FALLBACK, "false")).toString()), partitionFields,
        getStringWithAltKeys(props, forTable(TABLE_PARTITION_EXTRACTOR_CLASS, table), true));
  }

  /** A key set under both its streamer and its deltastreamer name, to different values, is a conflict, not a choice. */
  private static void checkNoConflictingAlternative(TypedProperties props, ConfigProperty<?> property) {
    Object value = props.get(property.key());
    for (String alternative : property.getAlternatives()) {
      Object other = props.get(alternative);
      checkArgument(value == null || other == null || value.toString().trim().equals(other.toString().trim()),
          String.format("Cannot decide between %s=%s and %s=%s: they name the same setting. Remove one of them.",
              property.key(), value, alternative, other));
    }
  }

  private static int parsePositiveInt(String value, String table, String key) {
    int parsed;
    try {
      parsed = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      parsed = 0;
    }
    checkArgument(parsed > 0,
        String.format("Cannot read table '%s': %s=%s is not a positive whole number", table, key, value));
    return parsed;
  }

  /** The name as listed in the tables config and kept in the checkpoint. */
  public String name() {
    return name;
  }

  public String path() {
    return path;
  }

  /** The most completed instants read in one batch. */
  public int numInstants() {
    return numInstants;
  }

  /** Where the table starts when the checkpoint has no position for it. */
  public MissingCheckpointStrategy missingCheckpointStrategy() {
    return missingCheckpointStrategy;
  }

  /** Whether the missing-checkpoint strategy was configured, rather than left to its default. */
  public boolean missingCheckpointStrategyExplicit() {
    return missingCheckpointStrategyExplicit;
  }

  public boolean skipOnSchemaFailure() {
    return skipOnSchemaFailure;
  }

  /** Whether a window older than the active timeline, or with cleaned files, is read by a full table scan. */
  public boolean fullTableScanFallback() {
    return fullTableScanFallback;
  }

  /** Columns to derive from the partition path, in partition-path order; empty for none. */
  public List<String> partitionFields() {
    return partitionFields;
  }

  public Optional<String> partitionExtractorClass() {
    return partitionFields.isEmpty() ? Optional.empty() : Optional.of(partitionExtractorClass);
  }

  @Override
  public String toString() {
    return "SourceTable{" + name + " at " + path + ", numInstants=" + numInstants + ", missingCheckpointStrategy="
        + missingCheckpointStrategy + "}";
  }
}
