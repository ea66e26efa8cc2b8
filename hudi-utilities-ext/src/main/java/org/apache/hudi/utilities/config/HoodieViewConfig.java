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

import static org.apache.hudi.common.util.ConfigUtils.DELTA_STREAMER_CONFIG_PREFIX;
import static org.apache.hudi.common.util.ConfigUtils.STREAMER_CONFIG_PREFIX;
import static org.apache.hudi.common.util.ConfigUtils.enumNames;

/**
 * Configs of views: a SQL file of {@code MultiDatasetSqlFileTransformer} whose query reads whole tables through
 * &lt;TABLE:name&gt; placeholders, kept equal to its result by an incremental plan the plugin derives.
 */
@Immutable
@ConfigClassProperty(name = "Multi-Table View Configs",
    groupName = ConfigGroups.Names.HUDI_STREAMER,
    subGroupName = ConfigGroups.SubGroupNames.NONE,
    description = "Configurations of views: a query over whole source tables that the plugin maintains in the "
        + "target incrementally.")
public class HoodieViewConfig extends HoodieConfig {

  /** The namespace of these settings, under {@code hoodie.streamer.} and {@code hoodie.deltastreamer.}. */
  static final String VIEW_PREFIX = "transformer.view.";

  public static final ConfigProperty<String> STRATEGY = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "strategy")
      .defaultValue(ViewStrategy.AUTO.name())
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "strategy")
      .withValidValues(enumNames(ViewStrategy.class))
      .withDocumentation("How each batch of a view computes the rows it writes. STRICT: incrementally, from the changed "
          + "rows of each table; a query that cannot be maintained incrementally fails at the first batch, before "
          + "any commit, naming the operator. AUTO: incrementally when the cost model estimates it no dearer than a "
          + "full recompute, from the rows each plan reads, produces and writes (the tables' rows and the records "
          + "their windows wrote, from commit metadata) and the auto.cost.* weights; a full recompute when it "
          + "estimates otherwise or the query cannot be maintained incrementally. FULL: a full recompute every batch. "
          + "A full recompute is exact too: the keys gone from the result are deleted.");

  public static final ConfigProperty<Double> AUTO_COST_SCAN_MICROS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.scan.micros.per.row")
      .defaultValue(0.7)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.scan.micros.per.row")
      .markAdvanced()
      .withDocumentation("With strategy AUTO, a weight of the cost model: microseconds a batch spends per row of a "
          + "table it scans (the columns the query reads). Measured by benchmarks/run.sh views on 2 cores "
          + "(docs/views.md#strategy); measure your cluster's with it.");

  public static final ConfigProperty<Double> AUTO_COST_OUTPUT_MICROS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.output.micros.per.row")
      .defaultValue(3.4)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.output.micros.per.row")
      .markAdvanced()
      .withDocumentation("With strategy AUTO, a weight of the cost model: microseconds per row the query produces "
          + "(joined, projected and handed to the write).");

  public static final ConfigProperty<Double> AUTO_COST_WRITE_MICROS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.write.micros.per.row")
      .defaultValue(16.0)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.write.micros.per.row")
      .markAdvanced()
      .withDocumentation("With strategy AUTO, a weight of the cost model: microseconds per row upserted into the "
          + "target (its index lookup and merge).");

  public static final ConfigProperty<Double> AUTO_COST_REWRITE_MICROS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.rewrite.micros.per.row")
      .defaultValue(7.0)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.rewrite.micros.per.row")
      .markAdvanced()
      .withDocumentation("With strategy AUTO, a weight of the cost model: microseconds per row of a COPY_ON_WRITE "
          + "target's files that an upsert rewrites (every file an upserted row falls in; with changed rows spread "
          + "over the keys, all of them). Not counted for a MERGE_ON_READ target, whose upserts append to logs.");

  public static final ConfigProperty<Double> AUTO_COST_INCREMENTAL_FIXED_MS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.incremental.fixed.ms")
      .defaultValue(1500.0)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.cost.incremental.fixed.ms")
      .markAdvanced()
      .withDocumentation("With strategy AUTO, a weight of the cost model: milliseconds an incremental batch costs "
          + "beyond a full recompute whatever its change (finding the changed keys, planning a pass per changed "
          + "table). On small tables it makes the full recompute the cheaper.");

  public static final ConfigProperty<Integer> MAX_LISTED_KEYS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "max.listed.keys")
      .defaultValue(1000)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "max.listed.keys")
      .markAdvanced()
      .withDocumentation("Most keys a view's batch reads a table for with 'key IN (keys)', which Spark pushes into "
          + "the table's scan (Parquet statistics, Hudi's column stats); more keys are matched by a semi-join and "
          + "kept in memory and disk for the batch.");

  public static final ConfigProperty<String> DEFINITION_CHANGE = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "definition.change")
      .defaultValue(ViewDefinitionChange.FAIL.name())
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "definition.change")
      .withValidValues(enumNames(ViewDefinitionChange.class))
      .withDocumentation("What a view's batch does when the view was edited since the target was written: every "
          + "commit records a fingerprint of the query (as Spark parses it: blanks, comments and keyword case aside) "
          + "and of the target's record key in its checkpoint (@view=...). FAIL: the batch fails before any commit, "
          + "naming both fingerprints, and the target stays as the old query wrote it. REBUILD: the batch recomputes "
          + "the target in full by the new query (deleting the keys it no longer has), once; the batches after it are "
          + "incremental again.");
}
