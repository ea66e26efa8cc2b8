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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The external observer: finds each pipeline's checkpoint in its target's timeline and records the freshness of its
 * sources. It needs nothing from the pipelines, so it still reports when a pipeline is stuck and commits nothing.
 */
public final class FreshnessReporter {

  private static final Logger LOG = LoggerFactory.getLogger(FreshnessReporter.class);

  private final CheckpointLocator locator;
  private final FreshnessRecorder recorder;
  private final Function<PipelineSpec, FreshnessSink> sinks;
  private final int maxCommitDepth;

  /**
   * @param sinks          the metrics sink of each pipeline
   * @param maxCommitDepth the most target commits looked at to find a checkpoint
   */
  public FreshnessReporter(CheckpointLocator locator, FreshnessRecorder recorder,
                           Function<PipelineSpec, FreshnessSink> sinks, int maxCommitDepth) {
    if (maxCommitDepth < 1) {
      throw new IllegalArgumentException("Cannot search " + maxCommitDepth + " commits for a checkpoint: search at "
          + "least 1 (--max-commit-depth)");
    }
    this.locator = Objects.requireNonNull(locator, "locator");
    this.recorder = Objects.requireNonNull(recorder, "recorder");
    this.sinks = Objects.requireNonNull(sinks, "sinks");
    this.maxCommitDepth = maxCommitDepth;
  }

  /**
   * Measures every pipeline once. A pipeline that fails is logged and counted in its sink; the others go on.
   *
   * @return the measurements of the pipelines that did not fail, in order
   */
  public List<PipelineFreshness> reportOnce(List<PipelineSpec> pipelines) {
    List<PipelineFreshness> measured = new ArrayList<>();
    for (PipelineSpec pipeline : pipelines) {
      FreshnessSink sink = sinks.apply(pipeline);
      try {
        CheckpointSearch found = locator.newest(pipeline.basePath(), maxCommitDepth);
        if (!found.checkpoint().isPresent()) {
          LOG.warn("Found no checkpoint in the newest {} commits of pipeline '{}' at {}: its sources have no value",
              found.depth().orElse(0), pipeline.name(), pipeline.basePath());
        }
        measured.add(recorder.record(pipeline, found, Observer.REPORTER, sink));
      } catch (Exception e) {
        LOG.error("Cannot report the freshness of pipeline '{}' at {}", pipeline.name(), pipeline.basePath(), e);
        sink.countFailure(pipeline.name());
      }
    }
    return measured;
  }
}
