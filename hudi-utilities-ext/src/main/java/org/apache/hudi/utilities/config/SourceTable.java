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

import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper.MissingCheckpointStrategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLE_FULL_TABLE_SCAN_FALLBACK;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLE_INCR_FORMAT;
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
  public static final String JOB_FULL_TABLE_SCAN_FALLBACK = "hoodie.datasource.read.incr.fallback.fulltablescan.enable";

  /** What follows a table's key prefix in the keys of a per-table schema provider (Hudi's schemaprovider.* keys). */
  private static final String SCHEMA_PROVIDER_KEY_PART = "schemaprovider.";

  private final String name;
  private final String path;
  private final int numInstants;
  private final MissingCheckpointStrategy missingCheckpointStrategy;
  private final boolean missingCheckpointStrategyExplicit;
  private final boolean skipOnSchemaFailure;
  private final boolean fullTableScanFallback;
  private final List<String> partitionFields;
  private final String partitionExtractorClass;
  private final DeltaFormat deltaFormat;

  private SourceTable(String name, String path, int numInstants, MissingCheckpointStrategy missingCheckpointStrategy,
                      boolean missingCheckpointStrategyExplicit, boolean skipOnSchemaFailure,
                      boolean fullTableScanFallback, List<String> partitionFields, String partitionExtractorClass,
                      DeltaFormat deltaFormat) {
    this.name = name;
    this.path = path;
    this.numInstants = numInstants;
    this.missingCheckpointStrategy = missingCheckpointStrategy;
    this.missingCheckpointStrategyExplicit = missingCheckpointStrategyExplicit;
    this.skipOnSchemaFailure = skipOnSchemaFailure;
    this.fullTableScanFallback = fullTableScanFallback;
    this.partitionFields = Collections.unmodifiableList(new ArrayList<>(partitionFields));
    this.partitionExtractorClass = partitionExtractorClass;
    this.deltaFormat = deltaFormat;
  }

  /**
   * The settings of one table.
   *
   * @param table the table name as listed in {@link HoodieIncrMultiSourceConfig#TABLES}
   * @throws IllegalArgumentException naming the key and the fix, for the first invalid config
   */
  static SourceTable from(String table, TypedProperties props) {
    String cannot = String.format("read table '%s'", table);
    rejectSchemaProviderKeys(table, props);
    String path = ConfigValues.raw(props, forTable(TABLE_PATH, table)).orElse("");
    if (path.isEmpty()) {
      throw new IllegalArgumentException(String.format("Cannot %s: %s is not set (set it to the table's base path)",
          cannot, forTable(TABLE_PATH, table).key()));
    }
    int numInstants = ConfigValues.positiveInt(props, forTable(TABLE_NUM_INSTANTS, table), cannot);
    MissingCheckpointStrategy strategy = ConfigValues.enumValue(props, forTable(TABLE_MISSING_CHECKPOINT_STRATEGY, table),
        MissingCheckpointStrategy.class, cannot);
    List<String> partitionFields = Arrays.stream(ConfigValues.raw(props, forTable(TABLE_PARTITION_FIELDS, table))
            .orElse("").split(","))
        .map(String::trim).filter(field -> !field.isEmpty()).collect(Collectors.toList());
    ConfigProperty<Boolean> fallback = forTable(TABLE_FULL_TABLE_SCAN_FALLBACK, table);
    boolean fullTableScanFallback = ConfigValues.raw(props, fallback).isPresent()
        ? ConfigValues.booleanValue(props, fallback, cannot)
        : Boolean.parseBoolean(props.getString(JOB_FULL_TABLE_SCAN_FALLBACK, "false").trim());
    DeltaFormat deltaFormat = ConfigValues.enumValue(props, forTable(TABLE_INCR_FORMAT, table), DeltaFormat.class, cannot);
    checkArgument(deltaFormat != DeltaFormat.CDC || partitionFields.isEmpty(), () -> String.format("Cannot %s as CDC: "
        + "%s adds columns to the delta's rows, which a CDC delta keeps in its before and after images (remove %s, or "
        + "set %s=%s)", cannot, forTable(TABLE_PARTITION_FIELDS, table).key(), forTable(TABLE_PARTITION_FIELDS, table).key(),
        forTable(TABLE_INCR_FORMAT, table).key(), DeltaFormat.LATEST_STATE));
    checkArgument(deltaFormat != DeltaFormat.CDC || !fullTableScanFallback, () -> String.format("Cannot %s as CDC with "
        + "its full-table-scan fallback on: Hudi's CDC query reads only the active timeline, so a window older than it "
        + "cannot be read as CDC (set %s=false, or %s=%s)", cannot, fallback.key(), forTable(TABLE_INCR_FORMAT, table).key(),
        DeltaFormat.LATEST_STATE));
    return new SourceTable(table, path, numInstants, strategy,
        ConfigValues.raw(props, forTable(TABLE_MISSING_CHECKPOINT_STRATEGY, table)).isPresent(),
        ConfigValues.booleanValue(props, forTable(TABLE_SKIP_ON_SCHEMA_FAILURE, table), cannot),
        fullTableScanFallback, partitionFields,
        ConfigValues.valueOrDefault(props, forTable(TABLE_PARTITION_EXTRACTOR_CLASS, table)).get(), deltaFormat);
  }

  /**
   * A multi-table source takes each table's schema from the table's own Hudi metadata; a per-table schema provider
   * would be silently ignored, so it fails the job at startup instead.
   */
  private static void rejectSchemaProviderKeys(String table, TypedProperties props) {
    for (String prefix : HoodieIncrMultiSourceConfig.tableKeyPrefixes(table)) {
      for (String key : props.stringPropertyNames()) {
        if (key.startsWith(prefix + SCHEMA_PROVIDER_KEY_PART)) {
          throw new IllegalArgumentException(String.format("Cannot configure a schema provider for table '%s': a "
              + "multi-table source reads each table's schema from its Hudi metadata (remove %s; reshape columns in "
              + "the transformer SQL, or set hoodie.streamer.schemaprovider.class for the target)", table, key));
        }
      }
    }
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

  public Option<String> partitionExtractorClass() {
    return partitionFields.isEmpty() ? Option.empty() : Option.of(partitionExtractorClass);
  }

  /** The shape of the table's delta: its latest state, or its CDC net change. */
  public DeltaFormat deltaFormat() {
    return deltaFormat;
  }

  @Override
  public String toString() {
    return "SourceTable{" + name + " at " + path + ", numInstants=" + numInstants + ", missingCheckpointStrategy="
        + missingCheckpointStrategy + "}";
  }
}
