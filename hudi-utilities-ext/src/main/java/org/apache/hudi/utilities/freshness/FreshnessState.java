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

/**
 * What could be said about the data of one source that the target has not committed yet.
 */
public enum FreshnessState {
  /** Nothing waiting after the checkpoint: lag is 0. */
  CAUGHT_UP,
  /** Data waiting: lag is measured from the moment the oldest waiting data became visible. */
  WAITING,
  /** Data waiting, but its oldest record carries no timestamp (Kafka's -1): the lag is suppressed, not guessed. */
  NO_TIMESTAMP,
  /** Data waiting (or possibly waiting) that could not be read in time, or the source failed: no lag. */
  UNREADABLE,
  /** The target holds no checkpoint for this source: there is no value at all ("No Data"). */
  NO_CHECKPOINT,
  /**
   * The checkpoint is past the end of the source's log (a Kafka topic recreated or truncated): no lag, since the
   * records that will land below the checkpoint are never read and cannot be told from caught-up data.
   */
  CHECKPOINT_AHEAD_OF_LOG
}
