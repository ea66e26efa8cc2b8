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
   * Called once per round, before any of its pipelines is prepared or measured, on the round's thread: where state
   * kept across rounds learns that a new round starts (tables reload once per round). Must return quickly.
   */
  default void beginRound(List<PipelineSpec> pipelines) {
  }

  /**
   * The pipelines of the round that {@link #prepare} must read first, so that the round's batched reads
   * ({@link #beginMeasurements}) can include them; none by default.
   */
  default List<PipelineSpec> unprepared(List<PipelineSpec> pipelines) {
    return List.of();
  }

  /**
   * Reads what the round's batched reads need of one pipeline, on a worker thread, within the pipeline's deadline.
   *
   * @throws Exception when it cannot be read; the round counts the pipeline as failed and does not measure it
   */
  default void prepare(PipelineSpec pipeline) throws Exception {
  }

  /**
   * Called once per round on the round's thread, after the preparations and before any measurement: where a batched
   * read per round belongs. Must return quickly or bound itself: the measurements' deadlines start after it.
   *
   * @param pipelines the pipelines about to be measured (those whose preparation failed or timed out are not)
   */
  default void beginMeasurements(List<PipelineSpec> pipelines) {
  }

  /**
   * Measures and publishes one pipeline, on a worker thread, concurrently with the other pipelines of the round.
   *
   * @return the measurement, already published
   * @throws Exception when the pipeline cannot be measured; the round counts it as failed and goes on
   */
  PipelineFreshness measure(PipelineSpec pipeline) throws Exception;
}
