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
import org.apache.hudi.common.model.HoodieReplaceCommitMetadata;
import org.apache.hudi.common.model.HoodieTimelineTimeZone;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.timeline.TimelineMetadataUtils;
import org.apache.hudi.common.table.timeline.TimelineUtils;
import org.apache.hudi.common.table.timeline.TimelineUtils.HollowCommitHandling;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.exception.HoodieIOException;
import org.apache.hudi.exception.TableNotFoundException;
import org.apache.hudi.utilities.sources.multi.WrittenData;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.text.ParseException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * One source table's timeline as loaded once for one batch, on Hudi 0.14: its meta client, its completed commits
 * (commits, delta commits, compactions: what {@code HoodieIncrSource} reads), the zone of its instant times, and the
 * conversion of its instant and completion times into points in time.
 *
 * <p>The one place that loads a source table's timeline for this plugin: window planning, the verdict on a window's
 * readability ({@link #retention()}), the latest-instant lookup, the caught-up check and the freshness probe all read
 * this value instead of listing the table again. A later batch {@link #reload reloads} it: one listing of the timeline, not a new meta client.
 */
public final class SourceTimeline {

  private static final Logger LOG = LoggerFactory.getLogger(SourceTimeline.class);

  private final HoodieTableMetaClient metaClient;
  private final HoodieTimeline completed;
  private final ZoneId zone;
  /** Set once older commits were seen archived; archival never brings them back, so a reload keeps it. */
  private volatile boolean archivedSeen;
  /**
   * The completed instants of the active timeline when the archive folder was last found empty, or null: while every
   * one of them is still active, nothing has been archived since (archival is what moves completed instants out of the
   * active timeline), so a reload keeps it and the folder is not listed again.
   */
  private volatile Set<HoodieInstant> activeWhenNothingArchived;
  /** The commit metadata read in this batch, by commit; empty for a commit whose file was still being written. */
  private final Map<HoodieInstant, Option<HoodieCommitMetadata>> commitMetadata = new ConcurrentHashMap<>();
  /** What the cleaner and archival retain, read on first use: once per batch. */
  private SourceRetention retention;

  private SourceTimeline(HoodieTableMetaClient metaClient, boolean archivedSeen,
                         Set<HoodieInstant> activeWhenNothingArchived) {
    this.metaClient = metaClient;
    this.archivedSeen = archivedSeen;
    this.activeWhenNothingArchived = activeWhenNothingArchived;
    this.completed = metaClient.getCommitsAndCompactionTimeline().filterCompletedInstants();
    this.zone = metaClient.getTableConfig().getTimelineTimezone() == HoodieTimelineTimeZone.UTC
        ? ZoneOffset.UTC : ZoneId.systemDefault();
  }

  /**
   * Lists the table's timeline once.
   *
   * @return the timeline; empty if the path holds no Hudi table
   */
  public static Option<SourceTimeline> load(String basePath, Configuration hadoopConf) {
    try {
      return Option.of(new SourceTimeline(HoodieTableMetaClient.builder().setConf(hadoopConf).setBasePath(basePath)
          .setLoadActiveTimelineOnLoad(true).build(), false, null));
    } catch (TableNotFoundException e) {
      return Option.empty();
    }
  }

  /**
   * Lists the table's timeline again, for a later batch, with this value's meta client: the table check on
   * {@code .hoodie} and {@code hoodie.properties} are not read again (on S3: one LIST instead of five requests). The
   * table's type and timeline zone are taken as unchanged while a source reads it. A timeline that
   * cannot be listed or lists nothing (the table was removed) is loaded afresh, so a missing table is reported as
   * {@link #load} reports it.
   *
   * <p>This value must not be read afterwards: it shares the meta client, whose active timeline the reload replaces.
   *
   * @return the timeline now; empty if the path holds no Hudi table any more
   */
  public Option<SourceTimeline> reload() {
    try {
      if (!metaClient.reloadActiveTimeline().empty()) {
        return Option.of(new SourceTimeline(metaClient, archivedSeen, activeWhenNothingArchived));
      }
    } catch (HoodieIOException e) {
      LOG.info("Cannot list the timeline of {} again ({}); loading the table afresh", metaClient.getBasePathV2(),
          e.getMessage());
    }
    return load(metaClient.getBasePathV2().toString(), metaClient.getHadoopConf());
  }

  public HoodieTableMetaClient metaClient() {
    return metaClient;
  }

  /** The completed commits, delta commits and compactions of the active timeline. */
  public HoodieTimeline completedCommits() {
    return completed;
  }

  /** The completed commits an incremental read may pass, under a hollow-commit policy (BLOCK stops at a hole). */
  public HoodieTimeline readableCommits(HollowCommitHandling hollowCommits) {
    return TimelineUtils.handleHollowCommitIfNeeded(completed, metaClient, hollowCommits);
  }

  /** The newest completed instant; empty if the table has none. */
  public Option<String> latestCompletedInstant() {
    return completed.lastInstant().map(HoodieInstant::getTimestamp);
  }

  /**
   * Whether a position lies before the active timeline while older commits are archived: an incremental read from
   * it would skip the archived ones. Read it from the window's verdict ({@link SourceRetention#readability}).
   */
  boolean isBehindArchive(String position) {
    return completed.isBeforeTimelineStarts(position) && hasArchivedInstants();
  }

  /**
   * What the table's cleaner and archival retain, and the verdict on a position's window
   * ({@link SourceRetention#readability}): read on first use and kept for this batch, so that the retention guard,
   * the readers and the checkpoint tool read a table's clean metadata once per batch.
   *
   * @throws HoodieIOException if a clean's metadata or the archive folder cannot be read
   */
  public synchronized SourceRetention retention() {
    if (retention == null) {
      retention = SourceRetention.read(this);
    }
    return retention;
  }

  /**
   * The metadata of one of the completed commits: a {@link HoodieReplaceCommitMetadata} for a replace commit. Read once
   * per batch ({@link CompletedInstantReader}), so that every reader of the batch takes the same view of a commit whose
   * file its writer is still writing.
   *
   * @return the metadata; empty if the commit's file is still being written: the commit is taken as not yet completed
   *     for this batch
   * @throws HoodieIOException if it cannot be read at all
   */
  public Option<HoodieCommitMetadata> writtenCommitMetadata(HoodieInstant commit) {
    return commitMetadata.computeIfAbsent(commit, instant -> CompletedInstantReader.read(completed, instant,
        metaClient.getBasePath(), bytes -> HoodieTimeline.REPLACE_COMMIT_ACTION.equals(instant.getAction())
            ? HoodieReplaceCommitMetadata.fromBytes(bytes, HoodieReplaceCommitMetadata.class)
            : HoodieCommitMetadata.fromBytes(bytes, HoodieCommitMetadata.class)));
  }

  /**
   * The metadata of a completed commit that the batch must read, such as one of a window already cut by
   * {@link #writtenPrefix}.
   *
   * @throws HoodieIOException if it cannot be read, or its file is still being written
   */
  public HoodieCommitMetadata commitMetadata(HoodieInstant commit) {
    return writtenCommitMetadata(commit).orElseThrow(() -> new HoodieIOException(String.format("Cannot read the "
        + "metadata of commit %s of %s: its file is still being written. Nothing was committed; the next batch reads "
        + "it.", commit, metaClient.getBasePath())));
  }

  /**
   * How many of a window's commits, oldest first, precede the first whose file is still being written: the window a
   * batch may read ends before that commit, which a later batch reads.
   */
  public int writtenPrefix(List<HoodieInstant> window) {
    for (int i = 0; i < window.size(); i++) {
      if (!writtenCommitMetadata(window.get(i)).isPresent()) {
        LOG.warn("Table {}: the window after {} ends before commit {}, whose file is still being written",
            metaClient.getBasePath(), i == 0 ? "its position" : window.get(i - 1).getTimestamp(), window.get(i));
        return i;
      }
    }
    return window.size();
  }

  /**
   * What some of the completed commits wrote, from their commit metadata; instants not among the completed commits
   * count nothing.
   *
   * @throws HoodieIOException if a commit's metadata cannot be read
   */
  public WrittenData writtenBy(Collection<String> instants) {
    return writtenIn(completed.getInstants().stream().filter(instant -> instants.contains(instant.getTimestamp()))
        .map(this::commitMetadata).collect(Collectors.toList()));
  }

  /** What commits wrote, from their metadata already read. */
  public static WrittenData writtenIn(Collection<HoodieCommitMetadata> commits) {
    WrittenData written = WrittenData.NONE;
    for (HoodieCommitMetadata metadata : commits) {
      for (HoodieWriteStat stat : metadata.getWriteStats()) {
        written = written.plus(new WrittenData(1, stat.getTotalWriteBytes(),
            stat.getNumInserts() + stat.getNumUpdateWrites() + stat.getNumDeletes()));
      }
    }
    return written;
  }

  /** The completed commits' instants after a position, oldest first. */
  public List<String> completedInstantsAfter(String position) {
    return completed.findInstantsAfter(position, Integer.MAX_VALUE).getInstantsAsStream().map(HoodieInstant::getTimestamp)
        .collect(Collectors.toList());
  }

  /**
   * The commits that restores completed in a range of instant times took back, by restore instant: a restore removes
   * commits that were completed, and their records with them, without a commit that counts them as deletes.
   *
   * @throws HoodieIOException if a restore's metadata cannot be read, or its file is still being written
   */
  public Map<String, List<String>> commitsRestoredIn(String after, String upTo) {
    HoodieTimeline restores = metaClient.getActiveTimeline().getRestoreTimeline().filterCompletedInstants()
        .findInstantsInRange(after, upTo);
    Map<String, List<String>> restored = new LinkedHashMap<>();
    for (HoodieInstant restore : restores.getInstants()) {
      restored.put(restore.getTimestamp(), CompletedInstantReader.read(restores, restore, metaClient.getBasePath(),
          bytes -> TimelineMetadataUtils.deserializeHoodieRestoreMetadata(bytes).getInstantsToRollback())
          .orElseThrow(() -> new HoodieIOException(String.format("Cannot read restore %s of %s: its file is still being "
              + "written. Nothing was committed; the next batch reads it.", restore, metaClient.getBasePath()))));
    }
    return restored;
  }

  /** The first completed instant of the active timeline; empty if there is none. */
  public Option<String> firstCompletedInstant() {
    return completed.firstInstant().map(HoodieInstant::getTimestamp);
  }

  /** The zone the table writes its instant times in ({@code hoodie.table.timeline.timezone}). */
  public ZoneId zone() {
    return zone;
  }

  /**
   * The point in time an instant time of this table stands for.
   *
   * @throws IllegalArgumentException if {@code instantTime} is not an instant time
   */
  public Instant timeOf(String instantTime) {
    return timeOf(instantTime, zone);
  }

  /** The point in time an instant time written in {@code zone} stands for. */
  static Instant timeOf(String instantTime, ZoneId zone) {
    // Hudi 0.14 parses every instant time in the JVM's zone; re-read its wall-clock time in the table's zone.
    return LocalDateTime.ofInstant(parseInJvmZone(instantTime), ZoneId.systemDefault()).atZone(zone).toInstant();
  }

  /**
   * When an instant completed: its completion time, which Hudi 0.14 keeps as the completed instant file's
   * modification time, formatted in the JVM's zone whatever the table's timeline zone.
   *
   * @return the time; empty if the instant carries none (archived form, or a file system that keeps no times)
   */
  public static Option<Instant> completionTimeOf(HoodieInstant instant) {
    String completionTime = instant.getStateTransitionTime();
    return completionTime == null || completionTime.isEmpty() ? Option.empty() : Option.of(parseInJvmZone(completionTime));
  }

  private static Instant parseInJvmZone(String time) {
    try {
      return HoodieActiveTimeline.parseDateFromInstantTime(time).toInstant();
    } catch (ParseException e) {
      throw new IllegalArgumentException(String.format("Cannot read '%s' as an instant time", time), e);
    }
  }

  /**
   * Lists the archive folder (on S3 a HEAD and two LISTs) only until something is archived, and only when a completed
   * instant left the active timeline since the folder was last found empty: once for a source's first batch, then
   * after an archival or a rollback of a completed instant.
   */
  private boolean hasArchivedInstants() {
    if (archivedSeen) {
      return true;
    }
    Set<HoodieInstant> active = metaClient.getActiveTimeline().filterCompletedInstants().getInstantsAsStream()
        .collect(Collectors.toSet());
    if (activeWhenNothingArchived != null && active.containsAll(activeWhenNothingArchived)) {
      return false;
    }
    try {
      archivedSeen = metaClient.getFs().listStatus(new Path(metaClient.getArchivePath())).length > 0;
    } catch (FileNotFoundException e) {
      archivedSeen = false;
    } catch (IOException e) {
      throw new HoodieIOException("Cannot list the archived timeline of " + metaClient.getBasePath(), e);
    }
    activeWhenNothingArchived = archivedSeen ? null : active;
    return archivedSeen;
  }

  @Override
  public String toString() {
    return "SourceTimeline{" + metaClient.getBasePath() + ", " + completed.countInstants() + " completed commits, zone "
        + zone + "}";
  }
}
