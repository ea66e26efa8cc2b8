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

package org.apache.hudi.utilities.callback;

import org.apache.hudi.callback.HoodieWriteCommitCallback;
import org.apache.hudi.callback.common.HoodieWriteCommitCallbackMessage;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.hudi014.FreshnessRecorder;

import java.time.Clock;

/**
 * The in-pipeline recorder: after every Streamer commit, measures each source's freshness against the checkpoint the
 * commit just stored, and records it through Hudi's metrics and in the target's freshness history.
 *
 * <p>Enable with {@code hoodie.write.commit.callback.on=true} and
 * {@code hoodie.write.commit.callback.class=org.apache.hudi.utilities.callback.FreshnessCommitCallback}; settings in
 * {@code HoodieFreshnessConfig}.
 *
 * <p>The commit is durable when Hudi calls this, and an exception here would fail the Streamer round all the same:
 * this callback never throws. Every failure is logged and counted as a failed measurement. The work is done by the
 * Hudi 0.14 glue, {@link FreshnessRecorder#recordCommit}.
 */
public final class FreshnessCommitCallback implements HoodieWriteCommitCallback {

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
    FreshnessRecorder.recordCommit(config, message, clock);
  }
}
