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

/** Where a source's data waits before the Streamer reads it. */
public enum SourceKind {
  /** A Hudi table read incrementally; its position is an instant time. */
  HUDI("pending_instants"),
  /** A Kafka topic; its position is the next offset to read of every partition. */
  KAFKA("offset_lag");

  private final String pendingMetric;

  SourceKind(String pendingMetric) {
    this.pendingMetric = pendingMetric;
  }

  /** The metric name part of the pending amount: instants for Hudi, records (offsets) for Kafka. */
  public String pendingMetric() {
    return pendingMetric;
  }
}
