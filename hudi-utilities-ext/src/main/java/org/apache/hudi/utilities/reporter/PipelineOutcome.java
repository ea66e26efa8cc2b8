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
import org.apache.hudi.utilities.freshness.PipelineFreshness;

import java.util.Objects;

/** What one round made of one pipeline: a measurement, or no value and the reason. */
public final class PipelineOutcome {

  /** The three ways a pipeline's measurement in a round ends. */
  public enum Kind {
    MEASURED, FAILED, TIMED_OUT
  }

  private final String pipeline;
  private final Kind kind;
  private final Option<PipelineFreshness> freshness;
  private final String reason;

  private PipelineOutcome(String pipeline, Kind kind, Option<PipelineFreshness> freshness, String reason) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    this.kind = kind;
    this.freshness = freshness;
    this.reason = reason;
  }

  public static PipelineOutcome measured(PipelineFreshness freshness) {
    return new PipelineOutcome(freshness.pipeline(), Kind.MEASURED, Option.of(freshness), "measured");
  }

  public static PipelineOutcome failed(String pipeline, String reason) {
    return new PipelineOutcome(pipeline, Kind.FAILED, Option.empty(), reason);
  }

  public static PipelineOutcome timedOut(String pipeline, String reason) {
    return new PipelineOutcome(pipeline, Kind.TIMED_OUT, Option.empty(), reason);
  }

  public String pipeline() {
    return pipeline;
  }

  public Kind kind() {
    return kind;
  }

  /** The measurement; present only when {@link #kind()} is {@link Kind#MEASURED}. */
  public Option<PipelineFreshness> freshness() {
    return freshness;
  }

  /** Why there is no value (the error, or how long the deadline was); "measured" otherwise. */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return pipeline + ":" + kind + (kind == Kind.MEASURED ? "" : " (" + reason + ")");
  }
}
