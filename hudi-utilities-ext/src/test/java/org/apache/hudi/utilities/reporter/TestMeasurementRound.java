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

package org.apache.hudi.utilities.reporter;

import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.freshness.Observer;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.SourceSpec;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A round measures every pipeline within its own deadline on a pool of workers: a hung pipeline costs one deadline,
 * holds one worker (replaced) until it returns, and the others are measured in the same round; every error of one
 * pipeline stays with it.
 */
class TestMeasurementRound {

  private static final Duration DEADLINE = Duration.ofMillis(500);
  /** Far above anything a round should take here, so that a slow machine never fails the test. */
  private static final Duration GENEROUS = Duration.ofSeconds(20);

  private final CountDownLatch hungCallReturns = new CountDownLatch(1);
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private MeasurementRound round;

  @AfterEach
  void releaseTheHungCall() {
    hungCallReturns.countDown();
    if (round != null) {
      round.close();
    }
  }

  @Test
  void hungPipelineCostsOneDeadlineAndEveryOtherPipelineIsMeasuredInTheSameRound() throws Exception {
    round = new MeasurementRound(this::measure, 2, DEADLINE, Clock.systemUTC());
    List<PipelineSpec> pipelines = pipelines("hung", "a", "b", "c", "d", "e");

    RoundReport first = round.run(pipelines);

    assertEquals(List.of("hung:TIMED_OUT (no answer within PT0.5S)", "a:MEASURED", "b:MEASURED", "c:MEASURED",
        "d:MEASURED", "e:MEASURED"), outcomes(first));
    assertTrue(first.duration().compareTo(GENEROUS) < 0, first.toString());
    assertEquals(1, round.stuckWorkers());

    // The call ignores interrupts and has not returned: the next round does not start it again, nor wait for it.
    RoundReport second = round.run(pipelines);

    assertEquals("hung:TIMED_OUT", outcomes(second).get(0).substring(0, "hung:TIMED_OUT".length()));
    assertTrue(second.outcomes().get(0).reason().contains("has not returned"), second.outcomes().get(0).reason());
    assertEquals(5, second.count(PipelineOutcome.Kind.MEASURED));
    assertEquals(1, calls.get("hung").get());

    hungCallReturns.countDown();
    awaitNoStuckWorker();
    RoundReport third = round.run(pipelines);

    assertEquals(6, third.count(PipelineOutcome.Kind.MEASURED), third.toString());
    assertEquals(2, calls.get("hung").get());
  }

  @Test
  void everyErrorOfOnePipelineIsContainedAndNamedAsItsReason() {
    round = new MeasurementRound(this::measure, 3, GENEROUS, Clock.systemUTC());

    RoundReport report = round.run(pipelines("a", "throws", "linkage", "b"));

    assertEquals(List.of("a:MEASURED", "throws:FAILED (java.lang.IllegalStateException: cannot read the timeline)",
        "linkage:FAILED (java.lang.NoClassDefFoundError: org/apache/kafka/clients/consumer/KafkaConsumer)",
        "b:MEASURED"), outcomes(report));
    assertEquals(0, round.stuckWorkers());
  }

  @Test
  void moreWorkersThanOneMeasureTogether() {
    // Each of eight measurements returns only once all eight are under way: one after the other, none would return
    // (each then fails at its deadline), so the event shows the workers measure together, whatever the machine's load.
    CountDownLatch underWay = new CountDownLatch(8);
    round = new MeasurementRound(pipeline -> {
      underWay.countDown();
      assertTrue(underWay.await(GENEROUS.toMillis(), TimeUnit.MILLISECONDS), "the eight measurements never overlapped");
      return measured(pipeline);
    }, 8, GENEROUS, Clock.systemUTC());

    RoundReport report = round.run(pipelines("a", "b", "c", "d", "e", "f", "g", "h"));

    assertEquals(8, report.count(PipelineOutcome.Kind.MEASURED), report.toString());
  }

