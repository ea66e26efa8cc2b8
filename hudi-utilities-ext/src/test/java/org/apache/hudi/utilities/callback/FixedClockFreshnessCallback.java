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

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * {@link FreshnessCommitCallback} on a clock the test sets, for Streamer runs in the test's JVM: Hudi instantiates the
 * callback by name, so the clock travels through a static field.
 */
public final class FixedClockFreshnessCallback implements HoodieWriteCommitCallback {

  private static volatile Clock clock = Clock.systemUTC();

  private final FreshnessCommitCallback callback;

  public FixedClockFreshnessCallback(HoodieWriteConfig config) {
    this.callback = new FreshnessCommitCallback(config, clock);
  }

  /** The time every callback created from now on measures at. */
  public static void measureAt(Instant now) {
    clock = Clock.fixed(now, ZoneOffset.UTC);
  }

  @Override
  public void call(HoodieWriteCommitCallbackMessage message) {
    callback.call(message);
  }
}
