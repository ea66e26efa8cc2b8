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

package org.apache.hudi.utilities.testutils;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.ToIntBiFunction;

/** What a command-line tool printed, to its output and to its error stream, and its exit status, from a run in this JVM. */
public final class CapturedRun {

  public final int exitCode;
  public final String output;
  public final String errors;

  private CapturedRun(int exitCode, String output, String errors) {
    this.exitCode = exitCode;
    this.output = output;
    this.errors = errors;
  }

  /** Runs a tool that prints to the output and error streams it is given and returns its exit status. */
  public static CapturedRun of(ToIntBiFunction<PrintStream, PrintStream> tool) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exitCode = tool.applyAsInt(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CapturedRun(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Both streams, to show in a failed assertion. */
  @Override
  public String toString() {
    return "exit status " + exitCode + "\n--- output:\n" + output + "\n--- errors:\n" + errors;
  }
}
