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

import org.apache.hudi.common.config.TypedProperties;

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
 * The pipeline derived from a Streamer job's properties, by the commit callback and the reporter alike.
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
  void multiTableSourcesComeFromTheMultiSourceConfigsInTheirOrderAndTheNamedLegacyTableOwnsABareCheckpoint() {
    PipelineSpec spec = StreamerPipelineSpec.from(props(
        "hoodie.streamer.source.multi.hudi.tables", "orders,db.users",
        "hoodie.deltastreamer.source.hudi.orders.path", "/data/orders",
        "hoodie.streamer.source.hudi.db_users.path", "/data/users",
        "hoodie.streamer.source.multi.hudi.checkpoint.legacy.table", "db.users"), "/data/joined/", "joined");
    assertEquals("joined", spec.name());
    assertEquals(List.of(SourceSpec.hudi("orders", "/data/orders"), SourceSpec.hudi("db.users", "/data/users")),
        spec.sources());
    assertEquals(Map.of("db.users", "20261129110000003"), FreshnessMeter.positions(spec, "20261129110000003"));
    assertEquals(Map.of("orders", "1", "db.users", "2"), FreshnessMeter.positions(spec, "db.users=2,orders=1"));
    assertEquals(Duration.ofMinutes(60), spec.policy().sla());
    assertEquals(Duration.ofDays(7), spec.policy().lagCap());
    assertEquals("/data/joined/.hoodie/.aux/freshness", spec.historyPath().get());
  }

  @Test
  void withoutALegacyTableTheFirstListedOwnsABareCheckpointAsInTheSource() {
    PipelineSpec spec = StreamerPipelineSpec.from(props(
        "hoodie.streamer.source.multi.hudi.tables", "users,orders",
        "hoodie.streamer.source.hudi.orders.path", "/data/orders",
        "hoodie.streamer.source.hudi.users.path", "/data/users"), "/data/joined", "joined");
    assertEquals(Map.of("users", "20261129110000003"), FreshnessMeter.positions(spec, "20261129110000003"));
  }

  @Test
  void checkpointsAreReadWithTheJobsLeniency() {
    String[] tables = {"hoodie.streamer.source.multi.hudi.tables", "orders,users",
        "hoodie.streamer.source.hudi.orders.path", "/data/orders", "hoodie.streamer.source.hudi.users.path", "/data/users"};
    PipelineSpec strict = StreamerPipelineSpec.from(props(tables), "/data/joined", "joined");
    assertThrows(IllegalArgumentException.class, () -> FreshnessMeter.positions(strict, "orders=x,users=2"));
    TypedProperties lenientProps = props(tables);
    lenientProps.setProperty("hoodie.streamer.source.multi.hudi.checkpoint.lenient", "true");
    PipelineSpec lenient = StreamerPipelineSpec.from(lenientProps, "/data/joined", "joined");
    assertEquals(Map.of("users", "2"), FreshnessMeter.positions(lenient, "orders=x,users=2"));
  }

  @Test
  void statusWindowDefaultsToTheSlaAndPrometheusPushIsOffUnlessAddressed() {
    String[] source = {"hoodie.streamer.source.hoodieincr.path", "/data/orders",
        "hoodie.streamer.freshness.sla.minutes", "30"};
    PipelineSpec defaults = StreamerPipelineSpec.from(props(source), "/data/copy", "copy");
    assertEquals(Duration.ofMinutes(30), defaults.policy().statusWindow());
    assertFalse(defaults.pushgatewayAddress().isPresent());
    assertEquals("hudi_freshness", defaults.pushgatewayJob());

    TypedProperties set = props(source);
    set.setProperty("hoodie.deltastreamer.freshness.status.window.minutes", "15");
    set.setProperty("hoodie.streamer.freshness.prometheus.pushgateway.address", "gateway:9091");
    set.setProperty("hoodie.streamer.freshness.prometheus.pushgateway.job", "freshness");
    PipelineSpec spec = StreamerPipelineSpec.from(set, "/data/copy", "copy");
    assertEquals(Duration.ofMinutes(15), spec.policy().statusWindow());
    assertEquals("gateway:9091", spec.pushgatewayAddress().get());
    assertEquals("freshness", spec.pushgatewayJob());
  }

  @Test
  void labelsOfTheStreamersPropertiesAreThePipelinesSoTheCommitCallbackPublishesThem() {
    String[] source = {"hoodie.streamer.source.hoodieincr.path", "/data/orders"};

    PipelineSpec labelled = StreamerPipelineSpec.from(props(source[0], source[1],
        "hoodie.deltastreamer.freshness.labels", " team=payments, tier = gold "), "/data/copy", "copy");
    assertEquals(Map.of("team", "payments", "tier", "gold"), labelled.labels().asMap());
    assertEquals(PipelineLabels.NONE, StreamerPipelineSpec.from(props(source), "/data/copy", "copy").labels());

    IllegalArgumentException noPair = assertThrows(IllegalArgumentException.class, () -> StreamerPipelineSpec.from(
        props(source[0], source[1], "hoodie.streamer.freshness.labels", "team=payments,gold"), "/data/copy", "copy"));
    assertEquals("Cannot label the metrics of pipeline 'copy': 'gold' of hoodie.streamer.freshness.labels is not "
        + "name=value (write e.g. hoodie.streamer.freshness.labels=team=payments,tier=gold)", noPair.getMessage());
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> StreamerPipelineSpec.from(
        props(source[0], source[1], "hoodie.streamer.freshness.labels", "team=a,team=b"), "/data/copy", "copy"));
    assertEquals("Cannot label the metrics of pipeline 'copy': hoodie.streamer.freshness.labels sets 'team' twice "
        + "(keep one)", twice.getMessage());
    IllegalArgumentException reserved = assertThrows(IllegalArgumentException.class, () -> StreamerPipelineSpec.from(
        props(source[0], source[1], "hoodie.streamer.freshness.labels", "pipeline=x"), "/data/copy", "copy"));
    assertTrue(reserved.getMessage().startsWith("Cannot label the metrics of pipeline 'copy' with 'pipeline': the "
        + "reporter sets that label itself"), reserved.getMessage());
  }

  @Test
  void hoodieIncrSourceTableIsTheOnlySourceNamedAfterItsFolder() {
    PipelineSpec spec = StreamerPipelineSpec.from(props("hoodie.deltastreamer.source.hoodieincr.path",
        "/data/orders"), "/data/copy", "copy");
    assertEquals(List.of(SourceSpec.hudi("orders", "/data/orders")), spec.sources());
    assertEquals(Map.of("orders", "20261129110000003"), FreshnessMeter.positions(spec, "20261129110000003"));
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
    assertFalse(spec.checkpoints().isPresent());
    assertEquals(Map.of("clicks", "clicks,0:1"), FreshnessMeter.positions(spec, "clicks,0:1"));
  }

  @Test
  void slaFollowsTheModeUnlessSetAndTheCapAndHistoryAreConfigurable() {
    String[] source = {"hoodie.streamer.source.hoodieincr.path", "/data/orders"};
    assertEquals(Duration.ofMinutes(1440), StreamerPipelineSpec.from(props(source[0], source[1],
        "hoodie.streamer.freshness.mode", "batch"), "/t", "t").policy().sla());
    assertEquals(Duration.ofMinutes(60), StreamerPipelineSpec.from(props(source[0], source[1]), "/t", "t")
        .policy().sla());
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
    assertEquals("Cannot measure the freshness of pipeline 't': hoodie.streamer.freshness.mode=hourly is not one of "
        + "[STREAMING, BATCH]", mode.getMessage());
    IllegalArgumentException sla = assertThrows(IllegalArgumentException.class, () -> StreamerPipelineSpec.from(
        props("hoodie.streamer.source.hoodieincr.path", "/o", "hoodie.streamer.freshness.sla.minutes", "0"), "/t",
        "t"));
    assertEquals("Cannot measure the freshness of pipeline 't': hoodie.streamer.freshness.sla.minutes=0 is not a whole "
        + "number of at least 1", sla.getMessage());
    IllegalArgumentException both = assertThrows(IllegalArgumentException.class, () -> StreamerPipelineSpec.from(
        props("hoodie.streamer.source.hoodieincr.path", "/o", "hoodie.streamer.freshness.sla.minutes", "10",
            "hoodie.deltastreamer.freshness.sla.minutes", "20"), "/t", "t"));
    assertTrue(both.getMessage().startsWith("Cannot decide between hoodie.streamer.freshness.sla.minutes=10 and "
        + "hoodie.deltastreamer.freshness.sla.minutes=20"), both.getMessage());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> StreamerPipelineSpec.from(props(), "/t", "t"));
    assertTrue(none.getMessage().startsWith("Cannot measure the freshness of pipeline 't': its properties name no "
        + "supported source"), none.getMessage());
  }
}
