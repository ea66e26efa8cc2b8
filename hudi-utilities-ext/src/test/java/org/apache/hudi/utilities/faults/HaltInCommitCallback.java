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

package org.apache.hudi.utilities.faults;

import org.apache.hudi.callback.HoodieWriteCommitCallback;
import org.apache.hudi.callback.common.HoodieWriteCommitCallbackMessage;
import org.apache.hudi.config.HoodieWriteConfig;

/**
 * A post-commit callback ({@code hoodie.write.commit.callback.on=true},
 * {@code hoodie.write.commit.callback.class=<this class>}) that halts the JVM when
 * {@link CrashPoint#IN_COMMIT_CALLBACK} is armed. Hudi calls it once the commit is complete.
 */
public class HaltInCommitCallback implements HoodieWriteCommitCallback {

  public HaltInCommitCallback(HoodieWriteConfig config) {
  }

  @Override
  public void call(HoodieWriteCommitCallbackMessage message) {
    CrashPoint.IN_COMMIT_CALLBACK.haltIfArmed("post-commit callback of completed instant " + message.getCommitTime()
        + " on " + message.getBasePath());
  }
}
