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
 * What an operator should think of a source, derived by {@link StatusRules} from its freshness history, without
 * thresholds of its own (the window is the pipeline's SLA unless set). Exported as {@code hudi_freshness_status}.
 */
public enum SourceStatus {
  /** Data waits, and the pipeline keeps up with it. */
  OK,
  /** The lag grew across the window while the position moved: the pipeline reads, but slower than data arrives. */
  LAGGING,
  /** Data has waited at an unchanged position for at least the window: the pipeline is not reading this source. */
  STALLED,
  /** Nothing waits: the pipeline has read everything the source holds. */
  IDLE,
  /** The lag cannot be known now (no checkpoint, no timestamp, source unreadable). */
  NO_DATA
}
