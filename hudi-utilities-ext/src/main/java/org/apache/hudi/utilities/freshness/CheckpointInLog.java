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

import java.util.Objects;

/**
 * Where a Kafka checkpoint sits against its topic's log, summed over the partitions: records the log no longer holds
 * below the checkpoint's offsets (retention removed them before the pipeline read them: data loss), and offsets by
 * which the checkpoint is past the log's end (the topic was recreated or truncated: records landing below the
 * checkpoint are never read). Both 0 for a checkpoint inside the log.
 */
public final class CheckpointInLog {

  private static final CheckpointInLog INSIDE = new CheckpointInLog(0, 0);

  private final long recordsLost;
  private final long offsetsAheadOfLog;

  private CheckpointInLog(long recordsLost, long offsetsAheadOfLog) {
    this.recordsLost = recordsLost;
    this.offsetsAheadOfLog = offsetsAheadOfLog;
  }

  /**
   * @param recordsLost       over the partitions whose checkpoint offset is below the log start: log start minus it
   * @param offsetsAheadOfLog over the partitions whose checkpoint offset is past the log end: it minus the log end
   */
  public static CheckpointInLog of(long recordsLost, long offsetsAheadOfLog) {
    if (recordsLost < 0 || offsetsAheadOfLog < 0) {
      throw new IllegalArgumentException("Cannot describe a checkpoint with " + recordsLost + " records lost and "
          + offsetsAheadOfLog + " offsets ahead of the log: the counts are negative");
    }
    return recordsLost == 0 && offsetsAheadOfLog == 0 ? INSIDE : new CheckpointInLog(recordsLost, offsetsAheadOfLog);
  }

  /** Records removed by retention before the pipeline read them. */
  public long recordsLost() {
    return recordsLost;
  }

  /** Offsets by which the checkpoint is past the end of the log. */
  public long offsetsAheadOfLog() {
    return offsetsAheadOfLog;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof CheckpointInLog)) {
      return false;
    }
    CheckpointInLog that = (CheckpointInLog) o;
    return recordsLost == that.recordsLost && offsetsAheadOfLog == that.offsetsAheadOfLog;
  }

  @Override
  public int hashCode() {
    return Objects.hash(recordsLost, offsetsAheadOfLog);
  }

  @Override
  public String toString() {
    return recordsLost + " records lost, " + offsetsAheadOfLog + " offsets ahead of the log";
  }
}
