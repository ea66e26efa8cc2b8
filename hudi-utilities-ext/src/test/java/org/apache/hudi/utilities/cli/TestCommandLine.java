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

package org.apache.hudi.utilities.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the command-line tools share: one stream for the result, one duration form per output. */
class TestCommandLine {

  @Test
  void onceAToolClaimsStdoutOnlyItsResultGoesThereAndWhatLibrariesPrintGoesToStderr() {
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      PrintStream result = CommandLine.claimStdout();
      System.out.println("# WARNING: Unable to attach Serviceability Agent.");
      result.println("{ }");
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
    assertEquals("{ }\n", out.toString(StandardCharsets.UTF_8));
    assertEquals("# WARNING: Unable to attach Serviceability Agent.\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void durationsAreWholeSecondsInTextAndSecondsWithMillisecondsInJson() {
    assertEquals("4m12s", CommandLine.duration(Duration.ofMillis(252_700)));
    assertEquals("26h3m", CommandLine.duration(Duration.ofMinutes(26 * 60 + 3)));
    assertEquals("0s", CommandLine.duration(Duration.ofSeconds(-5)));
    assertEquals(161.204, CommandLine.seconds(Duration.ofMillis(161_204)));
  }
}
