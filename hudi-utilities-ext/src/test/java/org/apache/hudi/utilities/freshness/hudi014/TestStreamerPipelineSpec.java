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

package org.apache.hudi.utilities.freshness.hudi014;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.SourceSpec;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pipeline the commit callback derives from the Streamer's properties.
 */
class TestStreamerPipelineSpec {

  private static TypedProperties props(String... keysAndValues) {
    TypedProperties props = new TypedProperties();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      props.setProperty(keysAndValues[i], keysAndValues[i + 1]);
    }
    return props;
  }

  @Test
  void multiTableSourcesComeFromTheMultiSourceConfigsWithTheLegacyTableFirst() {
    PipelineSpec spec = StreamerPipelineSpec.from(props(
        "hoodie.streamer.source.multi.hudi.tables", "orders,db.users",
        "hoodie.deltastreamer.source.hudi.orders.path", "/data/orders",
        "hoodie.streamer.source.hudi.db_users.path", "/data/users",
        "hoodie.streamer.source.multi.hudi.checkpoint.legacy.table", "db.users"), "/data/joined/", "joined");
    assertEquals("joined", spec.name());
    assertEquals(List.of(SourceSpec.hudi("db.users", "/data/users"), SourceSpec.hudi("orders", "/data/orders")),
        spec.sources());
    assertEquals(Duration.ofMinutes(60), spec.policy().sla());
    assertEquals(Duration.ofDays(7), spec.policy().lagCap());
    assertEquals("/data/joined/.hoodie/.aux/freshness", spec.historyPath().get());
  }

  @Test
  void aHoodieIncrSourceTableIsTheOnlySourceNamedAfterItsFolder() {
    PipelineSpec spec = StreamerPipelineSpec.from(props("hoodie.deltastreamer.source.hoodieincr.path",
        "/data/orders"), "/data/copy", "copy");
    assertEquals(List.of(SourceSpec.hudi("orders", "/data/orders")), spec.sources());
  }

  @Test
  void kafkaPropertiesAreTheStreamersWithoutItsGroupAndWithTheFreshnessOverrides() {
    PipelineSpec spec = StreamerPipelineSpec.from(props(
        "hoodie.streamer.source.kafka.topic", "clicks",
        "bootstrap.servers", "b:9092",
        "group.id", "streamer",
        "sasl.jaas.config", "streamer-principal",
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.streamer.freshness.kafka.consumer.sasl.jaas.config", "read-only-principal",
        "hoodie.streamer.freshness.kafka.poll.timeout.ms", "250"), "/data/clicks", "clicks");
    assertEquals(List.of(SourceSpec.kafka("clicks", new TreeMap<>(Map.of("bootstrap.servers", "b:9092",
        "sasl.jaas.config", "read-only-principal")))), spec.sources());
    assertEquals(Duration.ofMillis(250), spec.kafkaPollTimeout());
  }

  @Test
  void slaFollowsTheModeUnlessSetAndTheCapAndHistoryAreConfigurable() {
    String[] source = {"hoodie.streamer.source.hoodieincr.path", "/data/orders"};
    assertEquals(Duration.ofMinutes(1440), StreamerPipelineSpec.from(props(source[0], source[1],
        "hoodie.streamer.freshness.mode", "batch"), "/t", "t").policy().sla());
    PipelineSpec tuned = StreamerPipelineSpec.from(props(source[0], source[1],
        "hoodie.deltastreamer.freshness.sla.minutes", "15",
        "hoodie.streamer.freshness.lag.cap.minutes", "120",
        "hoodie.streamer.freshness.pipeline.name", "orders_copy",
        "hoodie.streamer.freshness.history.enable", "false"), "/t", "t");
    assertEquals(Duration.ofMinutes(15), tuned.policy().sla());
    assertEquals(Duration.ofMinutes(120), tuned.policy().lagCap());
    assertEquals("orders_copy", tuned.name());
    assertFalse(tuned.historyPath().isPresent());
  }

  @Test
  void invalidSettingsNameTheKeyToFix() {
    IllegalArgumentException mode = assertThrows(IllegalArgumentException.class, () -> StreamerPipelineSpec.from(
        props("hoodie.streamer.source.hoodieincr.path", "/o", "hoodie.streamer.freshness.mode", "hourly"), "/t", "t"));
    assertEquals("Cannot use freshness mode 'HOURLY': set hoodie.streamer.freshness.mode to one of [STREAMING, BATCH]",
        mode.getMessage());
    IllegalArgumentException sla = assertThrows(IllegalArgumentException.class, () -> StreamerPipelineSpec.from(
        props("hoodie.streamer.source.hoodieincr.path", "/o", "hoodie.streamer.freshness.sla.minutes", "0"), "/t",
        "t"));
    assertTrue(sla.getMessage().startsWith("Cannot use '0' minutes from hoodie.streamer.freshness.sla.minutes"),
        sla.getMessage());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> StreamerPipelineSpec.from(props(), "/t", "t"));
    assertTrue(none.getMessage().startsWith("Cannot measure the freshness of pipeline 't': its properties name no "
        + "supported source"), none.getMessage());
  }
}
