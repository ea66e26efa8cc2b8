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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.exception.HoodieIOException;
import org.apache.hudi.utilities.freshness.QueueHead;
import org.apache.hudi.utilities.freshness.QueueProbe;
import org.apache.hudi.utilities.freshness.RetentionHeadroom;
import org.apache.hudi.utilities.sources.multi.WindowReadability;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What waits in a Hudi source table after an instant position, on Hudi 0.14: the completed instants after it on the
 * timeline that {@code HoodieIncrSource} reads ({@link SourceTimeline#completedCommits()}: commits, delta commits,
 * compactions).
 *
 * <p>Since when: the <em>completion time</em> of the instants, not their instant time. On 0.14 the instant time is
 * when the writer started; the data is invisible to incremental readers until the instant completes, which may be
 * much later (a long write, a retried commit). Instant time would add the writer's own duration to the queue time,
 * and instants may complete out of order, so the oldest visible data is the earliest completion among all pending
 * instants ({@link SourceTimeline#completionTimeOf}); an instant without one (archived form, or a file system that
 * keeps no times) leaves the lag out rather than guess.
 *
 * <p>And how far the position is from what the source's cleaner and archival remove: the headroom of its window, from
 * the same {@link SourceRetention} verdict the retention guard gives the Streamer (one clean's metadata read).
 */
final class HudiTimelineProbe implements QueueProbe {

  private static final Logger LOG = LoggerFactory.getLogger(HudiTimelineProbe.class);

  private final String basePath;
  private final Function<String, Option<SourceTimeline>> timelines;

  /**
   * @param timelines the timeline of a table by base path; empty if it holds no Hudi table ({@link SourceTimeline#load}
   *                  each time, or a cache that reloads a kept timeline)
   */
  HudiTimelineProbe(String basePath, Function<String, Option<SourceTimeline>> timelines) {
    this.basePath = basePath;
    this.timelines = timelines;
  }

  /**
   * @throws IllegalStateException if the path holds no Hudi table
   */
  @Override
  public QueueHead headAfter(String position) {
    SourceTimeline timeline = timelines.apply(basePath).orElseThrow(() -> new IllegalStateException(
        "Cannot read the timeline of Hudi source " + basePath + ": there is no Hudi table there (check the source's "
            + "path)"));
    QueueHead head = waitingAfter(timeline, position);
    WindowReadability window;
    try {
      window = timeline.retention().readability(position);
    } catch (HoodieIOException e) {
      // The lag stands without it: a headroom that cannot be read is not reported, never guessed.
      LOG.warn("Cannot read the retention of Hudi source {} after {}: its headroom is not reported this time",
          basePath, position, e);
      return head;
    }
    return window.headroomCommits().isPresent()
        ? head.withHeadroom(RetentionHeadroom.of(window.headroomCommits().get(), window.headroomTime().get()))
        : head;
  }

  private static QueueHead waitingAfter(SourceTimeline timeline, String position) {
    List<HoodieInstant> pending = timeline.completedCommits().findInstantsAfter(position, Integer.MAX_VALUE)
        .getInstantsAsStream().collect(Collectors.toList());
    if (pending.isEmpty()) {
      return QueueHead.caughtUp();
    }
    Instant oldest = null;
    for (HoodieInstant instant : pending) {
      Option<Instant> visibleAt = SourceTimeline.completionTimeOf(instant);
      if (!visibleAt.isPresent()) {
        return QueueHead.withoutTimestamp(pending.size());
      }
      oldest = oldest == null || visibleAt.get().isBefore(oldest) ? visibleAt.get() : oldest;
    }
    return QueueHead.waitingSince(oldest, pending.size());
  }
}
