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

package org.apache.hudi.utilities.freshness.hudi014;

import org.apache.hudi.utilities.freshness.KafkaQueueProbe;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.QueueProbe;
import org.apache.hudi.utilities.freshness.QueueProbes;
import org.apache.hudi.utilities.freshness.SourceSpec;

import org.apache.hadoop.conf.Configuration;

/**
 * The probes on Hudi 0.14: Hudi sources through their 0.14 timeline, Kafka sources through a Kafka consumer (loaded
 * only for Kafka sources, so that pipelines without Kafka need no Kafka client).
 */
public final class HudiQueueProbes implements QueueProbes {

  private final Configuration hadoopConf;

  public HudiQueueProbes(Configuration hadoopConf) {
    this.hadoopConf = hadoopConf;
  }

  @Override
  public QueueProbe forSource(PipelineSpec pipeline, SourceSpec source) {
    switch (source.kind()) {
      case HUDI:
        return new HudiTimelineProbe(hadoopConf, source.hudiPath().get());
      case KAFKA:
        return KafkaQueueProbe.forSource(source, pipeline.kafkaPollTimeout(), pipeline.kafkaMetadataTimeout());
      default:
        throw new IllegalArgumentException("Cannot probe source " + source + ": kind " + source.kind()
            + " is not supported");
    }
  }
}
