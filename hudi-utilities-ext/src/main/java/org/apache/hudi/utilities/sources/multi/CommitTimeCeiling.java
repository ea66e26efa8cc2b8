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
import org.apache.hudi.utilities.config.AlignmentMode;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * The read windows of one batch under {@link AlignmentMode#COMMIT_TIME_CEILING}: every planned window cut at a
 * shared ceiling. Pure: it reads no timeline, only the planned windows and the clock.
 *
 * <p>The rule (which table holds the ceiling, when a quiet table is idle) and what it guarantees are stated once, in
 * docs/how-a-batch-works.md#alignment-modes; {@code TestCommitTimeCeiling} specifies it on a fixed clock.
 */
public final class CommitTimeCeiling {

  private final Option<String> ceiling;
  private final Map<String, TableWindow> windows;
  private final List<String> idleTables;
  private final List<String> waitingTables;

  private CommitTimeCeiling(Option<String> ceiling, Map<String, TableWindow> windows, List<String> idleTables,
                            List<String> waitingTables) {
    this.ceiling = ceiling;
    this.windows = Collections.unmodifiableMap(windows);
    this.idleTables = Collections.unmodifiableList(idleTables);
    this.waitingTables = Collections.unmodifiableList(waitingTables);
  }

  /**
   * @param planned     each table's planned window, in table order
   * @param idleTimeout how long a table without new commits holds the ceiling, from its newest readable commit
   * @param clock       what "now" is for the idle timeout
   * @throws IllegalArgumentException if readable tables write their instant times in different zones
   */
  public static CommitTimeCeiling of(List<TableWindow> planned, Duration idleTimeout, Clock clock) {
    checkOneTimelineZone(planned);
    List<String> idle = planned.stream()
        .filter(window -> isIdle(window, idleTimeout, clock))
        .map(TableWindow::table)
        .collect(Collectors.toList());
    // Instant times of one zone compare as strings, which is how Hudi compares them.
    Option<String> ceiling = Option.fromJavaOptional(planned.stream()
        .filter(window -> !idle.contains(window.table()))
        .map(window -> window.hasNewCommits() ? window.end() : window.newestReadable())
        .filter(Option::isPresent)
        .map(Option::get)
        .min(Comparator.naturalOrder()));
    Map<String, TableWindow> aligned = new LinkedHashMap<>();
    List<String> waiting = new ArrayList<>();
    for (TableWindow window : planned) {
      TableWindow cut = ceiling.map(window::upTo).orElse(window);
      aligned.put(window.table(), cut);
      if (cut.instants().size() < window.instants().size()) {
        waiting.add(window.table());
      }
    }
    return new CommitTimeCeiling(ceiling, aligned, idle, waiting);
  }

  private static boolean isIdle(TableWindow window, Duration idleTimeout, Clock clock) {
    if (window.hasNewCommits() || !window.newestReadable().isPresent()) {
      return false;
    }
    Duration quiet = Duration.between(window.newestReadableTime().get(), clock.instant());
    return quiet.compareTo(idleTimeout) >= 0;
  }

  private static void checkOneTimelineZone(List<TableWindow> planned) {
    List<TableWindow> readable = planned.stream().filter(window -> window.newestReadable().isPresent())
        .collect(Collectors.toList());
    for (TableWindow window : readable) {
      TableWindow first = readable.get(0);
      checkArgument(window.timelineZone().equals(first.timelineZone()), String.format("Cannot align tables '%s' and "
          + "'%s' on commit time: their instant times are written in different zones (%s, %s; "
          + "hoodie.table.timeline.timezone), so they do not compare. Write all source tables in one timeline zone, "
          + "or set %s=%s.", first.table(), window.table(), first.timelineZone(), window.timelineZone(),
          HoodieIncrMultiSourceConfig.ALIGNMENT.key(), AlignmentMode.NONE));
    }
  }

  /** The inclusive instant no window passes; empty when no table holds one (then no table has new commits). */
  public Option<String> ceiling() {
    return ceiling;
  }

  /**
   * The window a table reads in this batch: its planned window cut at the ceiling.
   *
   * @throws IllegalArgumentException if the table was not planned
   */
  public TableWindow window(String table) {
    checkArgument(windows.containsKey(table), "Cannot align table '" + table + "': it was not planned");
    return windows.get(table);
  }

  /** The tables without new commits whose newest readable commit is older than the idle timeout, in table order. */
  public List<String> idleTables() {
    return idleTables;
  }

  /** The tables that have commits past the ceiling, which they read in a later batch, in table order. */
  public List<String> waitingTables() {
    return waitingTables;
  }

  @Override
  public String toString() {
    return "ceiling " + ceiling.orElse("<none>") + ", waiting " + waitingTables + ", idle " + idleTables;
  }
}
