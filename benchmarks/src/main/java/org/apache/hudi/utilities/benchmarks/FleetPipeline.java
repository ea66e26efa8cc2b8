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

package org.apache.hudi.utilities.benchmarks;

import org.apache.hudi.utilities.freshness.PipelineSpec;

import java.util.OptionalLong;

/**
 * One pipeline of the fleet benchmark: what the reporter is given ({@link #spec()}) and what is true of it, known
 * because the benchmark wrote its records with explicit timestamps and its target's checkpoints: the timestamp of its
 * oldest waiting record (none when caught up or when nothing true can be said), and the records lost below its
 * checkpoint.
 */
final class FleetPipeline {

  /** What is wrong with a pipeline, if anything. */
  enum Fault {
    NONE("healthy", true),
    UNREACHABLE_BROKER("unreachable broker", false),
    DELETED_TOPIC("deleted topic (auto-create broker)", false),
    EXPIRED_RETENTION("expired retention (checkpoint below log start)", true),
    PAST_LOG_END("checkpoint past the log end", false),
    MALFORMED_CHECKPOINT("malformed checkpoint", false),
    HUNG_TARGET("target whose S3 requests hang", false);

    private final String description;
    private final boolean hasTrueLag;

    Fault(String description, boolean hasTrueLag) {
      this.description = description;
      this.hasTrueLag = hasTrueLag;
    }

    String description() {
      return description;
    }

    /** Whether the pipeline has a true lag: if not, any lag published for it is made up. */
    boolean hasTrueLag() {
      return hasTrueLag;
    }
  }

  private final PipelineSpec spec;
  private final Fault fault;
  private final String table;
  private final int partitions;
  private final OptionalLong oldestWaitingAt;
  private final long recordsLost;

  FleetPipeline(PipelineSpec spec, Fault fault, String table, int partitions, OptionalLong oldestWaitingAt,
                long recordsLost) {
    this.spec = spec;
    this.fault = fault;
    this.table = table;
    this.partitions = partitions;
    this.oldestWaitingAt = oldestWaitingAt;
    this.recordsLost = recordsLost;
  }

  PipelineSpec spec() {
    return spec;
  }

  String name() {
    return spec.name();
  }

  Fault fault() {
    return fault;
  }

  /** The target's folder in its bucket, as the S3 requests are counted by. */
  String table() {
    return table;
  }

  int partitions() {
    return partitions;
  }

  /** The CreateTime (epoch ms) of the oldest record waiting after the checkpoint; empty when caught up. */
  OptionalLong oldestWaitingAt() {
    return oldestWaitingAt;
  }

  long recordsLost() {
    return recordsLost;
  }
}
