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

package org.apache.hudi.utilities.explain;

import org.apache.hudi.utilities.UtilHelpers;
import org.apache.hudi.utilities.hudi014.ExplainTool;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

import java.io.PrintStream;
import java.time.Clock;

/**
 * Explains the next batch of a multi-table Streamer job before running it (a dry run): per table the window it would
 * read, the alignment decision, what each placeholder of the SQL file binds to, and Spark's plan of the SQL. Takes the
 * Streamer's own {@code --props} and {@code --target-base-path}, and optionally the {@code --checkpoint} the next run
 * would pass. Reads the sources; writes nothing.
 *
 * <pre>
 * spark-submit --class org.apache.hudi.utilities.explain.ExplainCli &lt;this plugin jar&gt; \
 *   --props job.properties --target-base-path s3a://lake/joined [--checkpoint 'users=LATEST']
 * </pre>
 *
 * <p>The work is done by the Hudi 0.14 glue, {@link ExplainTool#run}.
 */
public final class ExplainCli {

  private ExplainCli() {
  }

  public static void main(String[] args) {
    // The master is spark-submit's, or local for a run on the driver alone.
    JavaSparkContext jsc = UtilHelpers.buildSparkContext("hudi-multi-table-explain", "local[2]");
    int exitCode;
    try {
      exitCode = run(args, System.out, Clock.systemUTC(), SparkSession.builder().config(jsc.getConf()).getOrCreate());
    } finally {
      jsc.stop();
    }
    System.exit(exitCode);
  }

  /**
   * @return 0 on success, 1 if the batch would fail, 2 on bad arguments or settings
   */
  static int run(String[] args, PrintStream out, Clock clock, SparkSession spark) {
    return ExplainTool.run(args, out, clock, spark);
  }
}
