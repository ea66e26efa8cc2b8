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

import java.time.Duration;
import java.util.Objects;

/**
 * How far a source's position is from the data its retention will remove: the completed commits from the earliest
 * instant the source's cleaner and archival still retain up to the position, and the time between them. At 0 commits
 * the next clean may remove files the pipeline has not read yet; the time is negative once the bound has passed the
 * position. Known for Hudi sources whose retention bounds them; a Kafka topic's retention is not measured.
 */
public final class RetentionHeadroom {

  private final int commits;
  private final Duration time;

  private RetentionHeadroom(int commits, Duration time) {
    this.commits = commits;
    this.time = Objects.requireNonNull(time, "time");
  }

  /**
   * @param commits completed commits from the earliest retained instant up to the position, inclusive; 0 or more
   * @param time    from the earliest retained instant to the position
   */
  public static RetentionHeadroom of(int commits, Duration time) {
    if (commits < 0) {
      throw new IllegalArgumentException("Cannot describe a retention headroom of " + commits + " commits: the count "
          + "is negative");
    }
    return new RetentionHeadroom(commits, time);
  }

  public int commits() {
    return commits;
  }

  public Duration time() {
    return time;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof RetentionHeadroom)) {
      return false;
    }
    RetentionHeadroom that = (RetentionHeadroom) o;
    return commits == that.commits && time.equals(that.time);
  }

  @Override
  public int hashCode() {
    return Objects.hash(commits, time);
  }

  @Override
  public String toString() {
    return commits + " commits (" + time + ")";
  }
}
