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

import org.apache.hudi.common.config.TypedProperties;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A view's settings, parsed once: given properties, then the settings or an error naming the key and the fix. */
class TestViewConf {

  @Test
  void defaultsWhenNothingIsSet() {
    ViewConf conf = ViewConf.from(new TypedProperties(), "view.sql");

    assertEquals(ViewStrategy.AUTO, conf.strategy());
    assertEquals(1000, conf.listLimit().maxValues());
  }

  @Test
  void settingOfAnEarlierVersionIsNamedWithWhatReplacedIt() {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.deltastreamer.transformer.view.auto.max.change.fraction", "0.5");

    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ViewConf.from(props,
        "view.sql"));

    assertEquals("Cannot run the view of view.sql: [hoodie.deltastreamer.transformer.view.auto.max.change.fraction] "
        + "is no longer read: strategy AUTO decides by a cost model now, weighted by "
        + "hoodie.streamer.transformer.view.auto.cost.* (docs/views.md#strategy). Remove it", error.getMessage());
  }

  @Test
  void misspeltSettingIsNamed() {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.transformer.view.stategy", "FULL");

    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ViewConf.from(props,
        "view.sql"));

    assertEquals("Cannot run the view of view.sql: [hoodie.streamer.transformer.view.stategy] is no setting of views "
        + "(check the spelling against docs/configuration.md, or remove it)", error.getMessage());
  }

  @Test
  void negativeCostWeightIsRefused() {
    TypedProperties props = new TypedProperties();
    props.setProperty(HoodieViewConfig.AUTO_COST_WRITE_MICROS.key(), "-3");

    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ViewConf.from(props,
        "view.sql"));

    assertEquals("Cannot run the view of view.sql: hoodie.streamer.transformer.view.auto.cost.write.micros.per.row=-3.0 "
        + "is not a time: set it to 0 or more (default 16.0)", error.getMessage());
  }
}
