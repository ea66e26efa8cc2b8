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

import org.apache.hudi.avro.model.HoodieCleanMetadata;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.timeline.TimelineMetadataUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.StringUtils;
import org.apache.hudi.exception.HoodieIOException;
import org.apache.hudi.utilities.hudi014.MultiTableReader.BatchTimelines;

import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a source table's cleaner and archival still retain, on Hudi 0.14, and how far a position is from losing it.
 *
 * <p>An incremental read after a position reads the files written by the commits after it. The cleaner
 * (KEEP_LATEST_COMMITS or KEEP_LATEST_BY_HOURS) keeps every file slice written at or after its <em>earliest commit to
 * retain</em>, recorded in each clean's metadata; files of older commits go once newer versions exist. Archival
 * removes commits from the active timeline. The earliest retained instant here is the later of the two bounds. A
 * position keeps its window readable while the first commit after it is at or after that instant: its <em>headroom</em>
 * is the number of completed commits from the earliest retained instant up to the position (0: the next clean that
 * moves its bound by one commit may remove the window's files).
 *
 * <p>Computed from the table's {@link SourceTimeline} of the batch; reads the newest clean's metadata (one file) and,
 * only for a position behind the cleaner's bound, checks whether the files its window needs still exist.
 */
public final class SourceRetention {

  private final SourceTimeline timeline;
  private final Option<String> cleanerBound;
  private final Option<String> archiveBound;

  private SourceRetention(SourceTimeline timeline, Option<String> cleanerBound, Option<String> archiveBound) {
    this.timeline = timeline;
    this.cleanerBound = cleanerBound;
    this.archiveBound = archiveBound;
  }

  /**
   * The retention of one table of a batch, from the timeline the batch loaded.
   *
   * @return the retention; empty if the table's path holds no Hudi table
   * @throws HoodieIOException as {@link #of(SourceTimeline)}
   */
  public static Option<SourceRetention> of(BatchTimelines timelines, String table) {
    return timelines.of(table).map(SourceRetention::of);
  }

  /**
   * @throws HoodieIOException if the newest clean's metadata or the archive folder cannot be read
   */
  public static SourceRetention of(SourceTimeline timeline) {
    HoodieTableMetaClient metaClient = timeline.metaClient();
    HoodieTimeline cleans = metaClient.getActiveTimeline().getCleanerTimeline().filterCompletedInstants();
    Option<String> cleanerBound = cleans.lastInstant().flatMap(clean -> earliestCommitToRetain(cleans, clean, metaClient));
    return new SourceRetention(timeline, cleanerBound, archivedBefore(timeline, timeline.firstCompletedInstant()));
  }

  /** The cleaner's earliest commit to retain, from its newest clean; empty if it never cleaned or keeps file versions. */
  public Option<String> cleanerBound() {
    return cleanerBound;
  }

  /** The first instant of the active timeline, if older commits are archived; empty if nothing is archived. */
  public Option<String> archiveBound() {
    return archiveBound;
  }

  /** The later of {@link #cleanerBound()} and {@link #archiveBound()}; empty if neither bounds the table yet. */
  public Option<String> earliestRetainedInstant() {
    if (!cleanerBound.isPresent()) {
      return archiveBound;
    }
    if (!archiveBound.isPresent()) {
      return cleanerBound;
    }
    return Option.of(HoodieTimeline.compareTimestamps(cleanerBound.get(), HoodieTimeline.GREATER_THAN, archiveBound.get())
        ? cleanerBound.get() : archiveBound.get());
  }

  /** Completed commits at or after the earliest retained instant; all completed commits if nothing bounds the table. */
  public int commitsRetained() {
    HoodieTimeline completed = timeline.completedCommits();
    return earliestRetainedInstant().map(bound -> completed.findInstantsAfterOrEquals(bound, Integer.MAX_VALUE)
        .countInstants()).orElse(completed.countInstants());
  }

  /**
   * Completed commits from the earliest retained instant up to the position, both inclusive: how many more commits
   * the bound may move before the window after the position is exposed; empty if nothing bounds the table yet.
   */
  public Option<Integer> headroomCommits(String position) {
    return earliestRetainedInstant().map(bound -> timeline.completedCommits()
        .findInstantsInClosedRange(bound, position).countInstants());
  }

  /** The time between the earliest retained instant and the position (negative once passed); empty if unbounded. */
  public Option<Duration> headroomTime(String position) {
    return earliestRetainedInstant().map(bound -> Duration.between(timeline.timeOf(bound), timeline.timeOf(position)));
  }

  /**
   * Whether the table's state as of the position can still be read with time travel: the position is on the active
   * timeline, and no commit lies between it and the cleaner's bound. The cleaner keeps each file group's last version
   * before its bound, which is the version as of the position only if nothing was committed in between.
   */
  public boolean keepsStateAt(String position) {
    if (timeline.isBehindArchive(position)) {
      return false;
    }
    return !cleanerBound.isPresent() || timeline.completedCommits().findInstantsAfter(position, Integer.MAX_VALUE)
        .findInstantsBefore(cleanerBound.get()).empty();
  }

  /**
   * The completed commits after the position and before the cleaner's bound that wrote a file the cleaner has
   * removed: the incremental read of the window after the position would fail on them, or (MERGE_ON_READ) miss rows.
   * Checks file existence only for commits behind the bound, so a position within the bound costs nothing.
   *
   * @return those commits, oldest first; empty if every file the window needs is there
   * @throws HoodieIOException if a commit's metadata or a file's status cannot be read
   */
  public List<String> commitsWithCleanedFiles(String position) {
    List<String> cleaned = new ArrayList<>();
    if (!cleanerBound.isPresent()) {
      return cleaned;
    }
    HoodieTimeline exposed = timeline.completedCommits().findInstantsAfter(position, Integer.MAX_VALUE)
        .findInstantsBefore(cleanerBound.get());
    for (HoodieInstant instant : exposed.getInstants()) {
      if (anyFileMissing(instant)) {
        cleaned.add(instant.getTimestamp());
      }
    }
    return cleaned;
  }

  private boolean anyFileMissing(HoodieInstant instant) {
    HoodieTableMetaClient metaClient = timeline.metaClient();
    try {
      for (HoodieWriteStat stat : timeline.commitMetadata(instant).getWriteStats()) {
        if (!StringUtils.isNullOrEmpty(stat.getPath())
            && !metaClient.getFs().exists(new Path(metaClient.getBasePathV2(), stat.getPath()))) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new HoodieIOException(String.format("Cannot check the files of commit %s of %s", instant,
          metaClient.getBasePath()), e);
    }
  }

  private static Option<String> earliestCommitToRetain(HoodieTimeline cleans, HoodieInstant clean,
                                                       HoodieTableMetaClient metaClient) {
    try {
      HoodieCleanMetadata metadata = TimelineMetadataUtils.deserializeHoodieCleanMetadata(
          cleans.getInstantDetails(clean).get());
      String earliest = metadata.getEarliestCommitToRetain();
      return StringUtils.isNullOrEmpty(earliest) ? Option.empty() : Option.of(earliest);
    } catch (IOException e) {
      throw new HoodieIOException(String.format("Cannot read clean %s of %s", clean, metaClient.getBasePath()), e);
    }
  }

  private static Option<String> archivedBefore(SourceTimeline timeline, Option<String> firstActive) {
    return firstActive.isPresent() && timeline.isBehindArchive(previousInstant(firstActive.get()))
        ? firstActive : Option.empty();
  }

  /** An instant time just before the given one, so that the archive check asks about the commits before it. */
  private static String previousInstant(String instant) {
    return String.valueOf(Long.parseLong(instant) - 1);
  }

  @Override
  public String toString() {
    return "SourceRetention{" + timeline.metaClient().getBasePath() + ", cleaner bound " + cleanerBound.orElse("<none>")
        + ", archive bound " + archiveBound.orElse("<none>") + "}";
  }
}
