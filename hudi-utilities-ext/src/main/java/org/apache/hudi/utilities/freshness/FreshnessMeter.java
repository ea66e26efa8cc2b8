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

import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Measures every source of a pipeline against a stored checkpoint: splits the checkpoint into per-source positions,
 * probes each source past its position, and turns what waits into lag with the pipeline's policy. Used by the commit
 * callback and by the reporter alike.
 */
public final class FreshnessMeter {

  private static final Logger LOG = LoggerFactory.getLogger(FreshnessMeter.class);

  private final Clock clock;
  private final BiFunction<PipelineSpec, SourceSpec, QueueProbe> probes;

  /**
   * @param probes the probe of a source of a pipeline (a Hudi timeline or a Kafka consumer)
   */
  public FreshnessMeter(Clock clock, BiFunction<PipelineSpec, SourceSpec, QueueProbe> probes) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.probes = Objects.requireNonNull(probes, "probes");
  }

  /**
   * @param found the checkpoint to measure against; without one, every source has no value
   * @return one record per source, in the pipeline's order; a source whose probe fails is
   *     {@link FreshnessState#UNREADABLE} (and logged) while the others are measured
   * @throws IllegalArgumentException if the checkpoint cannot be split into the pipeline's sources' positions
   */
  public PipelineFreshness measure(PipelineSpec pipeline, StoredCheckpoint found, Observer observer) {
    Map<String, String> positions = positions(pipeline, found.checkpoint().orElse(null));
    Map<String, QueueHead> heads = new HashMap<>();
    Map<String, String> failures = new HashMap<>();
    for (SourceSpec source : pipeline.sources()) {
      String position = positions.get(source.name());
      if (position == null) {
        continue;
      }
      try {
        heads.put(source.name(), probes.apply(pipeline, source).headAfter(position));
      } catch (Exception e) {
        failures.put(source.name(), String.valueOf(e.getMessage()));
        LOG.warn("Cannot read source '{}' of pipeline '{}' after position {}: its lag is left out of this measurement",
            source.name(), pipeline.name(), position, e);
      }
    }
    // One 'now' for all sources, taken after probing so that no waiting data can be newer than it.
    Instant now = clock.instant();
    List<SourceFreshness> sources = new ArrayList<>();
    for (SourceSpec source : pipeline.sources()) {
      String position = positions.get(source.name());
      QueueHead head = heads.get(source.name());
      if (position == null) {
        sources.add(SourceFreshness.noCheckpoint(source.name(), source.kind()));
      } else if (head == null) {
        sources.add(SourceFreshness.unreadable(source.name(), source.kind(), position, failures.get(source.name())));
      } else {
        sources.add(SourceFreshness.measure(source.name(), source.kind(), position, head, now, pipeline.policy()));
      }
    }
    return new PipelineFreshness(pipeline.name(), pipeline.basePath(), observer, now, found, sources);
  }

  /**
   * Each source's position in a stored checkpoint: the whole string for a Kafka source; for Hudi sources, as the
   * pipeline's checkpoint grammar reads it (the multi-table form {@code t1=ts1,t2=ts2}, or a bare
   * {@code HoodieIncrSource} instant, which belongs to the pipeline's legacy source).
   *
   * @return source name to position; sources without a position are absent
   */
  public static Map<String, String> positions(PipelineSpec pipeline, String checkpoint) {
    Map<String, String> positions = new LinkedHashMap<>();
    if (checkpoint == null || checkpoint.trim().isEmpty()) {
      return positions;
    }
    if (!pipeline.checkpoints().isPresent()) {
      positions.put(pipeline.sources().get(0).name(), checkpoint.trim());
      return positions;
    }
    MultiTableCheckpoint parsed = pipeline.checkpoints().get().parse(checkpoint);
    for (SourceSpec source : pipeline.sources()) {
      parsed.position(source.name()).ifPresent(position -> positions.put(source.name(), position));
    }
    return positions;
  }
}
