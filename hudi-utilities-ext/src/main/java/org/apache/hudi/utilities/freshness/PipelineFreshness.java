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

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * One measurement of every source of a pipeline against the checkpoint of one target commit.
 */
public final class PipelineFreshness {

  private final String pipeline;
  private final String basePath;
  private final Observer observer;
  private final Instant measuredAt;
  private final StoredCheckpoint checkpoint;
  private final List<SourceFreshness> sources;

  public PipelineFreshness(String pipeline, String basePath, Observer observer, Instant measuredAt,
                           StoredCheckpoint checkpoint, List<SourceFreshness> sources) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    this.basePath = Objects.requireNonNull(basePath, "basePath");
    this.observer = Objects.requireNonNull(observer, "observer");
    this.measuredAt = Objects.requireNonNull(measuredAt, "measuredAt");
    this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
    this.sources = Collections.unmodifiableList(new ArrayList<>(sources));
  }

  public String pipeline() {
    return pipeline;
  }

  public String basePath() {
    return basePath;
  }

  public Observer observer() {
    return observer;
  }

  public Instant measuredAt() {
    return measuredAt;
  }

  /** The target commit whose checkpoint was measured against, and how many commits were searched to find it. */
  public StoredCheckpoint checkpoint() {
    return checkpoint;
  }

  public List<SourceFreshness> sources() {
    return sources;
  }

  /** The same measurement with these sources (rated ones, say), in the same order. */
  public PipelineFreshness withSources(List<SourceFreshness> replaced) {
    return new PipelineFreshness(pipeline, basePath, observer, measuredAt, checkpoint, replaced);
  }

  /** The largest lag of the sources that have one; absent if none has. */
  public Option<Duration> maxLag() {
    return Option.fromJavaOptional(sources.stream().map(SourceFreshness::lag).filter(Option::isPresent)
        .map(Option::get).max(Duration::compareTo));
  }

  /** The largest SLA ratio of the sources that have one: the pipeline is as late as its latest source. */
  public OptionalDouble maxSlaRatio() {
    return sources.stream().map(SourceFreshness::slaRatio).filter(OptionalDouble::isPresent)
        .mapToDouble(OptionalDouble::getAsDouble).max();
  }

  /** Sources whose probe failed. */
  public int unreadableSources() {
    return (int) sources.stream().filter(source -> source.state() == FreshnessState.UNREADABLE).count();
  }

  /**
   * Commits the reporter searched to find the checkpoint; empty for the commit callback, which reads the checkpoint of
   * the commit it is called for and searches nothing.
   */
  public OptionalInt searchDepth() {
    return observer == Observer.REPORTER ? OptionalInt.of(checkpoint.commitsSearched()) : OptionalInt.empty();
  }

  @Override
  public String toString() {
    return "PipelineFreshness{" + pipeline + " by " + observer + " at " + measuredAt + ", " + checkpoint + ", "
        + sources + "}";
  }
}
