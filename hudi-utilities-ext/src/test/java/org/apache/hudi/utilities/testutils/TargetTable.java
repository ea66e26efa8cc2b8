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

package org.apache.hudi.utilities.testutils;

/**
 * The target table setups every exactness test writes: the incremental plan must not depend on how Hudi stores and
 * merges the target. On MERGE_ON_READ, Hudi 0.14 merges a key's log records by their ordering values, deletes too;
 * compaction then merges the logs into the base files.
 */
public enum TargetTable {
  COPY_ON_WRITE("COPY_ON_WRITE", "100"),
  /** Every batch a delta commit onto the logs; no compaction within a test. */
  MERGE_ON_READ("MERGE_ON_READ", "100"),
  /** Inline compaction after every second delta commit: batches meet both logs and freshly compacted base files. */
  MERGE_ON_READ_COMPACTED("MERGE_ON_READ", "2");

  private final String tableType;
  private final String compactAfterDeltaCommits;

  TargetTable(String tableType, String compactAfterDeltaCommits) {
    this.tableType = tableType;
    this.compactAfterDeltaCommits = compactAfterDeltaCommits;
  }

  /** Makes the job write this target (the Streamer compacts a MERGE_ON_READ target inline when not continuous). */
  public StreamerJob applyTo(StreamerJob job) {
    return job.tableType(tableType).property("hoodie.compact.inline.max.delta.commits", compactAfterDeltaCommits);
  }
}
