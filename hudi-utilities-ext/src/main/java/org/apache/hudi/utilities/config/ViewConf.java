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
import org.apache.hudi.utilities.transform.view.ListLimit;
import org.apache.hudi.utilities.transform.view.ViewCost;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ConfigUtils.DELTA_STREAMER_CONFIG_PREFIX;
import static org.apache.hudi.common.util.ConfigUtils.STREAMER_CONFIG_PREFIX;
import static org.apache.hudi.common.util.ValidationUtils.checkArgument;
import static org.apache.hudi.utilities.config.HoodieViewConfig.VIEW_PREFIX;

/** The settings of a view ({@link HoodieViewConfig}), parsed and checked once per batch. */
public final class ViewConf {

  /** Settings of earlier versions that AUTO's cost model replaced: set, they would be silently ignored. */
  private static final List<String> REPLACED = Arrays.asList("auto.max.change.fraction",
      "auto.max.change.fraction.grouped", "auto.incremental.overhead.rows");

  private final ViewStrategy strategy;
  private final ListLimit listLimit;
  private final ViewCost.Weights costWeights;
  private final ViewDefinitionChange definitionChange;

  private ViewConf(ViewStrategy strategy, ListLimit listLimit, ViewCost.Weights costWeights,
                   ViewDefinitionChange definitionChange) {
    this.strategy = strategy;
    this.definitionChange = definitionChange;
    this.listLimit = listLimit;
    this.costWeights = costWeights;
  }

  /**
   * @param sqlFile the view's SQL file, named in errors
   * @throws IllegalArgumentException naming the key and the fix, for a value out of range or a key of the view's
   *                                  namespace that is no setting
   */
  public static ViewConf from(TypedProperties props, String sqlFile) {
    checkKnownKeys(props, sqlFile);
    String cannot = "run the view of " + sqlFile;
    ViewStrategy strategy = ConfigValues.enumValue(props, HoodieViewConfig.STRATEGY, ViewStrategy.class, cannot);
    ListLimit listLimit = new ListLimit(ConfigValues.positiveInt(props, HoodieViewConfig.MAX_LISTED_KEYS, cannot));
    ViewCost.Weights weights = new ViewCost.Weights(
        weight(props, HoodieViewConfig.AUTO_COST_SCAN_MICROS, cannot),
        weight(props, HoodieViewConfig.AUTO_COST_OUTPUT_MICROS, cannot),
        weight(props, HoodieViewConfig.AUTO_COST_WRITE_MICROS, cannot),
        weight(props, HoodieViewConfig.AUTO_COST_REWRITE_MICROS, cannot),
        weight(props, HoodieViewConfig.AUTO_COST_INCREMENTAL_FIXED_MS, cannot));
    ViewDefinitionChange definitionChange = ConfigValues.enumValue(props, HoodieViewConfig.DEFINITION_CHANGE,
        ViewDefinitionChange.class, cannot);
    return new ViewConf(strategy, listLimit, weights, definitionChange);
  }

  private static double weight(TypedProperties props, ConfigProperty<Double> property, String cannot) {
    double value = ConfigValues.doubleValue(props, property, cannot);
    checkArgument(value >= 0 && !Double.isInfinite(value), String.format("Cannot %s: %s=%s is not a time: set it to "
        + "0 or more (default %s)", cannot, property.key(), value, property.defaultValue()));
    return value;
  }

  private static void checkKnownKeys(TypedProperties props, String sqlFile) {
    Set<String> known = new HashSet<>();
    for (ConfigProperty<?> property : ConfigValues.declared(HoodieViewConfig.class)) {
      known.add(property.key());
      known.addAll(property.getAlternatives());
    }
    List<String> namespaces = Arrays.asList(STREAMER_CONFIG_PREFIX + VIEW_PREFIX, DELTA_STREAMER_CONFIG_PREFIX
        + VIEW_PREFIX);
    List<String> unknown = props.stringPropertyNames().stream()
        .filter(key -> namespaces.stream().anyMatch(key::startsWith) && !known.contains(key))
        .sorted().collect(Collectors.toList());
    List<String> replaced = unknown.stream().filter(key -> REPLACED.stream()
        .anyMatch(name -> namespaces.stream().anyMatch(namespace -> key.equals(namespace + name))))
        .collect(Collectors.toList());
    checkArgument(replaced.isEmpty(), () -> String.format("Cannot run the view of %s: %s %s no longer read: strategy "
        + "AUTO decides by a cost model now, weighted by %sauto.cost.* (docs/views.md#strategy). Remove %s", sqlFile,
        replaced, replaced.size() == 1 ? "is" : "are", STREAMER_CONFIG_PREFIX + VIEW_PREFIX,
        replaced.size() == 1 ? "it" : "them"));
    checkArgument(unknown.isEmpty(), () -> String.format("Cannot run the view of %s: %s %s no setting of views "
        + "(check the spelling against docs/configuration.md, or remove %s)", sqlFile, unknown,
        unknown.size() == 1 ? "is" : "are", unknown.size() == 1 ? "it" : "them"));
  }

  public ViewStrategy strategy() {
    return strategy;
  }

  /** {@link HoodieViewConfig#MAX_LISTED_KEYS}: the batch lists by it, and strategy AUTO estimates by it. */
  public ListLimit listLimit() {
    return listLimit;
  }

  public ViewCost.Weights costWeights() {
    return costWeights;
  }

  /** {@link HoodieViewConfig#DEFINITION_CHANGE}. */
  public ViewDefinitionChange definitionChange() {
    return definitionChange;
  }
}
