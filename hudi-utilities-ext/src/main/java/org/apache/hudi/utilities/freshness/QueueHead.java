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

package org.apache.hudi.utilities.freshness;

import org.apache.hudi.common.util.Option;

import java.time.Instant;
import java.util.Objects;

/**
 * What a probe saw after a source's checkpoint: whether data waits, since when the oldest of it has been visible,
 * and how much waits. Built by a {@link QueueProbe}; turned into lag by {@link SourceFreshness#measure}.
 */
public final class QueueHead {

  private static final QueueHead CAUGHT_UP = new QueueHead(FreshnessState.CAUGHT_UP, null, 0L);

  private final FreshnessState state;
  private final Instant oldestVisibleAt;
  private final long pending;
  private final RetentionHeadroom headroom;

  private QueueHead(FreshnessState state, Instant oldestVisibleAt, long pending) {
    this(state, oldestVisibleAt, pending, null);
  }

  private QueueHead(FreshnessState state, Instant oldestVisibleAt, long pending, RetentionHeadroom headroom) {
    if (pending < 0) {
      throw new IllegalArgumentException("Cannot describe a queue with " + pending + " pending items: the count "
          + "is negative");
    }
    this.state = state;
    this.oldestVisibleAt = oldestVisibleAt;
    this.pending = pending;
    this.headroom = headroom;
  }

  /** Nothing after the checkpoint. */
  public static QueueHead caughtUp() {
    return CAUGHT_UP;
  }

  /**
   * Data after the checkpoint.
   *
   * @param oldestVisibleAt when the oldest waiting data became readable by the pipeline
   * @param pending         completed instants (Hudi) or records (Kafka) waiting
   */
  public static QueueHead waitingSince(Instant oldestVisibleAt, long pending) {
    return new QueueHead(FreshnessState.WAITING, Objects.requireNonNull(oldestVisibleAt, "oldestVisibleAt"), pending);
  }

  /** Data after the checkpoint whose oldest record has no timestamp. */
  public static QueueHead withoutTimestamp(long pending) {
    return new QueueHead(FreshnessState.NO_TIMESTAMP, null, pending);
  }

  /** Data after the checkpoint, none of which could be read within the time allowed. */
  public static QueueHead unreadable(long pending) {
    return new QueueHead(FreshnessState.UNREADABLE, null, pending);
  }

  public FreshnessState state() {
    return state;
  }

  /** Present in state {@link FreshnessState#WAITING} only. */
  public Option<Instant> oldestVisibleAt() {
    return Option.ofNullable(oldestVisibleAt);
  }

  public long pending() {
    return pending;
  }

  /** This queue with the position's distance from what the source's retention removes. */
  public QueueHead withHeadroom(RetentionHeadroom value) {
    return new QueueHead(state, oldestVisibleAt, pending, Objects.requireNonNull(value, "headroom"));
  }

  /** The position's retention headroom; absent where the source's retention does not bound it or is not measured. */
  public Option<RetentionHeadroom> headroom() {
    return Option.ofNullable(headroom);
  }

  @Override
  public String toString() {
    return "QueueHead{" + state + (oldestVisibleAt == null ? "" : ", since " + oldestVisibleAt)
        + ", pending " + pending + (headroom == null ? "" : ", headroom " + headroom) + "}";
  }
}
