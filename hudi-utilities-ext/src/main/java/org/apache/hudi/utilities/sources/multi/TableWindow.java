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

import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieTimeline;

import java.text.ParseException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The commits one table can read in this batch, as Hudi's incremental source plans them: after
 * {@link #fromExclusive()}, up to and including the last of {@link #instants()}.
 *
 * <p>Instants are compared as Hudi compares them, as instant-time strings; {@link #timeOf} turns one into a point in
 * time in the zone the table writes its instant times in.
 */
public final class TableWindow {

  private final String table;
  private final Optional<String> position;
  private final String fromExclusive;
  private final List<String> instants;
  private final Optional<String> newestReadable;
  private final ZoneId timelineZone;

  /**
   * @param table          the table name
   * @param position       the inclusive position the batch resumes the table from; empty if it has none
   * @param fromExclusive  where the window starts, exclusive: the position, or where the missing-checkpoint
   *                       strategy starts a table without one
   * @param instants       the completed instants in the window, oldest first; empty when there is nothing to read
   * @param newestReadable the newest instant the table could read at all now, past any num_instants limit but
   *                       not past a hollow commit that blocks it; empty if it has none
   * @param timelineZone   the zone of the table's instant times
   */
  TableWindow(String table, Optional<String> position, String fromExclusive, List<String> instants,
              Optional<String> newestReadable, ZoneId timelineZone) {
    this.table = table;
    this.position = position;
    this.fromExclusive = fromExclusive;
    this.instants = Collections.unmodifiableList(new ArrayList<>(instants));
    this.newestReadable = newestReadable;
    this.timelineZone = timelineZone;
  }

  /** The window of a table that is not a Hudi table: nothing to read, nothing to align to. */
  static TableWindow unreadable(String table, Optional<String> position) {
    return new TableWindow(table, position, position.orElse(HoodieTimeline.INIT_INSTANT_TS), Collections.emptyList(),
        Optional.empty(), ZoneId.systemDefault());
  }

  public String table() {
    return table;
  }

  public Optional<String> position() {
    return position;
  }

  public String fromExclusive() {
    return fromExclusive;
  }

  /** The completed instants in the window, oldest first. */
  public List<String> instants() {
    return instants;
  }

  public Optional<String> newestReadable() {
    return newestReadable;
  }

  public ZoneId timelineZone() {
    return timelineZone;
  }

  /** Whether the window holds at least one commit. */
  public boolean hasNewCommits() {
    return !instants.isEmpty();
  }

  /** The inclusive end of the window; empty when it holds no commit. */
  public Optional<String> end() {
    return instants.isEmpty() ? Optional.empty() : Optional.of(instants.get(instants.size() - 1));
  }

  /** This window without its commits after {@code ceiling}. */
  public TableWindow upTo(String ceiling) {
    List<String> kept = instants.stream()
        .filter(instant -> HoodieTimeline.compareTimestamps(instant, HoodieTimeline.LESSER_THAN_OR_EQUALS, ceiling))
        .collect(Collectors.toList());
    return kept.size() == instants.size() ? this
        : new TableWindow(table, position, fromExclusive, kept, newestReadable, timelineZone);
  }

  /**
   * The point in time an instant of this table stands for.
   *
   * @throws IllegalArgumentException if {@code instant} is not an instant time
   */
  public Instant timeOf(String instant) {
    try {
      // Hudi 0.14 parses every instant time in the JVM's zone; re-read its wall-clock time in the table's zone.
      Instant parsedAsLocal = HoodieActiveTimeline.parseDateFromInstantTime(instant).toInstant();
      return LocalDateTime.ofInstant(parsedAsLocal, ZoneId.systemDefault()).atZone(timelineZone).toInstant();
    } catch (ParseException e) {
      throw new IllegalArgumentException(String.format("Cannot read '%s' of table '%s' as an instant time", instant,
          table), e);
    }
  }

  @Override
  public String toString() {
    return "TableWindow{" + table + ": (" + fromExclusive + ", " + end().orElse(fromExclusive) + "], "
        + instants.size() + " commits}";
  }
}
