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

import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.freshness.CheckpointLocator;
import org.apache.hudi.utilities.freshness.CheckpointSearch;

import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads the Streamer checkpoint ({@code deltastreamer.checkpoint.key}) from a target's completed commits, on Hudi 0.14.
 * The commits looked at are those of the commits timeline (commit, delta commit, replace commit), where the Streamer
 * stores checkpoints; a clustering (replace commit) or another writer's commit holds none and counts in the depth.
 */
public final class HudiTargetTimeline implements CheckpointLocator {

  private final Configuration hadoopConf;

  public HudiTargetTimeline(Configuration hadoopConf) {
    this.hadoopConf = hadoopConf;
  }

  @Override
  public CheckpointSearch newest(String basePath, int maxDepth) throws IOException {
    HoodieTimeline completed = completedCommits(basePath);
    List<HoodieInstant> newestFirst = completed.getReverseOrderedInstants().limit(maxDepth)
        .collect(Collectors.toList());
    int depth = 0;
    for (HoodieInstant instant : newestFirst) {
      depth++;
      String checkpoint = checkpointOf(completed, instant);
      if (checkpoint != null && !checkpoint.isEmpty()) {
        return CheckpointSearch.searched(instant.getTimestamp(), checkpoint, depth);
      }
    }
    return CheckpointSearch.searched(null, null, depth);
  }

  /**
   * The checkpoint stored by one completed commit.
   *
   * @throws IllegalStateException if the commit is not a completed commit of the target
   */
  public CheckpointSearch atCommit(String basePath, String commitTime) throws IOException {
    HoodieTimeline completed = completedCommits(basePath);
    HoodieInstant instant = completed.filter(candidate -> candidate.getTimestamp().equals(commitTime)).firstInstant()
        .orElseThrow(() -> new IllegalStateException("Cannot read the checkpoint of commit " + commitTime + " of "
            + basePath + ": it is not a completed commit there (was the callback configured on another table?)"));
    return CheckpointSearch.ofCommit(commitTime, checkpointOf(completed, instant));
  }

  private HoodieTimeline completedCommits(String basePath) {
    return HoodieTableMetaClient.builder().setConf(hadoopConf).setBasePath(basePath).setLoadActiveTimelineOnLoad(true)
        .build().getCommitsTimeline().filterCompletedInstants();
  }

  private static String checkpointOf(HoodieTimeline timeline, HoodieInstant instant) throws IOException {
    return HoodieCommitMetadata.fromBytes(timeline.getInstantDetails(instant).get(), HoodieCommitMetadata.class)
        .getMetadata(HoodieWriteConfig.STREAMER_CHECKPOINT_KEY);
  }
}
