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

  private static final String VIEW_PREFIX = "transformer.view.";

  public static final ConfigProperty<String> STRATEGY = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "strategy")
      .defaultValue(ViewStrategy.AUTO.name())
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "strategy")
      .withValidValues(enumNames(ViewStrategy.class))
      .withDocumentation("How each batch of a view computes the rows it writes. STRICT: incrementally, from the changed "
          + "rows of each table; a query that cannot be maintained incrementally fails at the first batch, before "
          + "any commit, naming the operator. AUTO: incrementally, unless the change estimated from the commit "
          + "metadata of the batch's windows exceeds " + STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.max.change.fraction "
          + "(auto.max.change.fraction.grouped for a view with GROUP BY or DISTINCT) less auto.incremental.overhead.rows "
          + "over the rows of the view's largest table, or the query cannot be maintained incrementally: then a full "
          + "recompute. FULL: a full "
          + "recompute every batch. A full recompute is exact too: the keys gone from the result are deleted.");

  public static final ConfigProperty<Double> AUTO_MAX_CHANGE_FRACTION = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.max.change.fraction")
      .defaultValue(0.75)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.max.change.fraction")
      .markAdvanced()
      .withDocumentation("With strategy AUTO, for a view without GROUP BY or DISTINCT: the largest estimated change, as "
          + "a fraction of the rows of the tables the view reads (summed over the tables: records written in the "
          + "batch's window divided by the table's estimated rows), that a batch computes incrementally on a large "
          + "table; the limit is lowered by auto.incremental.overhead.rows over the rows of the view's largest table. "
          + "A larger change is recomputed in full. With the defaults the limit is 1.6% at 100 000 rows, 68% at "
          + "1 000 000, fitted to benchmarks/run.sh views.");

  public static final ConfigProperty<Double> AUTO_MAX_CHANGE_FRACTION_GROUPED = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.max.change.fraction.grouped")
      .defaultValue(0.0)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.max.change.fraction.grouped")
      .markAdvanced()
      .withDocumentation("With strategy AUTO, for a view with GROUP BY or DISTINCT: as auto.max.change.fraction. The "
          + "default 0 recomputes grouped views in full whenever a table changed: benchmarks/run.sh views measured "
          + "the full recompute faster at every change fraction, at 100 000 and 1 000 000 rows, the result of a "
          + "grouped view being small and the touched groups recomputed from whole tables either way.");

  public static final ConfigProperty<Long> AUTO_INCREMENTAL_OVERHEAD_ROWS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.incremental.overhead.rows")
      .defaultValue(74_000L)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "auto.incremental.overhead.rows")
      .markAdvanced()
      .withDocumentation("With strategy AUTO: what an incremental batch costs beyond a full recompute whatever its "
          + "change (finding the changed keys, evaluating the previous state), as the rows of the view's largest "
          + "table a full recompute rewrites in that time. A batch runs incrementally when its estimated change is at "
          + "most auto.max.change.fraction (.grouped for a view with GROUP BY or DISTINCT) less this many rows over "
          + "the largest table's estimated rows: the smaller the table, the sooner a full recompute wins. 0 makes the "
          + "fractions flat limits. The defaults are fitted to benchmarks/run.sh views at 100 000 and 1 000 000 fact "
          + "rows.");

  public static final ConfigProperty<Integer> MAX_LISTED_KEYS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "max.listed.keys")
      .defaultValue(1000)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + VIEW_PREFIX + "max.listed.keys")
      .markAdvanced()
      .withDocumentation("Most keys a view's batch reads a table for with 'key IN (keys)', which Spark pushes into "
          + "the table's scan (Parquet statistics, Hudi's column stats); more keys are matched by a semi-join and "
          + "kept in memory and disk for the batch.");
}
