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
import org.apache.hudi.avro.model.HoodieCleanPartitionMetadata;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.timeline.TimelineMetadataUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.StringUtils;
import org.apache.hudi.exception.HoodieIOException;
import org.apache.hudi.util.Lazy;
import org.apache.hudi.utilities.sources.multi.WindowReadability;

import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
 * <p>A KEEP_LATEST_FILE_VERSIONS cleaner records no such bound: it removes a file once its file group has the retained
 * number of newer versions, whatever commit wrote it. Its bound here is what it has <em>already</em> removed: the
 * newest commit that wrote a file some clean on the active timeline deleted (a deleted base file names the commit that
 * wrote it; a deleted log file names only its file slice, so the clean's last completed commit stands for its
 * writer). Every commit after that bound still has all its files; the headroom counts them up to the position. It is
 * no forecast: the next clean may remove files of any commit whose file group was rewritten since.
 *
 * <p>Read once per batch from the table's {@link SourceTimeline} ({@link SourceTimeline#retention()}): the newest
 * clean's metadata (one file); under KEEP_LATEST_FILE_VERSIONS also the older cleans newer than the newest removed
 * commit (typically one or two more). It gives the one {@link WindowReadability verdict} on a position's window
 * ({@link #readability}), which the retention guard, the readers and the checkpoint tool share: only for a position
 * behind the cleaner's bound does it check whether the files its window needs still exist, once per batch.
 */
public final class SourceRetention {

  private final SourceTimeline timeline;
  private final Option<String> cleanerBound;
  private final Option<String> newestRemovedCommit;
  /** The first active instant if older commits are archived: the archive folder is listed only if this is needed. */
  private final Lazy<Option<String>> archiveBound;
  /** The verdicts computed so far, by position. */
  private final Map<String, WindowReadability> verdicts = new ConcurrentHashMap<>();

  private SourceRetention(SourceTimeline timeline, Option<String> cleanerBound, Option<String> newestRemovedCommit) {
    this.timeline = timeline;
    this.cleanerBound = cleanerBound;
    this.newestRemovedCommit = newestRemovedCommit;
    this.archiveBound = Lazy.lazily(() -> archivedBefore(timeline, timeline.firstCompletedInstant()));
  }

  /**
   * Reads the retention of a table from its timeline: the newest clean's metadata, and under KEEP_LATEST_FILE_VERSIONS
   * the older cleans it needs. Read through {@link SourceTimeline#retention()}, once per batch.
   *
   * @throws HoodieIOException if a clean's metadata or the archive folder cannot be read
   */
  static SourceRetention read(SourceTimeline timeline) {
    HoodieTableMetaClient metaClient = timeline.metaClient();
    HoodieTimeline cleans = metaClient.getActiveTimeline().getCleanerTimeline().filterCompletedInstants();
    Option<String> cleanerBound = Option.empty();
    Option<String> newestRemovedCommit = Option.empty();
    // A clean whose file its cleaner is still writing is taken as not yet completed, as it was a moment before.
    Iterator<HoodieInstant> newestFirst = cleans.getReverseOrderedInstants().iterator();
    while (newestFirst.hasNext()) {
      HoodieInstant clean = newestFirst.next();
      Option<HoodieCleanMetadata> newestClean = cleanMetadata(cleans, clean, metaClient);
      if (!newestClean.isPresent()) {
        continue;
      }
      if (StringUtils.isNullOrEmpty(newestClean.get().getEarliestCommitToRetain())) {
        newestRemovedCommit = newestRemovedCommit(cleans.findInstantsBeforeOrEquals(clean.getTimestamp()),
            newestClean.get(), metaClient);
      } else {
        cleanerBound = Option.of(newestClean.get().getEarliestCommitToRetain());
      }
      break;
    }
    return new SourceRetention(timeline, cleanerBound, newestRemovedCommit);
  }

  /**
   * The verdict on the window after a position: archived or not, the commits whose files the cleaner removed, the
   * headroom. Computed once per position (this value lives for one batch), so that the guard, the readers and the
   * checkpoint tool share one computation: no clean metadata or file status is read again.
   *
   * @param fromExclusive the position; the window holds the commits after it
   * @throws HoodieIOException if a commit's metadata, a file's status or the archive folder cannot be read
   */
  public WindowReadability readability(String fromExclusive) {
    return verdicts.computeIfAbsent(fromExclusive, this::computeReadability);
  }

  private WindowReadability computeReadability(String position) {
    WindowReadability.Builder verdict = WindowReadability.after(position)
        .activeTimeline(timeline.firstCompletedInstant(), timeline.isBehindArchive(position))
        .cleanedCommits(commitsWithCleanedFiles(position))
        .cleaner(cleanerBound, newestRemovedCommit)
        .retained(retainedCommits().countInstants(), toString());
    Option<String> bound = earliestRetainedInstant();
    if (bound.isPresent()) {
      verdict.headroom(bound.get(), retainedCommits().findInstantsBeforeOrEquals(position).countInstants(),
          Duration.between(timeline.timeOf(bound.get()), timeline.timeOf(position)));
    }
    return verdict.build();
  }

  /**
   * The later of the cleaner's bound and the archive bound (the first instant of the active timeline, if older
   * commits are archived); empty if neither bounds the table yet. The cleaner's bound is its earliest commit to retain
   * (itself retained) or, under KEEP_LATEST_FILE_VERSIONS, the newest commit whose files it removed (itself not
   * retained: the commits after it are).
   */
  private Option<String> earliestRetainedInstant() {
    Option<String> cleaner = cleanerBound.isPresent() ? cleanerBound : newestRemovedCommit;
    Option<String> firstActive = timeline.firstCompletedInstant();
    // The archive bound is at most the first active instant: a cleaner's bound at or after it decides alone.
    if (cleaner.isPresent() && (!firstActive.isPresent()
        || HoodieTimeline.compareTimestamps(cleaner.get(), HoodieTimeline.GREATER_THAN_OR_EQUALS, firstActive.get()))) {
      return cleaner;
    }
    Option<String> archived = archiveBound.get();
    if (!cleaner.isPresent()) {
      return archived;
    }
    if (!archived.isPresent()) {
      return cleaner;
    }
    return Option.of(HoodieTimeline.compareTimestamps(cleaner.get(), HoodieTimeline.GREATER_THAN, archived.get())
        ? cleaner.get() : archived.get());
  }

  /**
   * The completed commits after the position and behind the cleaner's bound (before the earliest commit to retain,
   * or at or before the newest removed commit) that wrote a file the cleaner has removed: the incremental read of the
   * window after the position would fail on them, or (MERGE_ON_READ) miss rows. Checks file existence only for
   * commits behind the bound, so a position within the bound costs nothing.
   *
   * @return those commits, oldest first; empty if every file the window needs is there
   * @throws HoodieIOException if a commit's metadata or a file's status cannot be read
   */
  private List<String> commitsWithCleanedFiles(String position) {
    List<String> cleaned = new ArrayList<>();
    HoodieTimeline after = timeline.completedCommits().findInstantsAfter(position, Integer.MAX_VALUE);
    HoodieTimeline exposed;
    if (cleanerBound.isPresent()) {
      exposed = after.findInstantsBefore(cleanerBound.get());
    } else if (newestRemovedCommit.isPresent()) {
      exposed = after.findInstantsBeforeOrEquals(newestRemovedCommit.get());
    } else {
      return cleaned;
    }
    for (HoodieInstant instant : exposed.getInstants()) {
      if (anyFileMissing(instant)) {
        cleaned.add(instant.getTimestamp());
      }
    }
    return cleaned;
  }

  private HoodieTimeline retainedCommits() {
    HoodieTimeline completed = timeline.completedCommits();
    if (cleanerBound.isPresent() || !newestRemovedCommit.isPresent()) {
      return earliestRetainedInstant().map(bound -> completed.findInstantsAfterOrEquals(bound, Integer.MAX_VALUE))
          .orElse(completed);
    }
    // The active timeline starts at the archive bound, so only the cleaner's (exclusive) bound filters.
    return completed.findInstantsAfter(newestRemovedCommit.get(), Integer.MAX_VALUE);
  }

  private boolean anyFileMissing(HoodieInstant instant) {
    HoodieTableMetaClient metaClient = timeline.metaClient();
    // A commit whose file is still being written is cut from any window this batch reads.
    Option<HoodieCommitMetadata> written = timeline.writtenCommitMetadata(instant);
    if (!written.isPresent()) {
      return false;
    }
    try {
      for (HoodieWriteStat stat : written.get().getWriteStats()) {
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

  /**
   * The newest commit that wrote a file one of the cleans removed. Reads the cleans newest first (the newest is read
   * already) and stops at the first clean no newer than the newest removed commit found so far: a clean removes files
   * of commits before it only.
   */
  private static Option<String> newestRemovedCommit(HoodieTimeline cleans, HoodieCleanMetadata newestClean,
                                                   HoodieTableMetaClient metaClient) {
    String newest = null;
    Iterator<HoodieInstant> newestFirst = cleans.getReverseOrderedInstants().iterator();
    while (newestFirst.hasNext()) {
      HoodieInstant clean = newestFirst.next();
      if (newest != null && HoodieTimeline.compareTimestamps(clean.getTimestamp(), HoodieTimeline.LESSER_THAN_OR_EQUALS,
          newest)) {
        break;
      }
      Option<HoodieCleanMetadata> read = clean.equals(cleans.lastInstant().get())
          ? Option.of(newestClean) : cleanMetadata(cleans, clean, metaClient);
      if (!read.isPresent()) {
        continue;
      }
      HoodieCleanMetadata metadata = read.get();
      for (HoodieCleanPartitionMetadata partition : metadata.getPartitionMetadata().values()) {
        for (String file : partition.getDeletePathPatterns()) {
          String writer = FSUtils.isLogFile(file) ? logWriterBound(metadata, clean) : FSUtils.getCommitTime(file);
          if (newest == null || HoodieTimeline.compareTimestamps(writer, HoodieTimeline.GREATER_THAN, newest)) {
            newest = writer;
          }
        }
      }
    }
    return Option.ofNullable(newest);
  }

  /**
   * A log file names its file slice's base instant, not the delta commit that wrote it; that commit came no later than
   * the clean's last completed commit (or, where an old clean does not record it, the clean itself).
   */
  private static String logWriterBound(HoodieCleanMetadata metadata, HoodieInstant clean) {
    String lastCompleted = metadata.getLastCompletedCommitTimestamp();
    return StringUtils.isNullOrEmpty(lastCompleted) ? clean.getTimestamp() : lastCompleted;
  }

  /** A clean's metadata; empty if its file is still being written. */
  private static Option<HoodieCleanMetadata> cleanMetadata(HoodieTimeline cleans, HoodieInstant clean,
                                                           HoodieTableMetaClient metaClient) {
    return CompletedInstantReader.read(cleans, clean, metaClient.getBasePath(),
        TimelineMetadataUtils::deserializeHoodieCleanMetadata);
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
        + (newestRemovedCommit.isPresent() ? ", file versions removed up to " + newestRemovedCommit.get() : "")
        + ", active timeline from " + timeline.firstCompletedInstant().orElse("<none>") + "}";
  }
}
