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

import org.apache.hudi.callback.HoodieWriteCommitCallback;
import org.apache.hudi.callback.common.HoodieWriteCommitCallbackMessage;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.freshness.FreshnessMeter;
import org.apache.hudi.utilities.freshness.FreshnessRecorder;
import org.apache.hudi.utilities.freshness.FreshnessSink;
import org.apache.hudi.utilities.freshness.Observer;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Optional;

/**
 * The in-pipeline recorder: after every Streamer commit, measures each source's freshness against the checkpoint the
 * commit just stored, and records it through Hudi's metrics and in the target's freshness history.
 *
 * <p>Enable with {@code hoodie.write.commit.callback.on=true} and
 * {@code hoodie.write.commit.callback.class=org.apache.hudi.utilities.freshness.hudi014.FreshnessCommitCallback};
 * settings in {@code HoodieFreshnessConfig}.
 *
 * <p>The commit is durable when Hudi calls this, and an exception here would fail the Streamer round all the same:
 * this callback never throws. Every failure is logged and counted in {@code failures_total}.
 */
public final class FreshnessCommitCallback implements HoodieWriteCommitCallback {

  private static final Logger LOG = LoggerFactory.getLogger(FreshnessCommitCallback.class);

  private final HoodieWriteConfig config;
  private final Clock clock;

  /** Called by Hudi; does nothing that can fail. */
  public FreshnessCommitCallback(HoodieWriteConfig config) {
    this(config, Clock.systemUTC());
  }

  FreshnessCommitCallback(HoodieWriteConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
  }

  @Override
  public void call(HoodieWriteCommitCallbackMessage message) {
    record(message);
  }

  /** The measurement of this commit; empty if it failed (logged and counted). */
  Optional<PipelineFreshness> record(HoodieWriteCommitCallbackMessage message) {
    FreshnessSink sink = FreshnessSink.NONE;
    String pipeline = message.getTableName();
    try {
      sink = HudiMetricsSink.of(config, false);
      PipelineSpec spec = StreamerPipelineSpec.from(config.getProps(), message.getBasePath(), message.getTableName());
      pipeline = spec.name();
      Configuration hadoopConf = hadoopConf();
      FreshnessRecorder recorder = new FreshnessRecorder(new FreshnessMeter(clock, new HudiQueueProbes(hadoopConf)),
          hadoopConf);
      return Optional.of(recorder.record(spec,
          new HudiTargetTimeline(hadoopConf).atCommit(message.getBasePath(), message.getCommitTime()),
          Observer.CALLBACK, sink));
    } catch (Exception | LinkageError e) {
      LOG.error("Cannot record the source freshness of commit {} of {} (the commit itself succeeded)",
          message.getCommitTime(), message.getBasePath(), e);
      countFailure(sink, pipeline);
      return Optional.empty();
    }
  }

  private static void countFailure(FreshnessSink sink, String pipeline) {
    try {
      sink.countFailure(pipeline);
    } catch (RuntimeException e) {
      LOG.error("Cannot count the freshness failure of {} in metrics", pipeline, e);
    }
  }

  /** The job's Hadoop settings when it runs in Spark (as the Streamer does), else those of the classpath. */
  private static Configuration hadoopConf() {
    return SparkSession.getDefaultSession().isDefined()
        ? new Configuration(SparkSession.getDefaultSession().get().sparkContext().hadoopConfiguration())
        : new Configuration();
  }
}
