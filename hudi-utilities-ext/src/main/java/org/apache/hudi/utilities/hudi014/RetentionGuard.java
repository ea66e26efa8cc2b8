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

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.exception.HoodieReadFromSourceException;
import org.apache.hudi.utilities.hudi014.MultiTableReader.BatchTimelines;
import org.apache.hudi.utilities.sources.multi.WindowReadability;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks, before a batch reads, that each table's position is still readable after the source's cleaner and archival:
 * a position whose window the cleaner has removed fails the batch (unless the table may fall back to a full table
 * scan), and a position closer than {@code retention.warn.headroom.commits} to the earliest retained instant is
 * warned about, or fails the batch with {@code retention.fail.fast}. Either way nothing is committed. It reads each
 * table's {@link WindowReadability} of the batch, which the readers then judge archived positions by (a latest-state
 * read may fall back to a full table scan, a CDC read may not).
 *
 * <p>Yields the smallest headroom over the tables with a position and a bounded retention, in commits
 * ({@value #MIN_HEADROOM_COMMITS_METRIC}) and in time ({@value #MIN_HEADROOM_SECONDS_METRIC}): one name for any number
 * of tables, for Hudi's metrics reporters, which cannot label; the WARN names the table, and the freshness metrics
 * carry each table's headroom with a {@code source} label.
 */
public final class RetentionGuard {

  private static final Logger LOG = LoggerFactory.getLogger(RetentionGuard.class);

  public static final String MIN_HEADROOM_COMMITS_METRIC = "multi_table_retention_min_headroom_commits";
  public static final String MIN_HEADROOM_SECONDS_METRIC = "multi_table_retention_min_headroom_seconds";

  private final List<SourceTable> tables;
  private final int warnHeadroomCommits;
  private final boolean failFast;
  /** The tables whose file-versions cleaner was warned about, once per source instance (a Streamer process). */
  private final Set<String> fileVersionTablesWarned = new HashSet<>();

  public RetentionGuard(MultiTableReadConf conf) {
    this.tables = conf.tables();
    this.warnHeadroomCommits = conf.retentionWarnHeadroomCommits();
    this.failFast = conf.retentionFailFast();
  }

  /**
   * @param timelines the timelines of this batch
   * @param positions the positions the batch resumes from
   * @return the retention metrics of the batch by name; none if no table's retention bounds its position
   * @throws HoodieReadFromSourceException for the first table, in table order, whose window is cleaned away or whose
   *     headroom is too small under fail-fast
   */
  public Map<String, Long> check(BatchTimelines timelines, MultiTableCheckpoint positions) {
    Map<String, Long> metrics = new LinkedHashMap<>();
    long minHeadroomCommits = Long.MAX_VALUE;
    long minHeadroomSeconds = Long.MAX_VALUE;
    for (SourceTable table : tables) {
      Option<String> position = positions.position(table.name());
      Option<SourceTimeline> timeline = timelines.of(table.name());
      if (!position.isPresent() || !timeline.isPresent()) {
        continue;
      }
      WindowReadability window = timeline.get().retention().readability(position.get());
      checkNotCleaned(table, window);
      if (!window.headroomCommits().isPresent()) {
        continue;
      }
      int headroom = window.headroomCommits().get();
      Duration headroomTime = window.headroomTime().get();
      minHeadroomCommits = Math.min(minHeadroomCommits, headroom);
      minHeadroomSeconds = Math.min(minHeadroomSeconds, headroomTime.getSeconds());
      metrics.put(MIN_HEADROOM_COMMITS_METRIC, minHeadroomCommits);
      metrics.put(MIN_HEADROOM_SECONDS_METRIC, minHeadroomSeconds);
      if (window.keepsFileVersions() && fileVersionTablesWarned.add(table.name())) {
        LOG.warn("Table '{}': its source's cleaner keeps file versions (KEEP_LATEST_FILE_VERSIONS), which bounds no "
            + "commit: a clean may remove the files of any commit whose file group was rewritten since. Each batch "
            + "fails before any commit if its window's files are gone, but the headroom ({} commits after {}, the "
            + "newest commit whose files a clean removed) is no forecast. For an incremental pipeline clean the source "
            + "with KEEP_LATEST_COMMITS or KEEP_LATEST_BY_HOURS.", table.name(), headroom,
            window.newestRemovedCommit().get());
      }
      if (window.headroomBelow(warnHeadroomCommits)) {
        String problem = String.format("Table '%s' at %s is %d commits (%s) ahead of %s (%s; %s)", table.name(),
            position.get(), headroom, headroomTime, window.keepsFileVersions()
                ? "the newest commit whose files its source's cleaner removed" : "the earliest instant its source retains",
            window.earliestRetainedInstant().get(), window.retention());
        String fixes = window.retainMore() + "; keep hoodie.keep.min.commits above the commits a batch must "
            + "reach back; run the Streamer more often; or set " + fallbackKey(table) + "=true";
        if (failFast) {
          throw new HoodieReadFromSourceException(String.format("Cannot read table '%s': %s, below %s=%d. Nothing was "
              + "committed. To go on: %s; or set %s=false to only warn.", table.name(), problem,
              HoodieIncrMultiSourceConfig.RETENTION_WARN_HEADROOM_COMMITS.key(), warnHeadroomCommits, fixes,
              HoodieIncrMultiSourceConfig.RETENTION_FAIL_FAST.key()));
        }
        LOG.warn("{}: the next cleans may remove what its next batch reads. Fixes: {}", problem, fixes);
      }
    }
    return metrics;
  }

  private static void checkNotCleaned(SourceTable table, WindowReadability window) {
    List<String> cleaned = window.cleanedCommits();
    if (cleaned.isEmpty()) {
      return;
    }
    if (table.fullTableScanFallback()) {
      LOG.warn("Table '{}' at {}: the source's cleaner removed files of commits {}; its window is read with a full "
          + "table scan ({}=true)", table.name(), window.fromExclusive(), cleaned, fallbackKey(table));
      return;
    }
    throw new HoodieReadFromSourceException(String.format("Cannot read table '%s' incrementally after %s: the "
        + "source's cleaner has removed files written by commits %s, which that window reads (%s). Nothing was "
        + "committed. Set %s=true to read the window with a full table scan (rows overwritten since are read in "
        + "their newest version only), or skip to now with --checkpoint '%s=LATEST' (re-reading all with EARLIEST reads "
        + "the cleaned commits too, and needs the fallback as well); then %s or run the Streamer more often.",
        table.name(), window.fromExclusive(), cleaned, window.cleanerKeeps(), fallbackKey(table), table.name(),
        window.retainMore()));
  }

  private static String fallbackKey(SourceTable table) {
    return HoodieIncrMultiSourceConfig.forTable(HoodieIncrMultiSourceConfig.TABLE_FULL_TABLE_SCAN_FALLBACK,
        table.name()).key();
  }
}
