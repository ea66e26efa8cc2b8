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

package org.apache.hudi.utilities.freshness.hudi014;

import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.utilities.freshness.QueueHead;
import org.apache.hudi.utilities.freshness.QueueProbe;

import org.apache.hadoop.conf.Configuration;

import java.text.ParseException;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What waits in a Hudi source table after an instant position, on Hudi 0.14: the completed instants after it on
 * the timeline that {@code HoodieIncrSource} reads (commits, delta commits, compactions).
 *
 * <p>Since when: the <em>completion time</em> of the instants, not their instant time. On 0.14 the instant time is
 * when the writer started; the data is invisible to incremental readers until the instant completes, which may be
 * much later (a long write, a retried commit). Instant time would add the writer's own duration to the queue time,
 * and instants may complete out of order, so the oldest visible data is the earliest completion among all pending
 * instants. 0.14 keeps the completion time as the completed instant file's modification time
 * ({@link HoodieInstant#getStateTransitionTime()}); an instant without one (archived form, or a file system that
 * keeps no times) leaves the lag out rather than guess.
 */
final class HudiTimelineProbe implements QueueProbe {

  private final Configuration hadoopConf;
  private final String basePath;

  HudiTimelineProbe(Configuration hadoopConf, String basePath) {
    this.hadoopConf = hadoopConf;
    this.basePath = basePath;
  }

  @Override
  public QueueHead headAfter(String position) throws ParseException {
    HoodieTableMetaClient metaClient = HoodieTableMetaClient.builder().setConf(hadoopConf).setBasePath(basePath)
        .setLoadActiveTimelineOnLoad(true).build();
    HoodieTimeline completed = metaClient.getCommitsAndCompactionTimeline().filterCompletedInstants();
    List<HoodieInstant> pending = completed.findInstantsAfter(position, Integer.MAX_VALUE).getInstantsAsStream()
        .collect(Collectors.toList());
    if (pending.isEmpty()) {
      return QueueHead.caughtUp();
    }
    Instant oldest = null;
    for (HoodieInstant instant : pending) {
      String completionTime = instant.getStateTransitionTime();
      if (completionTime == null || completionTime.isEmpty()) {
        return QueueHead.withoutTimestamp(pending.size());
      }
      Instant visibleAt = HoodieActiveTimeline.parseDateFromInstantTime(completionTime).toInstant();
      oldest = oldest == null || visibleAt.isBefore(oldest) ? visibleAt : oldest;
    }
    return QueueHead.waitingSince(oldest, pending.size());
  }
}