  @Test
  void roundStartsFirstThePipelinesThatTookLongestInTheRoundBefore() {
    MovableClock clock = new MovableClock(Instant.parse("2026-12-07T00:00:00Z"));
    Map<String, Duration> takes = Map.of("quick", Duration.ofSeconds(1), "slow", Duration.ofSeconds(15),
        "medium", Duration.ofSeconds(5), "added", Duration.ofSeconds(2));
    List<String> started = new CopyOnWriteArrayList<>();
    // One worker: the order of the calls is the order the round starts the pipelines in.
    round = new MeasurementRound(pipeline -> {
      started.add(pipeline.name());
      clock.advance(takes.get(pipeline.name()));
      return measured(pipeline);
    }, 1, GENEROUS, clock);
    List<PipelineSpec> pipelines = pipelines("quick", "slow", "medium");

    round.run(pipelines);
    assertEquals(List.of("quick", "slow", "medium"), started, "none measured before: the configured order");

    started.clear();
    RoundReport second = round.run(pipelines);
    assertEquals(List.of("slow", "medium", "quick"), started);
    assertEquals(List.of("quick:MEASURED", "slow:MEASURED", "medium:MEASURED"), outcomes(second),
        "the report keeps the configured order");

    // A pipeline never measured counts as taking its deadline (20 s here), above the slowest one's 15 s.
    started.clear();
    round.run(pipelines("quick", "slow", "medium", "added"));
    assertEquals(List.of("added", "slow", "medium", "quick"), started);
  }

  @Test
  void pipelinesToPrepareArePreparedBeforeTheRoundsBatchAndOneThatCannotBeIsNotMeasured() {
    List<String> events = new CopyOnWriteArrayList<>();
    round = new MeasurementRound(new PipelineMeasurement() {
      @Override
      public List<PipelineSpec> unprepared(List<PipelineSpec> pipelines) {
        return pipelines.stream().filter(pipeline -> pipeline.name().startsWith("new")).collect(Collectors.toList());
      }

      @Override
      public void prepare(PipelineSpec pipeline) {
        events.add("prepare " + pipeline.name());
        if (pipeline.name().equals("new-hung")) {
          HangingFileSystem.awaitIgnoringInterrupts(hungCallReturns);
        } else if (pipeline.name().equals("new-throws")) {
          throw new IllegalStateException("cannot read the target");
        }
      }

      @Override
      public void beginMeasurements(List<PipelineSpec> pipelines) {
        events.add("batch " + pipelines.stream().map(PipelineSpec::name).collect(Collectors.toList()));
      }

      @Override
      public PipelineFreshness measure(PipelineSpec pipeline) {
        events.add("measure " + pipeline.name());
        return measured(pipeline);
      }
    }, 2, DEADLINE, Clock.systemUTC());

    RoundReport report = round.run(pipelines("new-a", "new-throws", "new-hung", "old"));

    assertEquals(List.of("new-a:MEASURED", "new-throws:FAILED (java.lang.IllegalStateException: cannot read the target)",
        "new-hung:TIMED_OUT (no answer within PT0.5S)", "old:MEASURED"), outcomes(report));
    // Every preparation ended before the batch, which holds the pipelines measured next, and only those.
    assertEquals(Set.of("prepare new-a", "prepare new-throws", "prepare new-hung"), Set.copyOf(events.subList(0, 3)));
    assertEquals("batch [new-a, old]", events.get(3));
    assertEquals(Set.of("measure new-a", "measure old"), Set.copyOf(events.subList(4, events.size())));
  }

  private PipelineFreshness measure(PipelineSpec pipeline) {
    calls.computeIfAbsent(pipeline.name(), name -> new AtomicInteger()).incrementAndGet();
    switch (pipeline.name()) {
      case "hung":
        HangingFileSystem.awaitIgnoringInterrupts(hungCallReturns);
        return measured(pipeline);
      case "throws":
        throw new IllegalStateException("cannot read the timeline");
      case "linkage":
        throw new NoClassDefFoundError("org/apache/kafka/clients/consumer/KafkaConsumer");
      default:
        return measured(pipeline);
    }
  }

  private void awaitNoStuckWorker() throws InterruptedException {
    long until = System.nanoTime() + GENEROUS.toNanos();
    while (round.stuckWorkers() > 0 && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    assertEquals(0, round.stuckWorkers());
  }

  private static PipelineFreshness measured(PipelineSpec pipeline) {
    return new PipelineFreshness(pipeline.name(), pipeline.basePath(), Observer.REPORTER, Clock.systemUTC().instant(),
        StoredCheckpoint.none(0), List.of());
  }

  static List<PipelineSpec> pipelines(String... names) {
    return IntStream.range(0, names.length).mapToObj(i -> PipelineSpec.builder(names[i], "/data/" + names[i])
        .source(SourceSpec.hudi("orders", "/data/orders")).build()).collect(Collectors.toList());
  }

  private static List<String> outcomes(RoundReport report) {
    return report.outcomes().stream().map(PipelineOutcome::toString).collect(Collectors.toList());
  }
}
