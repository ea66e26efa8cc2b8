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

package org.apache.hudi.utilities.checkpoint;

import org.apache.hudi.common.util.Option;

import java.util.Objects;

/**
 * The checkpoint a target table stores for its Streamer, as found on its timeline: the string and the commit that
 * holds it, and how many commits were looked at to find it.
 */
public final class StoredCheckpoint {

  private final String commit;
  private final String checkpoint;
  private final int commitsSearched;

  private StoredCheckpoint(String commit, String checkpoint, int commitsSearched) {
    this.commit = commit;
    this.checkpoint = checkpoint == null || checkpoint.trim().isEmpty() ? null : checkpoint;
    this.commitsSearched = commitsSearched;
  }

  /**
   * @param commit          the commit that decides the checkpoint (it holds one, or a reset that cleared it)
   * @param checkpoint      its checkpoint; null or empty if that commit holds none
   * @param commitsSearched commits looked at, the found one included
   */
  public static StoredCheckpoint found(String commit, String checkpoint, int commitsSearched) {
    return new StoredCheckpoint(Objects.requireNonNull(commit, "commit"), checkpoint, commitsSearched);
  }

  /** No commit looked at holds a checkpoint (or the target does not exist: 0 commits searched). */
  public static StoredCheckpoint none(int commitsSearched) {
    return new StoredCheckpoint(null, null, commitsSearched);
  }

  /** The commit that decides the checkpoint; empty if none was found. */
  public Option<String> commit() {
    return Option.ofNullable(commit);
  }

  /** The stored checkpoint string; empty if none was found, or the deciding commit holds an empty one. */
  public Option<String> checkpoint() {
    return Option.ofNullable(checkpoint);
  }

  /** Commits looked at, newest first, the deciding one included; 1 for a commit read directly. */
  public int commitsSearched() {
    return commitsSearched;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof StoredCheckpoint)) {
      return false;
    }
    StoredCheckpoint that = (StoredCheckpoint) other;
    return Objects.equals(commit, that.commit) && Objects.equals(checkpoint, that.checkpoint)
        && commitsSearched == that.commitsSearched;
  }

  @Override
  public int hashCode() {
    return Objects.hash(commit, checkpoint, commitsSearched);
  }

  @Override
  public String toString() {
    return "StoredCheckpoint{commit=" + commit + ", checkpoint=" + checkpoint + ", commitsSearched=" + commitsSearched
        + "}";
  }
}
