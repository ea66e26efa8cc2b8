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

package org.apache.hudi.utilities.freshness.testutils;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Prometheus' promtool (Debian package prometheus), run on files of the repository. */
public final class Promtool {

  private Promtool() {
  }

  /** What a run printed and how it ended. */
  public static final class Result {
    public final int exitCode;
    public final String output;

    Result(int exitCode, String output) {
      this.exitCode = exitCode;
      this.output = output;
    }
  }

  /** {@code promtool <command...> <files...>}. */
  public static Result run(List<String> command, Path... files) throws IOException, InterruptedException {
    List<String> line = new ArrayList<>();
    line.add(LocalServer.binary("prometheus", "/usr/bin/promtool", "/usr/local/bin/promtool"));
    line.addAll(command);
    Arrays.stream(files).forEach(file -> line.add(file.toAbsolutePath().toString()));
    Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new IllegalStateException("promtool did not finish within 60 s: " + line);
    }
    return new Result(process.exitValue(), output);
  }
}
