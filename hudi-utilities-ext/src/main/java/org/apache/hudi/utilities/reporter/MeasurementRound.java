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

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.freshness.PipelineSpec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * One round over the reporter's pipelines, after Prometheus' scrape loop: every pipeline measured on a pool of workers,
 * each within its own deadline, each failure contained. A pipeline past its deadline gets no value this round and
 * counts as timed out, with the reason; the round does not wait for it. Its worker is interrupted; if the call ignores
 * that, the worker is left to it, replaced in the pool ({@link WorkerPool}), and the pipeline is not measured again
 * until it returns (each later round counts it as timed out), so one hung target holds one thread, not one per round.
 *
 * <p>A round therefore lasts at most about {@code ceil(pipelines / workers)} deadlines, whatever hangs.
 *
 * <p>A round starts the pipelines that took longest in the one before first (those that timed out, then the slowest;
 * a pipeline not measured yet counts as timing out, a first measurement being the slowest), so that a slow pipeline
 * runs beside the others instead of after them: a target that hangs costs its deadline once in a round, not the
 * round's length plus its deadline as when it is started last.
 *
 * <p>Pipelines the measurement must {@link PipelineMeasurement#prepare} first (a target never read, whose checkpoint
 * the round's batched Kafka reads need) are prepared in a pass of their own before the measurements, on the same
 * workers and deadlines: one whose preparation fails or times out ends its round there, and is not measured.
 */
public final class MeasurementRound implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MeasurementRound.class);

  private final PipelineMeasurement measurement;
  private final WorkerPool workers;
  private final Duration deadline;
  private final Clock clock;
  private final ScheduledExecutorService timer;
  /** Pipelines whose worker is still in a call past its deadline, to when that measurement started. */
  private final Map<String, Instant> stuck = new ConcurrentHashMap<>();
  /** How long each pipeline's last measurement took, by the clock (one that timed out returned after its deadline). */
  private final Map<String, Duration> lastTook = new ConcurrentHashMap<>();

  /**
   * @param workers  threads measuring pipelines at the same time
   * @param deadline the longest one pipeline's measurement may take
   * @throws IllegalArgumentException if {@code workers} is below 1 or {@code deadline} not positive
   */
  public MeasurementRound(PipelineMeasurement measurement, int workers, Duration deadline, Clock clock) {
    checkArgument(!deadline.isNegative() && !deadline.isZero(), () -> "Cannot give each pipeline " + deadline
        + ": --pipeline-timeout must be positive");
    this.measurement = measurement;
    this.workers = new WorkerPool(workers);
    this.deadline = deadline;
    this.clock = clock;
    this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "freshness-deadlines");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Measures every pipeline once and returns when each is measured, failed or past its deadline. */
  public RoundReport run(List<PipelineSpec> pipelines) {
    Instant startedAt = clock.instant();
    long startNanos = System.nanoTime();
    lastTook.keySet().retainAll(pipelines.stream().map(PipelineSpec::name).collect(Collectors.toSet()));
    measurement.beginRound(pipelines);
    Map<String, PipelineOutcome> ended = new HashMap<>();
    List<PipelineSpec> unprepared = measurement.unprepared(pipelines);
    List<Option<PipelineOutcome>> preparations = pass(unprepared, pipeline -> {
      measurement.prepare(pipeline);
      return Option.empty();
    });
    for (int i = 0; i < unprepared.size(); i++) {
      preparations.get(i).ifPresent(outcome -> ended.put(outcome.pipeline(), outcome));
    }
    List<PipelineSpec> toMeasure = pipelines.stream().filter(pipeline -> !ended.containsKey(pipeline.name()))
        .collect(Collectors.toList());
    measurement.beginMeasurements(toMeasure);
    List<Option<PipelineOutcome>> measured = pass(toMeasure,
        pipeline -> Option.of(PipelineOutcome.measured(measurement.measure(pipeline))));
    for (int i = 0; i < toMeasure.size(); i++) {
      ended.put(toMeasure.get(i).name(), measured.get(i).get());
    }
    List<PipelineOutcome> done = pipelines.stream().map(pipeline -> ended.get(pipeline.name()))
        .collect(Collectors.toList());
    return new RoundReport(startedAt, Duration.ofNanos(System.nanoTime() - startNanos), done);
  }

  /**
   * Runs one step for each pipeline on the workers, slowest first, each within its deadline, and returns when every
   * step has ended: empty where a step let its pipeline go on, else the outcome that ends its round.
   */
  private List<Option<PipelineOutcome>> pass(List<PipelineSpec> pipelines, Step step) {
    List<CompletableFuture<Option<PipelineOutcome>>> outcomes = new ArrayList<>(pipelines.size());
    pipelines.forEach(pipeline -> outcomes.add(new CompletableFuture<>()));
    for (int i : slowestFirst(pipelines)) {
      PipelineSpec pipeline = pipelines.get(i);
      Instant hungSince = stuck.get(pipeline.name());
      if (hungSince != null) {
        outcomes.get(i).complete(Option.of(PipelineOutcome.timedOut(pipeline.name(),
            "its measurement started at " + hungSince + " has not returned")));
      } else {
        workers.submit(() -> runWithinDeadline(pipeline, step, outcomes.get(i)));
      }
    }
    return outcomes.stream().map(CompletableFuture::join).collect(Collectors.toList());
  }

  /** The positions of the pipelines in the order to start them; ties keep the configured order. */
  private List<Integer> slowestFirst(List<PipelineSpec> pipelines) {
    return IntStream.range(0, pipelines.size()).boxed()
        .sorted(Comparator.comparing((Integer i) -> lastTook.getOrDefault(pipelines.get(i).name(), deadline))
            .reversed())
        .collect(Collectors.toList());
  }

  /** Workers held by a call past its deadline. */
  public int stuckWorkers() {
    return workers.stuck();
  }

  public int workers() {
    return workers.size();
  }

  public Duration deadline() {
    return deadline;
  }

  private void runWithinDeadline(PipelineSpec pipeline, Step step,
                                 CompletableFuture<Option<PipelineOutcome>> outcome) {
    Attempt attempt = new Attempt(pipeline.name(), Thread.currentThread(), clock.instant());
    ScheduledFuture<?> expiry = timer.schedule(() -> expire(attempt, outcome), deadline.toMillis(),
        TimeUnit.MILLISECONDS);
    try {
      Option<PipelineOutcome> ran = step.run(pipeline);
      // Before the outcome completes: the round returns once every outcome is complete, and the next round orders
      // its pipelines by these times.
      recordTook(attempt);
      outcome.complete(ran);
    } catch (Throwable e) {
      recordTook(attempt);
      if (!outcome.isDone()) {
        LOG.error("Cannot report the freshness of pipeline '{}' at {}", pipeline.name(), pipeline.basePath(), e);
      }
      outcome.complete(Option.of(PipelineOutcome.failed(pipeline.name(), String.valueOf(e))));
      if (e instanceof VirtualMachineError) {
        throw (VirtualMachineError) e;
      }
    } finally {
      expiry.cancel(false);
      attempt.returned();
    }
  }

  private void recordTook(Attempt attempt) {
    lastTook.put(attempt.pipeline, Duration.between(attempt.startedAt, clock.instant()));
  }

  private void expire(Attempt attempt, CompletableFuture<Option<PipelineOutcome>> outcome) {
    // Abandoned before the outcome completes, so that the round, once it has every outcome, counts the stuck worker.
    if (attempt.abandon() && outcome.complete(Option.of(PipelineOutcome.timedOut(attempt.pipeline, "no answer within "
        + deadline)))) {
      LOG.warn("Gave up on pipeline '{}' after {} (--pipeline-timeout): no value this round", attempt.pipeline,
          deadline);
    }
  }

  /** One pass's work for one pipeline: an outcome ends the pipeline's round, none lets it go on to the next pass. */
  private interface Step {
    Option<PipelineOutcome> run(PipelineSpec pipeline) throws Exception;
  }

  /** One worker's measurement of one pipeline; its two ends (return, deadline) may race, hence the lock. */
  private final class Attempt {
    private final String pipeline;
    private final Thread worker;
    private final Instant startedAt;
    private boolean returned;
    private boolean abandoned;

    Attempt(String pipeline, Thread worker, Instant startedAt) {
      this.pipeline = pipeline;
      this.worker = worker;
      this.startedAt = startedAt;
    }

    /** @return false if the worker had returned already */
    synchronized boolean abandon() {
      if (returned) {
        return false;
      }
      abandoned = true;
      stuck.put(pipeline, startedAt);
      workers.replaceStuck();
      worker.interrupt();
      return true;
    }

    void returned() {
      synchronized (this) {
        returned = true;
        if (abandoned) {
          stuck.remove(pipeline);
          workers.returned();
          LOG.info("The measurement of pipeline '{}' started at {} returned: it is measured again from the next "
              + "round", pipeline, startedAt);
        }
      }
      // An interrupt meant for this measurement must not reach the next task of this thread.
      Thread.interrupted();
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    workers.close();
  }
}
