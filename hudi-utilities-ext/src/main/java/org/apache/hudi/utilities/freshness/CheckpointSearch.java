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

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The checkpoint a target holds: the commit it was found in, and how many completed commits were looked at to find it.
 */
public final class CheckpointSearch {

  private final String commit;
  private final String checkpoint;
  private final Integer depth;

  private CheckpointSearch(String commit, String checkpoint, Integer depth) {
    this.commit = commit;
    this.checkpoint = checkpoint == null || checkpoint.trim().isEmpty() ? null : checkpoint;
    this.depth = depth;
  }

  /**
   * The result of walking a target's completed commits newest first.
   *
   * @param commit     the commit holding the checkpoint, or null if none was found
   * @param checkpoint its checkpoint, or null
   * @param depth      commits looked at, the found one included
   */
  public static CheckpointSearch searched(String commit, String checkpoint, int depth) {
    return new CheckpointSearch(commit, checkpoint, depth);
  }

  /** The checkpoint of one known commit (the one a commit callback was called for); no search took place. */
  public static CheckpointSearch ofCommit(String commit, String checkpoint) {
    return new CheckpointSearch(commit, checkpoint, null);
  }

  public Optional<String> commit() {
    return Optional.ofNullable(commit);
  }

  /** The stored checkpoint string; absent if no commit looked at holds one. */
  public Optional<String> checkpoint() {
    return Optional.ofNullable(checkpoint);
  }

  /** Commits looked at; absent when no search took place. */
  public OptionalInt depth() {
    return depth == null ? OptionalInt.empty() : OptionalInt.of(depth);
  }

  @Override
  public String toString() {
    return "CheckpointSearch{commit=" + commit + ", checkpoint=" + checkpoint + ", depth=" + depth + "}";
  }
}
