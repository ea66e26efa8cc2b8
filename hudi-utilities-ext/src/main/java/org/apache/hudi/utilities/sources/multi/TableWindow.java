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

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The commits one table can read in this batch, as Hudi's incremental source plans them: after
 * {@link #fromExclusive()}, up to and including the last of {@link #instants()}.
 *
 * <p>Instants are compared as Hudi compares them, as instant-time strings of one length; the point in time of the
 * newest readable commit comes with the window, converted where the table's timeline is read.
 */
public final class TableWindow {

  /** Hudi's instant before every commit: where a table without commits or position starts. */
  static final String INIT_INSTANT = "00000000000000";

  private final String table;
  private final Option<String> position;
  private final String fromExclusive;
  private final List<String> instants;
  private final Option<String> newestReadable;
  private final Option<Instant> newestReadableTime;
  private final ZoneId timelineZone;

  /**
   * @param table              the table name
   * @param position           the inclusive position the batch resumes the table from; empty if it has none
   * @param fromExclusive      where the window starts, exclusive: the position, or where the missing-checkpoint
   *                           strategy starts a table without one
   * @param instants           the completed instants in the window, oldest first; empty when there is nothing to read
   * @param newestReadable     the newest instant the table could read at all now, past any num_instants limit but
   *                           not past a hollow commit that blocks it; empty if it has none
   * @param newestReadableTime the point in time {@code newestReadable} stands for; present with it
   * @param timelineZone       the zone of the table's instant times
   */
  public TableWindow(String table, Option<String> position, String fromExclusive, List<String> instants,
                     Option<String> newestReadable, Option<Instant> newestReadableTime, ZoneId timelineZone) {
    this.table = table;
    this.position = position;
    this.fromExclusive = fromExclusive;
    this.instants = Collections.unmodifiableList(new ArrayList<>(instants));
    this.newestReadable = newestReadable;
    this.newestReadableTime = newestReadableTime;
    this.timelineZone = timelineZone;
  }

  /** The window of a table that is not a Hudi table: nothing to read, nothing to align to. */
  public static TableWindow unreadable(String table, Option<String> position) {
    return new TableWindow(table, position, position.orElse(INIT_INSTANT), Collections.emptyList(), Option.empty(),
        Option.empty(), ZoneId.systemDefault());
  }

  public String table() {
    return table;
  }

  public Option<String> position() {
    return position;
  }

  public String fromExclusive() {
    return fromExclusive;
  }

  /** The completed instants in the window, oldest first. */
  public List<String> instants() {
    return instants;
  }

  public Option<String> newestReadable() {
    return newestReadable;
  }

  /** When the newest readable commit was made, in time; empty if the table has none. */
  public Option<Instant> newestReadableTime() {
    return newestReadableTime;
  }

  public ZoneId timelineZone() {
    return timelineZone;
  }

  /** Whether the window holds at least one commit. */
  public boolean hasNewCommits() {
    return !instants.isEmpty();
  }

  /** The inclusive end of the window; empty when it holds no commit. */
  public Option<String> end() {
    return instants.isEmpty() ? Option.empty() : Option.of(instants.get(instants.size() - 1));
  }

  /** This window without its commits after {@code ceiling}. */
  public TableWindow upTo(String ceiling) {
    List<String> kept = instants.stream()
        .filter(instant -> instant.compareTo(ceiling) <= 0)
        .collect(Collectors.toList());
    return kept.size() == instants.size() ? this
        : new TableWindow(table, position, fromExclusive, kept, newestReadable, newestReadableTime, timelineZone);
  }

  @Override
  public String toString() {
    return "TableWindow{" + table + ": (" + fromExclusive + ", " + end().orElse(fromExclusive) + "], "
        + instants.size() + " commits}";
  }
}
