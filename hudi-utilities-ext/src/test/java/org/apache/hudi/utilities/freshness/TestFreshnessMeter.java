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

import org.apache.hudi.utilities.checkpoint.MultiTableCheckpointManager;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Splitting a stored checkpoint into per-source positions and measuring each source against its own.
 */
class TestFreshnessMeter {

  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private final List<String> probed = new ArrayList<>();

  private static PipelineSpec ordersAndUsers() {
    return ordersAndUsers(new MultiTableCheckpointManager(List.of("orders", "users"), "orders", true, false));
  }

  private static PipelineSpec ordersAndUsers(MultiTableCheckpointManager checkpoints) {
    return PipelineSpec.builder("joined", "/data/joined")
        .source(SourceSpec.hudi("orders", "/data/orders"))
        .source(SourceSpec.hudi("users", "/data/users"))
        .checkpoints(checkpoints)
        .build();
  }

  /** Probes that report, per source, data waiting since (position's last digit) minutes before NOW. */
  private BiFunction<PipelineSpec, SourceSpec, QueueProbe> recordingProbes() {
    return (pipeline, source) -> position -> {
      probed.add(source.name() + "@" + position);
      long minutes = Long.parseLong(position.substring(position.length() - 1));
      return QueueHead.waitingSince(NOW.minus(Duration.ofMinutes(minutes)), 1);
    };
  }

  @Test
  void eachHudiSourceIsProbedAfterItsOwnPositionInAMultiTableCheckpoint() {
    PipelineFreshness freshness = new FreshnessMeter(CLOCK, recordingProbes()).measure(ordersAndUsers(),
        StoredCheckpoint.found("20261129115900000", "orders=20261129110000005,users=20261129110000009", 1),
        Observer.CALLBACK);
    assertEquals(List.of("orders@20261129110000005", "users@20261129110000009"), probed);
    assertEquals(Duration.ofMinutes(5), freshness.sources().get(0).lag().get());
    assertEquals(Duration.ofMinutes(9), freshness.sources().get(1).lag().get());
    assertEquals(Duration.ofMinutes(9), freshness.maxLag().get());
    assertEquals(9.0 / 60.0, freshness.maxSlaRatio().getAsDouble(), 1e-9);
    assertEquals(NOW, freshness.measuredAt());
  }

  @Test
  void bareCheckpointBelongsToTheNamedLegacySourceNotTheFirstListedAndTheOthersHaveNoValue() {
    PipelineSpec usersOwnBareInstants = ordersAndUsers(new MultiTableCheckpointManager(List.of("orders", "users"),
        "users", true, false));
    PipelineFreshness freshness = new FreshnessMeter(CLOCK, recordingProbes()).measure(usersOwnBareInstants,
        StoredCheckpoint.found("c", "20261129110000003", 1), Observer.CALLBACK);
    assertEquals(List.of("users@20261129110000003"), probed);
    assertEquals(FreshnessState.NO_CHECKPOINT, freshness.sources().get(0).state());
    assertEquals(Duration.ofMinutes(3), freshness.sources().get(1).lag().get());
  }

  @Test
  void severalHudiSourcesMustNameTheOneThatOwnsABareCheckpoint() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> PipelineSpec.builder("joined", "/data/joined").source(SourceSpec.hudi("orders", "/data/orders"))
            .source(SourceSpec.hudi("users", "/data/users")).build());
    assertTrue(error.getMessage().startsWith("Cannot tell which source of pipeline 'joined' owns a bare checkpoint"),
        error.getMessage());
  }

  @Test
  void lenientPipelineMeasuresTheSourcesOfTheWellFormedEntries() {
    PipelineFreshness freshness = new FreshnessMeter(CLOCK, recordingProbes()).measure(ordersAndUsers(
        new MultiTableCheckpointManager(List.of("orders", "users"), "orders", true, true)),
        StoredCheckpoint.found("c", "orders=abc,users=20261129110000002", 1), Observer.CALLBACK);
    assertEquals(List.of("users@20261129110000002"), probed);
    assertEquals(FreshnessState.NO_CHECKPOINT, freshness.sources().get(0).state());
    assertEquals(Duration.ofMinutes(2), freshness.sources().get(1).lag().get());
  }

  @Test
  void kafkaSourceGetsTheWholeCheckpoint() {
    PipelineSpec clicks = PipelineSpec.builder("clicks", "/data/clicks")
        .source(SourceSpec.kafka("clicks", Map.of("bootstrap.servers", "127.0.0.1:1"))).build();
    new FreshnessMeter(CLOCK, recordingProbes()).measure(clicks,
        StoredCheckpoint.found("c", "clicks,0:10,1:4", 1), Observer.REPORTER);
    assertEquals(List.of("clicks@clicks,0:10,1:4"), probed);
  }

  @Test
  void noCheckpointGivesNoValueForAnySourceAndProbesNothing() {
    PipelineFreshness freshness = new FreshnessMeter(CLOCK, recordingProbes()).measure(ordersAndUsers(),
        StoredCheckpoint.none(100), Observer.REPORTER);
    assertTrue(probed.isEmpty());
    assertTrue(freshness.sources().stream().allMatch(source -> source.state() == FreshnessState.NO_CHECKPOINT));
    assertFalse(freshness.maxLag().isPresent());
    assertFalse(freshness.maxSlaRatio().isPresent());
  }

  @Test
  void failingSourceIsUnreadableWhileTheOthersAreMeasured() {
    BiFunction<PipelineSpec, SourceSpec, QueueProbe> failingOrders = (pipeline, source) -> position -> {
      if (source.name().equals("orders")) {
        throw new IllegalStateException("timeline unreadable");
      }
      return QueueHead.caughtUp();
    };
    PipelineFreshness freshness = new FreshnessMeter(CLOCK, failingOrders).measure(ordersAndUsers(),
        StoredCheckpoint.found("c", "orders=1,users=2", 1), Observer.CALLBACK);
    assertEquals(FreshnessState.UNREADABLE, freshness.sources().get(0).state());
    assertEquals("1", freshness.sources().get(0).position().get());
    assertFalse(freshness.sources().get(0).lag().isPresent());
    assertEquals("timeline unreadable", freshness.sources().get(0).reason().get(), "the reason goes with the status");
    assertEquals(FreshnessState.CAUGHT_UP, freshness.sources().get(1).state());
    assertEquals(1, freshness.unreadableSources());
  }

  @Test
  void checkpointThatIsNotOfThePipelinesFormFailsTheMeasurement() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> new FreshnessMeter(CLOCK, recordingProbes()).measure(ordersAndUsers(),
            StoredCheckpoint.found("c", "orders=abc", 1), Observer.CALLBACK));
    assertTrue(error.getMessage().contains("orders=abc"), error.getMessage());
  }

  @Test
  void kafkaSourceMustBeAlone() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> PipelineSpec.builder("mixed", "/data/mixed").source(SourceSpec.hudi("orders", "/data/orders"))
            .source(SourceSpec.kafka("clicks", Map.of("bootstrap.servers", "b:9092"))).build());
    assertTrue(error.getMessage().startsWith("Cannot measure Kafka source 'clicks' of pipeline 'mixed' next to other "
        + "sources"), error.getMessage());
  }
}
