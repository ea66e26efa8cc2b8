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

import org.apache.hudi.common.util.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The verdict on one table's window after a position, {@code (fromExclusive, ...]}: whether an incremental read of it
 * still reads every commit in it after the source's archival and cleaner, and how far the position is from losing
 * that. Computed once per batch and position where the table's timeline is read; the readers, the retention guard and
 * the checkpoint tool read this value instead of asking the timeline again.
 *
 * <ul>
 *   <li>{@link #archived()}: the position lies before the table's active timeline while older commits are archived;
 *       an incremental read would skip the archived ones.</li>
 *   <li>{@link #cleanedCommits()}: the commits in the window that wrote a file the source's cleaner has removed; an
 *       incremental read would fail on them, or (MERGE_ON_READ) miss rows.</li>
 *   <li>The headroom: {@link #headroomCommits()} and {@link #headroomTime()} between the
 *       {@link #earliestRetainedInstant()} and the position; all three empty while neither cleaner nor archival bounds
 *       the table.</li>
 * </ul>
 *
 * <p>What a table does with the verdict is the reader's rule: a latest-state read of an archived or cleaned window
 * may fall back to a full table scan when the table's settings allow it; a CDC read may not.
 */
public final class WindowReadability {

  private final String fromExclusive;
  private final Option<String> activeTimelineStart;
  private final boolean archived;
  private final List<String> cleanedCommits;
  private final Option<String> cleanerBound;
  private final Option<String> newestRemovedCommit;
  private final Option<String> earliestRetainedInstant;
  private final Option<Integer> headroomCommits;
  private final Option<Duration> headroomTime;
  private final int commitsRetained;
  private final String retention;

  private WindowReadability(Builder builder) {
    this.fromExclusive = builder.fromExclusive;
    this.activeTimelineStart = builder.activeTimelineStart;
    this.archived = builder.archived;
    this.cleanedCommits = Collections.unmodifiableList(new ArrayList<>(builder.cleanedCommits));
    this.cleanerBound = builder.cleanerBound;
    this.newestRemovedCommit = builder.newestRemovedCommit;
    this.earliestRetainedInstant = builder.earliestRetainedInstant;
    this.headroomCommits = builder.headroomCommits;
    this.headroomTime = builder.headroomTime;
    this.commitsRetained = builder.commitsRetained;
    this.retention = builder.retention;
  }

  /**
   * Starts the verdict on the window after a position: by default readable (not archived, nothing cleaned) and
   * unbounded (no headroom), with a cleaner that removed nothing.
   *
   * @param fromExclusive the position: the window holds the commits after it
   */
  public static Builder after(String fromExclusive) {
    return new Builder(fromExclusive);
  }

  /** The position; the window holds the commits after it. */
  public String fromExclusive() {
    return fromExclusive;
  }

  /** The first completed instant of the table's active timeline; empty if it has none. */
  public Option<String> activeTimelineStart() {
    return activeTimelineStart;
  }

  /** Whether the position lies before the active timeline while older commits are archived. */
  public boolean archived() {
    return archived;
  }

  /** The commits in the window with a file the source's cleaner removed, oldest first; empty if none. */
  public List<String> cleanedCommits() {
    return cleanedCommits;
  }

  /** Whether an incremental read of the window reads every commit in it: not archived, no file cleaned. */
  public boolean readableIncrementally() {
    return !archived && cleanedCommits.isEmpty();
  }

  /**
   * The later of the cleaner's bound and the archive's; empty if neither bounds the table yet. Under
   * KEEP_LATEST_FILE_VERSIONS the cleaner's bound is {@link #newestRemovedCommit()}, itself not retained.
   */
  public Option<String> earliestRetainedInstant() {
    return earliestRetainedInstant;
  }

  /**
   * Completed commits from the {@link #earliestRetainedInstant()} up to the position, inclusive: how many more commits
   * the bound may move before the window is exposed (0: the next clean may remove its files); empty if unbounded.
   * Under KEEP_LATEST_FILE_VERSIONS no forecast.
   */
  public Option<Integer> headroomCommits() {
    return headroomCommits;
  }

  /** The time from the {@link #earliestRetainedInstant()} to the position, negative once passed; empty if unbounded. */
  public Option<Duration> headroomTime() {
    return headroomTime;
  }

  /** Whether the headroom is bounded and below {@code commits}. */
  public boolean headroomBelow(int commits) {
    return headroomCommits.isPresent() && headroomCommits.get() < commits;
  }

  /** Completed commits at or after the earliest retained instant; all completed commits if unbounded. */
  public int commitsRetained() {
    return commitsRetained;
  }

  /**
   * Under KEEP_LATEST_FILE_VERSIONS: the newest commit that wrote a file a clean on the active timeline removed; empty
   * under the other policies, or if the cleans removed nothing.
   */
  public Option<String> newestRemovedCommit() {
    return newestRemovedCommit;
  }

  /** Whether the cleaner keeps file versions: its bound is what it removed so far, not what it will keep. */
  public boolean keepsFileVersions() {
    return newestRemovedCommit.isPresent();
  }

  /** What the cleaner keeps, for messages: "it keeps the files of commits from X on", or what it removed so far. */
  public String cleanerKeeps() {
    if (cleanerBound.isPresent()) {
      return "it keeps the files of commits from " + cleanerBound.get() + " on";
    }
    return newestRemovedCommit.map(removed -> "it keeps file versions (KEEP_LATEST_FILE_VERSIONS) and has removed files "
        + "written by commits up to " + removed + "; its next clean may remove older versions of any file")
        .orElse("it has removed nothing");
  }

  /** The source-side fix for the table's cleaner policy, for messages. */
  public String retainMore() {
    return keepsFileVersions()
        ? "keep more file versions on the source (hoodie.cleaner.fileversions.retained) or clean it with "
            + "KEEP_LATEST_COMMITS (hoodie.cleaner.policy)"
        : "retain more commits on the source (hoodie.cleaner.commits.retained)";
  }

  /** The source's retention as messages show it: its table and bounds. */
  public String retention() {
    return retention;
  }

  @Override
  public String toString() {
    return "WindowReadability{after " + fromExclusive + (archived ? ", archived" : "")
        + (cleanedCommits.isEmpty() ? "" : ", cleaned " + cleanedCommits)
        + headroomCommits.map(commits -> ", headroom " + commits + " commits after "
            + earliestRetainedInstant.get()).orElse(", unbounded") + "}";
  }

  /** Builds a {@link WindowReadability}. */
  public static final class Builder {
    private final String fromExclusive;
    private Option<String> activeTimelineStart = Option.empty();
    private boolean archived;
    private List<String> cleanedCommits = Collections.emptyList();
    private Option<String> cleanerBound = Option.empty();
    private Option<String> newestRemovedCommit = Option.empty();
    private Option<String> earliestRetainedInstant = Option.empty();
    private Option<Integer> headroomCommits = Option.empty();
    private Option<Duration> headroomTime = Option.empty();
    private int commitsRetained;
    private String retention = "";

    private Builder(String fromExclusive) {
      this.fromExclusive = fromExclusive;
    }

    /**
     * @param activeTimelineStart the first completed instant of the active timeline; empty if it has none
     * @param archived            whether the position lies before it while older commits are archived
     */
    public Builder activeTimeline(Option<String> activeTimelineStart, boolean archived) {
      this.activeTimelineStart = activeTimelineStart;
      this.archived = archived;
      return this;
    }

    /** The commits in the window with a file the cleaner removed, oldest first. */
    public Builder cleanedCommits(List<String> cleanedCommits) {
      this.cleanedCommits = cleanedCommits;
      return this;
    }

    /**
     * The cleaner's bound: under KEEP_LATEST_COMMITS or KEEP_LATEST_BY_HOURS its earliest commit to retain, under
     * KEEP_LATEST_FILE_VERSIONS the newest commit whose files it removed; at most one of the two.
     *
     * @throws IllegalArgumentException if both are given
     */
    public Builder cleaner(Option<String> earliestCommitToRetain, Option<String> newestRemovedCommit) {
      if (earliestCommitToRetain.isPresent() && newestRemovedCommit.isPresent()) {
        throw new IllegalArgumentException(String.format("Cannot bound a cleaner both by an earliest commit to retain "
            + "(%s) and by removed file versions (%s)", earliestCommitToRetain.get(), newestRemovedCommit.get()));
      }
      this.cleanerBound = earliestCommitToRetain;
      this.newestRemovedCommit = newestRemovedCommit;
      return this;
    }

    /**
     * The headroom of a bounded table; an unbounded table has none.
     *
     * @param earliestRetainedInstant the later of the cleaner's and the archive's bound
     * @param commits                 completed commits from that bound up to the position, inclusive
     * @param time                    the time from that bound to the position
     */
    public Builder headroom(String earliestRetainedInstant, int commits, Duration time) {
      this.earliestRetainedInstant = Option.of(earliestRetainedInstant);
      this.headroomCommits = Option.of(commits);
      this.headroomTime = Option.of(time);
      return this;
    }

    /**
     * @param commitsRetained completed commits at or after the earliest retained instant (all if unbounded)
     * @param retention       the source's retention as messages show it
     */
    public Builder retained(int commitsRetained, String retention) {
      this.commitsRetained = commitsRetained;
      this.retention = retention;
      return this;
    }

    public WindowReadability build() {
      return new WindowReadability(this);
    }
  }
}
