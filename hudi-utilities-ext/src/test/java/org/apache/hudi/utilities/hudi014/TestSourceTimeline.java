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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Date;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Instant times become points in time in the zone the table writes them in.
 */
class TestSourceTimeline {

  private static final Instant NOON = Instant.parse("2026-11-29T12:00:00Z");

  @Test
  void instantTimesAreReadInTheZoneTheTableWritesThemIn() {
    // One instant-time string names different moments in different zones: written 30 minutes ago on the JVM's wall
    // clock, it lies 30 minutes ahead when the table writes instant times in a zone one hour behind the JVM's.
    String instant = HoodieActiveTimeline.formatDate(Date.from(NOON.minus(Duration.ofMinutes(30))));
    ZoneId jvm = ZoneId.systemDefault();
    ZoneId behind = ZoneOffset.ofTotalSeconds(jvm.getRules().getOffset(NOON).getTotalSeconds() - 3600);

    assertEquals(NOON.minus(Duration.ofMinutes(30)), SourceTimeline.timeOf(instant, jvm));
    assertEquals(NOON.plus(Duration.ofMinutes(30)), SourceTimeline.timeOf(instant, behind));
  }
}
