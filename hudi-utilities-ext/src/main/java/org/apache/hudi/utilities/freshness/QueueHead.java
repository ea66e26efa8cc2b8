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

  private static final QueueHead CAUGHT_UP = new QueueHead(FreshnessState.CAUGHT_UP, null, 0L, null, null, null);

  private final FreshnessState state;
  private final Instant oldestVisibleAt;
  private final long pending;
  private final RetentionHeadroom headroom;
  private final CheckpointInLog checkpointInLog;
  private final String reason;

  private QueueHead(FreshnessState state, Instant oldestVisibleAt, long pending, RetentionHeadroom headroom,
                    CheckpointInLog checkpointInLog, String reason) {
    if (pending < 0) {
      throw new IllegalArgumentException("Cannot describe a queue with " + pending + " pending items: the count "
          + "is negative");
    }
    this.state = state;
    this.oldestVisibleAt = oldestVisibleAt;
    this.pending = pending;
    this.headroom = headroom;
    this.checkpointInLog = checkpointInLog;
    this.reason = reason;
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
    return new QueueHead(FreshnessState.WAITING, Objects.requireNonNull(oldestVisibleAt, "oldestVisibleAt"), pending,
        null, null, null);
  }

  /** Data after the checkpoint whose oldest record has no timestamp. */
  public static QueueHead withoutTimestamp(long pending) {
    return new QueueHead(FreshnessState.NO_TIMESTAMP, null, pending, null, null,
        "the oldest waiting record has no timestamp");
  }

  /**
   * Data after the checkpoint whose oldest part could not be read within the time allowed: no lag, not even the age
   * of the part that was read, which is only a lower bound.
   *
   * @param reason what was not read, for the operator
   */
  public static QueueHead unreadable(long pending, String reason) {
    return new QueueHead(FreshnessState.UNREADABLE, null, pending, null, null, Objects.requireNonNull(reason, "reason"));
  }

  /**
   * A checkpoint past the end of the source's log: no lag.
   *
   * @param pending data waiting in the partitions where the checkpoint is inside the log
   */
  public static QueueHead aheadOfLog(long pending, CheckpointInLog checkpointInLog, String reason) {
    if (checkpointInLog.offsetsAheadOfLog() == 0) {
      throw new IllegalArgumentException("Cannot describe a checkpoint ahead of the log as " + checkpointInLog
          + ": no offset is ahead");
    }
    return new QueueHead(FreshnessState.CHECKPOINT_AHEAD_OF_LOG, null, pending, null, checkpointInLog,
        Objects.requireNonNull(reason, "reason"));
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
    return new QueueHead(state, oldestVisibleAt, pending, Objects.requireNonNull(value, "headroom"), checkpointInLog,
        reason);
  }

  /** This queue with where its checkpoint sits against the source's log (Kafka). */
  public QueueHead withCheckpointInLog(CheckpointInLog value) {
    return new QueueHead(state, oldestVisibleAt, pending, headroom, Objects.requireNonNull(value, "checkpointInLog"),
        reason);
  }

  /** Where the checkpoint sits against the source's log; measured for Kafka sources only. */
  public Option<CheckpointInLog> checkpointInLog() {
    return Option.ofNullable(checkpointInLog);
  }

  /** Why there is no lag, in the states that have none. */
  public Option<String> reason() {
    return Option.ofNullable(reason);
  }

  /** The position's retention headroom; absent where the source's retention does not bound it or is not measured. */
  public Option<RetentionHeadroom> headroom() {
    return Option.ofNullable(headroom);
  }

  @Override
  public String toString() {
    return "QueueHead{" + state + (oldestVisibleAt == null ? "" : ", since " + oldestVisibleAt)
        + ", pending " + pending + (headroom == null ? "" : ", headroom " + headroom)
        + (checkpointInLog == null ? "" : ", " + checkpointInLog) + (reason == null ? "" : ", " + reason) + "}";
  }
}
