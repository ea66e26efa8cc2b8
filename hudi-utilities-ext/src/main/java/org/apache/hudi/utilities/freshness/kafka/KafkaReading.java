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

package org.apache.hudi.utilities.freshness.kafka;

import org.apache.hudi.utilities.freshness.QueueHead;

import java.util.Objects;

/**
 * What a Kafka cluster said about one source position: what waits after it, or why it could not be read, and whether
 * the cluster answered at all (a cluster down, unreachable or refusing the reporter's credentials did not).
 */
public final class KafkaReading {

  private final QueueHead head;
  private final String failure;
  private final boolean clusterAnswered;

  private KafkaReading(QueueHead head, String failure, boolean clusterAnswered) {
    this.head = head;
    this.failure = failure;
    this.clusterAnswered = clusterAnswered;
  }

  static KafkaReading of(QueueHead head) {
    return new KafkaReading(Objects.requireNonNull(head, "head"), null, true);
  }

  /**
   * A position the cluster answered for but that has no value (a topic gone, a malformed checkpoint).
   *
   * @param reason a message "Cannot ...: why (what to change)"
   */
  static KafkaReading failed(String reason) {
    return new KafkaReading(null, Objects.requireNonNull(reason, "reason"), true);
  }

  /**
   * A position of a cluster that did not answer the request for its topics and offsets.
   *
   * @param reason a message "Cannot ...: why (what to change)"
   */
  static KafkaReading clusterUnreachable(String reason) {
    return new KafkaReading(null, Objects.requireNonNull(reason, "reason"), false);
  }

  /** Whether the cluster answered the round's request for topics and offsets. */
  public boolean clusterAnswered() {
    return clusterAnswered;
  }

  /**
   * @return what waits after the position
   * @throws IllegalStateException with the reason, if the position could not be read; the probe's caller records
   *     the source as unreadable with that reason
   */
  public QueueHead head() {
    if (head == null) {
      throw new IllegalStateException(failure);
    }
    return head;
  }

  @Override
  public String toString() {
    return head == null ? "KafkaReading{failed: " + failure + "}" : "KafkaReading{" + head + "}";
  }
}
