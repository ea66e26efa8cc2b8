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

import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.StringUtils;
import org.apache.hudi.exception.HoodieIOException;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.Iterator;

import static org.apache.hudi.utilities.streamer.HoodieStreamer.CHECKPOINT_KEY;
import static org.apache.hudi.utilities.streamer.HoodieStreamer.CHECKPOINT_RESET_KEY;

/**
 * Finds the checkpoint a target table stores for its Streamer, by the rule of Hudi 0.14's {@code StreamSync}: among
 * the target's completed commits (commits, delta commits and replace commits; delta commits only if the target has
 * any, as a MERGE_ON_READ target's ingestion writes them), the newest whose metadata holds a checkpoint or a
 * checkpoint reset decides. A decisive commit with a reset but an empty checkpoint means the target has none.
 *
 * <p>The one place that reads stored checkpoints: the source (to resume tables that a partial {@code --checkpoint}
 * does not name), the freshness callback and the freshness reporter use it.
 */
public final class StoredCheckpointReader {

  /** No bound: the search the Streamer itself makes. */
  public static final int UNBOUNDED = Integer.MAX_VALUE;

  private final Configuration hadoopConf;

  public StoredCheckpointReader(Configuration hadoopConf) {
    this.hadoopConf = hadoopConf;
  }

  /**
   * The newest stored checkpoint, looking at no more than {@code maxCommits} commits, newest first.
   *
   * @return the checkpoint and its commit; {@link StoredCheckpoint#none} if the target does not exist or no commit
   *     looked at decides
   * @throws HoodieIOException if the timeline or a commit's metadata cannot be read
   */
  public StoredCheckpoint newest(String targetBasePath, int maxCommits) {
    if (!exists(targetBasePath)) {
      return StoredCheckpoint.none(0);
    }
    return newest(HoodieTableMetaClient.builder().setConf(hadoopConf).setBasePath(targetBasePath)
        .setLoadActiveTimelineOnLoad(true).build(), maxCommits);
  }

  /**
   * The newest stored checkpoint on the active timeline the meta client holds now (no listing: reload it first to see
   * newer commits), looking at no more than {@code maxCommits} commits, newest first.
   *
   * @return the checkpoint and its commit; {@link StoredCheckpoint#none} if no commit looked at decides
   * @throws HoodieIOException if a commit's metadata cannot be read
   */
  public StoredCheckpoint newest(HoodieTableMetaClient target, int maxCommits) {
    String targetBasePath = target.getBasePathV2().toString();
    HoodieTimeline searched = ingestionCommits(target);
    Iterator<HoodieInstant> newestFirst = searched.getReverseOrderedInstants().limit(maxCommits).iterator();
    int looked = 0;
    while (newestFirst.hasNext()) {
      HoodieInstant instant = newestFirst.next();
      looked++;
      // A commit whose file its writer is still writing (another writer of the target, seen from outside it) is taken
      // as not yet completed: the commit before it decides, as it did a moment ago.
      Option<HoodieCommitMetadata> written = metadata(searched, instant, targetBasePath);
      if (!written.isPresent()) {
        continue;
      }
      HoodieCommitMetadata metadata = written.get();
      String checkpoint = metadata.getMetadata(CHECKPOINT_KEY);
      if (!StringUtils.isNullOrEmpty(checkpoint) || !StringUtils.isNullOrEmpty(metadata.getMetadata(CHECKPOINT_RESET_KEY))) {
        return StoredCheckpoint.found(instant.getTimestamp(), checkpoint, looked);
      }
    }
    return StoredCheckpoint.none(looked);
  }

  /**
   * The newest of the commits {@link #newest} searches, on the active timeline the meta client holds now: while it
   * stays the same, so does the checkpoint found at it (completed commits do not change).
   */
  public static Option<HoodieInstant> newestIngestionCommit(HoodieTableMetaClient target) {
    return ingestionCommits(target).lastInstant();
  }

  /**
   * The checkpoint stored by one completed commit, such as the one a commit callback is called for.
   *
   * @throws IllegalStateException if the commit is not a completed commit of the target
   */
  public StoredCheckpoint atCommit(String targetBasePath, String commitTime) {
    return StoredCheckpoint.found(commitTime, metadataAt(targetBasePath, commitTime).getMetadata(CHECKPOINT_KEY), 1);
  }

  /**
   * The {@code --checkpoint} value a completed commit records as applied ({@code deltastreamer.checkpoint.reset_key}):
   * the Streamer ignores a {@code --checkpoint} equal to the one its decisive commit records, since it applied it.
   *
   * @return the value; empty if the commit records none
   * @throws IllegalStateException if the commit is not a completed commit of the target
   */
  public Option<String> appliedOverrideAt(String targetBasePath, String commitTime) {
    String applied = metadataAt(targetBasePath, commitTime).getMetadata(CHECKPOINT_RESET_KEY);
    return StringUtils.isNullOrEmpty(applied) ? Option.empty() : Option.of(applied);
  }

  private HoodieCommitMetadata metadataAt(String targetBasePath, String commitTime) {
    HoodieTimeline commits = completedCommits(targetBasePath);
    HoodieInstant instant = commits.filter(candidate -> candidate.getTimestamp().equals(commitTime)).firstInstant()
        .orElseThrow(() -> new IllegalStateException(String.format("Cannot read the checkpoint of commit %s of %s: it "
            + "is not a completed commit there (was the callback configured on another table?)", commitTime,
            targetBasePath)));
    return metadata(commits, instant, targetBasePath).orElseThrow(() -> new HoodieIOException(String.format(
        "Cannot read the checkpoint of commit %s of %s: its file is still being written", commitTime, targetBasePath)));
  }

  private static HoodieTimeline ingestionCommits(HoodieTableMetaClient target) {
    HoodieTimeline commits = target.getActiveTimeline().getCommitsTimeline().filterCompletedInstants();
    HoodieTimeline deltaCommits = commits.filter(instant -> instant.getAction().equals(HoodieTimeline.DELTA_COMMIT_ACTION));
    return deltaCommits.empty() ? commits : deltaCommits;
  }

  private HoodieTimeline completedCommits(String basePath) {
    return HoodieTableMetaClient.builder().setConf(hadoopConf).setBasePath(basePath).setLoadActiveTimelineOnLoad(true)
        .build().getActiveTimeline().getCommitsTimeline().filterCompletedInstants();
  }

  private boolean exists(String basePath) {
    try {
      return new Path(basePath).getFileSystem(hadoopConf).exists(new Path(basePath, HoodieTableMetaClient.METAFOLDER_NAME));
    } catch (IOException e) {
      throw new HoodieIOException("Cannot read the checkpoint stored in target " + basePath, e);
    }
  }

  private static Option<HoodieCommitMetadata> metadata(HoodieTimeline timeline, HoodieInstant instant, String basePath) {
    return CompletedInstantReader.read(timeline, instant, basePath,
        bytes -> HoodieCommitMetadata.fromBytes(bytes, HoodieCommitMetadata.class));
  }
}
