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

package org.apache.hudi.utilities.config;

/**
 * How the read windows of the tables of one batch relate in time.
 */
public enum AlignmentMode {

  /**
   * Each table reads its own window, from its position up to its {@code num_instants}, independently of the others.
   * Guarantees per table only: every position is the end of a window that was read and committed.
   */
  NONE,

  /**
   * Every window ends at or before a shared commit-time ceiling, so that no position passes it; see
   * {@link CommitTimeCeiling} and docs/how-a-batch-works.md#alignment-modes for the rule and its guarantees.
   */
  COMMIT_TIME_CEILING
}
