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

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What a measurement says that the time alone does not: the checkpoint found (its commit, value and search depth) and,
 * for each source, its position, state, status, the arrival of its oldest waiting data, what the log lost or lacks,
 * and the reason of a missing value. Two measurements with the same story differ only in what follows from the
 * clock: the lag and SLA ratio of data that waits at the same position grow with the time they are taken, and the
 * pending count and retention headroom move with the source's head. {@link RecentHistory} writes a measurement to the
 * history only when its story changes.
 */
final class MeasurementStory {

  private final Option<String> commit;
  private final Option<String> checkpoint;
  private final OptionalInt searchDepth;
  private final List<SourceStory> sources;

  private MeasurementStory(Option<String> commit, Option<String> checkpoint, OptionalInt searchDepth,
                           List<SourceStory> sources) {
    this.commit = commit;
    this.checkpoint = checkpoint;
    this.searchDepth = searchDepth;
    this.sources = sources;
  }

  static MeasurementStory of(PipelineFreshness freshness) {
    List<SourceStory> sources = new ArrayList<>();
    for (SourceFreshness source : freshness.sources()) {
      sources.add(new SourceStory(source));
    }
    return new MeasurementStory(freshness.checkpoint().commit(), freshness.checkpoint().checkpoint(),
        freshness.searchDepth(), sources);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof MeasurementStory)) {
      return false;
    }
    MeasurementStory other = (MeasurementStory) o;
    return commit.equals(other.commit) && checkpoint.equals(other.checkpoint) && searchDepth.equals(other.searchDepth)
        && sources.equals(other.sources);
  }

  @Override
  public int hashCode() {
    return Objects.hash(commit, checkpoint, searchDepth, sources);
  }

  /** One source's part of the story. */
  private static final class SourceStory {

    private final String source;
    private final FreshnessState state;
    private final SourceStatus status;
    private final Option<String> position;
    private final Option<Instant> oldestVisibleAt;
    private final Option<CheckpointInLog> checkpointInLog;
    private final Option<String> reason;

    private SourceStory(SourceFreshness freshness) {
      this.source = freshness.source();
      this.state = freshness.state();
      this.status = freshness.status();
      this.position = freshness.position();
      this.oldestVisibleAt = freshness.oldestVisibleAt();
      this.checkpointInLog = freshness.checkpointInLog();
      this.reason = freshness.reason();
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof SourceStory)) {
        return false;
      }
      SourceStory other = (SourceStory) o;
      return source.equals(other.source) && state == other.state && status == other.status
          && position.equals(other.position) && oldestVisibleAt.equals(other.oldestVisibleAt)
          && checkpointInLog.equals(other.checkpointInLog) && reason.equals(other.reason);
    }

    @Override
    public int hashCode() {
      return Objects.hash(source, state, status, position, oldestVisibleAt, checkpointInLog, reason);
    }
  }
}
