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

package org.apache.hudi.utilities.freshness;

import java.io.PrintStream;
import java.time.Clock;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.utilities.hudi014.FreshnessReporter;

/**
 * The standalone freshness reporter: watches many pipelines listed in a YAML file ({@link ReporterConfig}), needs no
 * change to them and no Spark, and still reports when a pipeline is stuck and commits nothing.
 *
 * <pre>
 * java -cp &lt;Hudi bundles, Spark's jars, this plugin&gt; \
 *   org.apache.hudi.utilities.freshness.FreshnessReporterCli --config freshness.yaml [--interval 60]
 * </pre>
 *
 * <p>Options: {@code --config}, {@code --max-commit-depth} (default 100), {@code --interval} seconds, {@code --rounds},
 * {@code --history}, {@code --history-limit}, {@code --chart} (a PNG of one pipeline's history, with
 * {@code --chart-pipeline}, {@code --chart-width}, {@code --chart-height}), {@code --http-port} and {@code --http-host}
 * (serve the labelled metrics for Prometheus); the work is done by the Hudi 0.14 glue, {@link FreshnessReporter#run}.
 */
public final class FreshnessReporterCli {

  private FreshnessReporterCli() {
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out, Clock.systemUTC(), new Configuration()));
  }

  /**
   * @return 0 when every pipeline was measured (or its history printed), 1 when one failed, 2 on bad arguments
   */
  static int run(String[] args, PrintStream out, Clock clock, Configuration hadoopConf) throws Exception {
    return FreshnessReporter.run(args, out, clock, hadoopConf);
  }
}
