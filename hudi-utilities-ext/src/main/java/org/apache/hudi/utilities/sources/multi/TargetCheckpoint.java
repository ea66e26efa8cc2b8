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

package org.apache.hudi.utilities.sources.multi;

import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.StringUtils;
import org.apache.hudi.exception.HoodieIOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.Iterator;
import java.util.Optional;

import static org.apache.hudi.utilities.streamer.HoodieStreamer.CHECKPOINT_KEY;
import static org.apache.hudi.utilities.streamer.HoodieStreamer.CHECKPOINT_RESET_KEY;

/**
 * The checkpoint a Streamer target holds: found the way the Streamer finds it, in the newest completed commit that
 * carries checkpoint metadata (delta commits only, when the table has any), skipping commits of other writers and
 * table services.
 */
public final class TargetCheckpoint {

  private TargetCheckpoint() {
  }

  /**
   * @return the stored {@code deltastreamer.checkpoint.key}, or empty if the target does not exist or has none
   */
  public static Optional<String> of(String targetBasePath, Configuration hadoopConf) {
    try {
      if (!new Path(targetBasePath).getFileSystem(hadoopConf).exists(new Path(targetBasePath, HoodieTableMetaClient.METAFOLDER_NAME))) {
        return Optional.empty();
      }
      HoodieTimeline commits = HoodieTableMetaClient.builder().setConf(hadoopConf).setBasePath(targetBasePath)
          .setLoadActiveTimelineOnLoad(true).build().getCommitsTimeline().filterCompletedInstants();
      HoodieTimeline deltaCommits = commits.filter(instant -> instant.getAction().equals(HoodieTimeline.DELTA_COMMIT_ACTION));
      HoodieTimeline searched = deltaCommits.empty() ? commits : deltaCommits;
      Iterator<HoodieInstant> newestFirst = searched.getReverseOrderedInstants().iterator();
      while (newestFirst.hasNext()) {
        HoodieCommitMetadata metadata = HoodieCommitMetadata.fromBytes(
            searched.getInstantDetails(newestFirst.next()).get(), HoodieCommitMetadata.class);
        String checkpoint = metadata.getMetadata(CHECKPOINT_KEY);
        if (!StringUtils.isNullOrEmpty(checkpoint) || !StringUtils.isNullOrEmpty(metadata.getMetadata(CHECKPOINT_RESET_KEY))) {
          return Optional.ofNullable(StringUtils.isNullOrEmpty(checkpoint) ? null : checkpoint);
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      throw new HoodieIOException("Cannot read the checkpoint stored in target " + targetBasePath, e);
    }
  }
}
