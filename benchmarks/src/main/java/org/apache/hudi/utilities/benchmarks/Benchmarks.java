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

package org.apache.hudi.utilities.benchmarks;

import org.apache.hudi.common.util.Option;

import java.util.Arrays;
import java.util.List;

/**
 * Entry point of {@code benchmarks/run.sh <name> [args]}; without a name it lists the benchmarks. A new benchmark is a
 * new {@link Benchmark} class added to {@link #ALL}.
 */
public final class Benchmarks {

  private static final List<Benchmark> ALL = List.of(new FreshnessBenchmark(), new ExactJoinBenchmark(),
      new DeleteAwareJoinBenchmark(), new MultiTableBenchmark(), new S3Benchmark(), new ViewsBenchmark(),
      new SnapshotKeysBenchmark(), new FreshnessFleetBenchmark());

  private Benchmarks() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      // The documented way to list them: bash benchmarks/run.sh
      System.out.println("Benchmarks (bash benchmarks/run.sh <name> [args]):");
      ALL.forEach(benchmark -> System.out.println("  " + benchmark.name() + "  " + benchmark.description()));
      System.exit(0);
    }
    Option<Benchmark> chosen = named(args[0]);
    if (!chosen.isPresent()) {
      System.err.println("Cannot run benchmark '" + args[0] + "': name one of");
      ALL.forEach(benchmark -> System.err.println("  " + benchmark.name() + "  " + benchmark.description()));
      System.exit(2);
    }
    chosen.get().run(Arrays.asList(args).subList(1, args.length), System.out);
    // Spark and Hudi leave non-daemon threads behind.
    System.exit(0);
  }

  private static Option<Benchmark> named(String name) {
    for (Benchmark benchmark : ALL) {
      if (benchmark.name().equals(name)) {
        return Option.of(benchmark);
      }
    }
    return Option.empty();
  }
}
