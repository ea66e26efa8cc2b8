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

package org.apache.hudi.utilities.checkpoint;

import org.apache.hudi.utilities.hudi014.CheckpointTool;

import org.apache.hadoop.conf.Configuration;

import java.io.PrintStream;
import java.time.Clock;

/**
 * The checkpoint tools of a multi-table pipeline: show a target's stored checkpoint per table, and build the
 * {@code --checkpoint} override that moves some tables while keeping the others. Reads only; writes nothing.
 *
 * <pre>
 * java -cp &lt;Hudi bundles, Spark's jars, this plugin&gt; org.apache.hudi.utilities.checkpoint.CheckpointCli \
 *   show --props job.properties --target-base-path s3a://lake/joined
 * java -cp ... org.apache.hudi.utilities.checkpoint.CheckpointCli \
 *   override --props job.properties --target-base-path s3a://lake/joined --set users=LATEST
 * </pre>
 *
 * <p>The work is done by the Hudi 0.14 glue, {@link CheckpointTool#run}.
 */
public final class CheckpointCli {

  private CheckpointCli() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, Clock.systemUTC(), new Configuration()));
  }

  /**
   * @return 0 on success, 1 when {@code show} finds a table whose next batch cannot be read incrementally, 2 on bad
   *     arguments
   */
  static int run(String[] args, PrintStream out, Clock clock, Configuration hadoopConf) {
    return CheckpointTool.run(args, out, clock, hadoopConf);
  }
}
