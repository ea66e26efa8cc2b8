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
import org.apache.hudi.common.util.Option;

import org.junit.jupiter.api.Test;

import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit-time ceiling and the idle-source rule, on planned windows and a fixed clock: which instant is the
 * ceiling, which commits each table reads, which tables wait and which are idle.
 */
class TestCommitTimeCeiling {

  private static final Instant NOON = Instant.parse("2026-11-29T12:00:00Z");
  private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

  /** The instant time of a commit made {@code minutes} before noon. */
  private static String at(int minutesBeforeNoon) {
    return HoodieActiveTimeline.formatDate(Date.from(NOON.minus(Duration.ofMinutes(minutesBeforeNoon))));
  }

  /** The point in time of an instant made by {@link #at}. */
  private static Instant timeOf(String instant) {
    try {
      return HoodieActiveTimeline.parseDateFromInstantTime(instant).toInstant();
    } catch (ParseException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static Clock clockAt(Instant now) {
    return Clock.fixed(now, ZoneOffset.UTC);
  }

  /** A table positioned at {@code position} that can read {@code instants} and nothing after them. */
  private static TableWindow news(String table, String position, String... instants) {
    String newest = instants[instants.length - 1];
    return new TableWindow(table, Option.of(position), position, Arrays.asList(instants), Option.of(newest),
        Option.of(timeOf(newest)), ZoneId.systemDefault());
  }

  /** A table without new commits, consumed up to its newest readable commit. */
  private static TableWindow quiet(String table, String newestReadable) {
    return new TableWindow(table, Option.of(newestReadable), newestReadable, Collections.emptyList(),
        Option.of(newestReadable), Option.of(timeOf(newestReadable)), ZoneId.systemDefault());
  }

  @Test
  void everyWindowEndsAtTheEarliestEndAmongTablesWithNewCommits() {
    TableWindow orders = news("orders", at(60), at(50), at(40), at(30));
    TableWindow users = news("users", at(60), at(45));

    CommitTimeCeiling aligned = CommitTimeCeiling.of(List.of(orders, users), TEN_MINUTES, clockAt(NOON));

    assertEquals(Option.of(at(45)), aligned.ceiling());
    assertEquals(List.of(at(50)), aligned.window("orders").instants(), "orders reads only up to the ceiling");
    assertSame(users, aligned.window("users"), "users ends the ceiling and reads its whole window");
    assertEquals(List.of("orders"), aligned.waitingTables());
    assertEquals(List.of(), aligned.idleTables());
  }

  @Test
  void tableAheadOfTheCeilingReadsNothingAndKeepsItsPlace() {
    TableWindow orders = news("orders", at(30), at(20), at(10));
    TableWindow users = news("users", at(60), at(40));

    CommitTimeCeiling aligned = CommitTimeCeiling.of(List.of(orders, users), TEN_MINUTES, clockAt(NOON));

    assertEquals(Option.of(at(40)), aligned.ceiling());
    assertEquals(List.of(), aligned.window("orders").instants());
    assertEquals(Option.of(at(30)), aligned.window("orders").position());
  }

  @Test
  void tableCappedByNumInstantsPacesTheOthers() {
    // orders has a backlog back to 50 minutes ago, but num_instants=1 lets it read one commit per batch: its window
    // ends at its oldest new commit, and a table with new commits is never idle, however old those commits are.
    TableWindow orders = news("orders", at(60), at(50));
    TableWindow users = news("users", at(60), at(55), at(45), at(5));

    CommitTimeCeiling aligned = CommitTimeCeiling.of(List.of(orders, users), Duration.ZERO, clockAt(NOON));

    assertEquals(Option.of(at(50)), aligned.ceiling());
    assertEquals(List.of(at(55)), aligned.window("users").instants());
  }

  @Test
  void quietTableHoldsTheOthersAtItsNewestCommitUntilTheIdleTimeoutHasPassed() {
    TableWindow users = quiet("users", at(30));
    TableWindow orders = news("orders", at(40), at(35), at(20), at(10));
    Instant usersCommitted = NOON.minus(Duration.ofMinutes(30));

    CommitTimeCeiling stillHolding = CommitTimeCeiling.of(List.of(orders, users), TEN_MINUTES,
        clockAt(usersCommitted.plus(TEN_MINUTES).minusMillis(1)));
    assertEquals(Option.of(at(30)), stillHolding.ceiling());
    assertEquals(List.of(at(35)), stillHolding.window("orders").instants());
    assertEquals(List.of(), stillHolding.idleTables());

    CommitTimeCeiling idle = CommitTimeCeiling.of(List.of(orders, users), TEN_MINUTES,
        clockAt(usersCommitted.plus(TEN_MINUTES)));
    assertEquals(Option.of(at(10)), idle.ceiling());
    assertSame(orders, idle.window("orders"));
    assertEquals(List.of("users"), idle.idleTables());
    assertEquals(List.of(), idle.waitingTables());
  }

  @Test
  void withAZeroIdleTimeoutOnlyTablesWithNewCommitsSetTheCeiling() {
    TableWindow users = quiet("users", at(1));

    CommitTimeCeiling aligned = CommitTimeCeiling.of(List.of(news("orders", at(40), at(35), at(20)), users),
        Duration.ZERO, clockAt(NOON.minus(Duration.ofMinutes(1))));

    assertEquals(Option.of(at(20)), aligned.ceiling());
    assertEquals(List.of("users"), aligned.idleTables());
  }

  @Test
  void tableWithoutAnyReadableCommitHoldsNothing() {
    TableWindow empty = TableWindow.unreadable("items", Option.empty());

    CommitTimeCeiling aligned = CommitTimeCeiling.of(List.of(news("orders", at(40), at(20)), empty), TEN_MINUTES,
        clockAt(NOON));

    assertEquals(Option.of(at(20)), aligned.ceiling());
    assertEquals(List.of(), aligned.idleTables(), "a table with nothing to align to is not idle either: it has no time");
  }

  @Test
  void whenNoTableHasNewCommitsNothingIsCut() {
    TableWindow orders = quiet("orders", at(5));
    TableWindow users = quiet("users", at(3));

    CommitTimeCeiling aligned = CommitTimeCeiling.of(List.of(orders, users), TEN_MINUTES, clockAt(NOON));

    assertEquals(Option.of(at(5)), aligned.ceiling());
    assertSame(orders, aligned.window("orders"));
    assertSame(users, aligned.window("users"));
  }

  @Test
  void noWindowEverEndsPastTheCeiling() {
    List<TableWindow> planned = List.of(news("a", at(90), at(80), at(70), at(60)), news("b", at(95), at(75), at(65)),
        quiet("c", at(7)), news("d", at(85), at(84), at(62), at(61)));

    CommitTimeCeiling aligned = CommitTimeCeiling.of(planned, TEN_MINUTES, clockAt(NOON));

    String ceiling = aligned.ceiling().get();
    assertEquals(at(65), ceiling);
    for (TableWindow window : planned) {
      aligned.window(window.table()).end().ifPresent(end -> assertTrue(end.compareTo(ceiling) <= 0, end));
    }
    assertEquals(List.of(at(80), at(70)), aligned.window("a").instants());
    assertEquals(List.of(at(84)), aligned.window("d").instants());
    assertEquals(List.of("a", "d"), aligned.waitingTables());
  }

  @Test
  void tablesWhoseInstantTimesAreInDifferentZonesCannotBeAligned() {
    TableWindow utc = new TableWindow("orders", Option.of(at(20)), at(20), List.of(at(10)), Option.of(at(10)),
        Option.of(timeOf(at(10))), ZoneOffset.UTC);
    TableWindow local = new TableWindow("users", Option.of(at(20)), at(20), List.of(at(10)), Option.of(at(10)),
        Option.of(timeOf(at(10))), ZoneId.of("Asia/Kolkata"));

    IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
        () -> CommitTimeCeiling.of(List.of(utc, local), TEN_MINUTES, clockAt(NOON)));
    assertTrue(failure.getMessage().startsWith("Cannot align tables 'orders' and 'users' on commit time"),
        failure.getMessage());
    assertTrue(failure.getMessage().contains("hoodie.streamer.source.multi.hudi.alignment=NONE"), failure.getMessage());
  }
}
