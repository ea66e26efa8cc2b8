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

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The freshness of one source of a pipeline at one moment: how long its oldest data not yet committed to the target
 * has been waiting (time-in-queue), measured against the checkpoint stored in the target's commit.
 *
 * <ul>
 *   <li>{@link #lag()}: {@code now - oldestVisibleAt}, floored at 0 and capped at the policy's lag cap; 0 when
 *   nothing waits; absent when it cannot be known (no checkpoint, no timestamp, unreadable).</li>
 *   <li>{@link #rawLag()}: the same difference before flooring and capping. Negative means the clock of the
 *   observer is behind the clock that stamped the data: a clock-skew signal, not freshness.</li>
 *   <li>{@link #slaRatio()}: {@code lag / sla} clamped to 0.0 - 1.0.</li>
 *   <li>{@link #pending()}: completed instants (Hudi) or records (Kafka) waiting; absent without a checkpoint.</li>
 *   <li>{@link #status()}: what an operator should think of it ({@link StatusRules}).</li>
 * </ul>
 */
public final class SourceFreshness {

  private final String source;
  private final SourceKind kind;
  private final String position;
  private final FreshnessState state;
  private final Instant oldestVisibleAt;
  private final Duration rawLag;
  private final Duration lag;
  private final Double slaRatio;
  private final Long pending;
  private final SourceStatus status;
  private final RetentionHeadroom headroom;
  private final CheckpointInLog checkpointInLog;
  private final String reason;

  private SourceFreshness(String source, SourceKind kind, String position, FreshnessState state,
                          Instant oldestVisibleAt, Duration rawLag, Duration lag, Double slaRatio, Long pending,
                          QueueHead head) {
    this(source, kind, position, state, oldestVisibleAt, rawLag, lag, slaRatio, pending,
        lag == null ? SourceStatus.NO_DATA : state == FreshnessState.CAUGHT_UP ? SourceStatus.IDLE : SourceStatus.OK,
        head.headroom().orElse(null), head.checkpointInLog().orElse(null), head.reason().orElse(null));
  }

  private SourceFreshness(String source, SourceKind kind, String position, FreshnessState state,
                          Instant oldestVisibleAt, Duration rawLag, Duration lag, Double slaRatio, Long pending,
                          SourceStatus status, RetentionHeadroom headroom, CheckpointInLog checkpointInLog,
                          String reason) {
    this.source = Objects.requireNonNull(source, "source");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.position = position;
    this.state = state;
    this.oldestVisibleAt = oldestVisibleAt;
    this.rawLag = rawLag;
    this.lag = lag;
    this.slaRatio = slaRatio;
    this.pending = pending;
    this.status = Objects.requireNonNull(status, "status");
    this.headroom = headroom;
    this.checkpointInLog = checkpointInLog;
    this.reason = reason;
  }

  /**
   * The freshness of a source whose position is known.
   *
   * @param position the source's position in the checkpoint
   * @param head     what waits after it
   * @param now      the observer's clock
   */
  public static SourceFreshness measure(String source, SourceKind kind, String position, QueueHead head, Instant now,
                                        FreshnessPolicy policy) {
    switch (head.state()) {
      case CAUGHT_UP:
        return new SourceFreshness(source, kind, position, FreshnessState.CAUGHT_UP, null, Duration.ZERO,
            Duration.ZERO, 0.0, 0L, head);
      case WAITING:
        Instant oldest = head.oldestVisibleAt().get();
        Duration raw = Duration.between(oldest, now);
        Duration floored = raw.isNegative() ? Duration.ZERO : raw;
        Duration lag = floored.compareTo(policy.lagCap()) > 0 ? policy.lagCap() : floored;
        return new SourceFreshness(source, kind, position, FreshnessState.WAITING, oldest, raw, lag,
            policy.slaRatio(lag), head.pending(), head);
      default:
        return new SourceFreshness(source, kind, position, head.state(), null, null, null, null, head.pending(),
            head);
    }
  }

  /** A source for which the target holds no checkpoint: no value at all. */
  public static SourceFreshness noCheckpoint(String source, SourceKind kind) {
    return new SourceFreshness(source, kind, null, FreshnessState.NO_CHECKPOINT, null, null, null, null, null,
        SourceStatus.NO_DATA, null, null, null);
  }

  /**
   * A source whose probe failed: its position is known, nothing else.
   *
   * @param reason why the probe failed, for the operator
   */
  public static SourceFreshness unreadable(String source, SourceKind kind, String position, String reason) {
    return new SourceFreshness(source, kind, position, FreshnessState.UNREADABLE, null, null, null, null, null,
        SourceStatus.NO_DATA, null, null, Objects.requireNonNull(reason, "reason"));
  }

  public String source() {
    return source;
  }

  public SourceKind kind() {
    return kind;
  }

  /** The source's position in the checkpoint; absent in state {@link FreshnessState#NO_CHECKPOINT}. */
  public Option<String> position() {
    return Option.ofNullable(position);
  }

  public FreshnessState state() {
    return state;
  }

  /** When the oldest waiting data became visible; present in state {@link FreshnessState#WAITING}. */
  public Option<Instant> oldestVisibleAt() {
    return Option.ofNullable(oldestVisibleAt);
  }

  public Option<Duration> rawLag() {
    return Option.ofNullable(rawLag);
  }

  public Option<Duration> lag() {
    return Option.ofNullable(lag);
  }

  public OptionalDouble slaRatio() {
    return slaRatio == null ? OptionalDouble.empty() : OptionalDouble.of(slaRatio);
  }

  public OptionalLong pending() {
    return pending == null ? OptionalLong.empty() : OptionalLong.of(pending);
  }

  /**
   * How far the source's position is from what its retention removes; absent where its retention does not bound it,
   * for a Kafka source, and where the position or the source could not be read.
   */
  public Option<RetentionHeadroom> headroom() {
    return Option.ofNullable(headroom);
  }

  /** Where a Kafka checkpoint sits against its topic's log; absent for Hudi sources and where the log was not read. */
  public Option<CheckpointInLog> checkpointInLog() {
    return Option.ofNullable(checkpointInLog);
  }

  /** Why the source has no lag, in the states without one (Burrow's habit: a status comes with its reason). */
  public Option<String> reason() {
    return Option.ofNullable(reason);
  }

  /**
   * The source's status: as {@link StatusRules} rates it from this measurement alone until {@link #withStatus} sets
   * the one rated from its history.
   */
  public SourceStatus status() {
    return status;
  }

  /** This measurement with the status rated from the source's history. */
  public SourceFreshness withStatus(SourceStatus value) {
    return new SourceFreshness(source, kind, position, state, oldestVisibleAt, rawLag, lag, slaRatio, pending, value,
        headroom, checkpointInLog, reason);
  }

  @Override
  public String toString() {
    return "SourceFreshness{" + source + " " + kind + " " + state + ", position=" + position + ", lag=" + lag
        + ", rawLag=" + rawLag + ", slaRatio=" + slaRatio + ", pending=" + pending + ", status=" + status
        + (headroom == null ? "" : ", headroom=" + headroom)
        + (checkpointInLog == null ? "" : ", checkpointInLog=" + checkpointInLog)
        + (reason == null ? "" : ", reason=" + reason) + "}";
  }
}
