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

import org.apache.hudi.utilities.freshness.PipelineFreshness;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/** One round over the reporter's pipelines: when it started, how long it took, and each pipeline's outcome. */
public final class RoundReport {

  private final Instant startedAt;
  private final Duration duration;
  private final List<PipelineOutcome> outcomes;

  RoundReport(Instant startedAt, Duration duration, List<PipelineOutcome> outcomes) {
    this.startedAt = startedAt;
    this.duration = duration;
    this.outcomes = Collections.unmodifiableList(outcomes);
  }

  public Instant startedAt() {
    return startedAt;
  }

  public Duration duration() {
    return duration;
  }

  /** One outcome per pipeline of the round, in the round's order. */
  public List<PipelineOutcome> outcomes() {
    return outcomes;
  }

  /** The measurements of the pipelines measured, in the round's order. */
  public List<PipelineFreshness> measured() {
    return outcomes.stream().filter(outcome -> outcome.freshness().isPresent())
        .map(outcome -> outcome.freshness().get()).collect(Collectors.toList());
  }

  public long count(PipelineOutcome.Kind kind) {
    return outcomes.stream().filter(outcome -> outcome.kind() == kind).count();
  }

  @Override
  public String toString() {
    return "round of " + outcomes.size() + " pipelines started at " + startedAt + " in " + duration + ": "
        + count(PipelineOutcome.Kind.MEASURED) + " measured, " + count(PipelineOutcome.Kind.FAILED) + " failed, "
        + count(PipelineOutcome.Kind.TIMED_OUT) + " timed out";
  }
}
