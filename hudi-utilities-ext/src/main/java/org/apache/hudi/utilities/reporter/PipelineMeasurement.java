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

package org.apache.hudi.utilities.reporter;

import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;

import java.util.List;

/**
 * What a round's worker runs for one pipeline: measure it and publish the measurement. The one seam between the round
 * (workers, deadlines, containment: {@link MeasurementRound}) and what is measured, so that a measurement reading
 * clients kept across rounds (the Hudi tables of {@link HudiTableCache}, a Kafka client per cluster) plugs in here.
 */
public interface PipelineMeasurement {

  /**
   * Called once per round, before any of its pipelines is measured, on the round's thread: where state kept across
   * rounds learns that a new round starts (tables reload once per round), and where a batched read per round belongs.
   * Must return quickly or bound itself: the round's deadlines start after it.
   */
  default void beginRound(List<PipelineSpec> pipelines) {
  }

  /**
   * Measures and publishes one pipeline, on a worker thread, concurrently with the other pipelines of the round.
   *
   * @return the measurement, already published
   * @throws Exception when the pipeline cannot be measured; the round counts it as failed and goes on
   */
  PipelineFreshness measure(PipelineSpec pipeline) throws Exception;
}
