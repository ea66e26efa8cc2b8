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
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hudi.common.util.Option;

/**
 * A real Prometheus pushgateway (Debian package prometheus-pushgateway) on a free 127.0.0.1 port, started by the test
 * and stopped after it. A missing binary fails the test: CI installs it in .ci/run.
 */
public final class Pushgateway implements AutoCloseable {

  private static final String[] BINARIES = {"/usr/bin/prometheus-pushgateway", "/usr/local/bin/pushgateway",
      "/usr/local/bin/prometheus-pushgateway"};

  private final Process process;
  private final int port;

  private Pushgateway(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  public static Pushgateway start(Path log) throws IOException, InterruptedException {
    String binary = binary().orElseThrow(() -> new IllegalStateException("Cannot start the Prometheus pushgateway: "
        + "none of " + Arrays.toString(BINARIES) + " exists (apt-get install prometheus-pushgateway; .ci/run does)"));
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Process process = new ProcessBuilder(binary, "--web.listen-address=127.0.0.1:" + port)
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Pushgateway gateway = new Pushgateway(process, port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!gateway.ready()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        gateway.close();
        throw new IllegalStateException("Cannot start the Prometheus pushgateway on port " + port + ": not ready "
            + "(see " + log + ": " + new String(Files.readAllBytes(log), StandardCharsets.UTF_8) + ")");
      }
      Thread.sleep(100);
    }
    return gateway;
  }

  public int port() {
    return port;
  }

  /** The text exposition of /metrics. */
  public String scrapeText() throws IOException {
    HttpURLConnection connection = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/metrics")
        .openConnection();
    try (InputStream in = connection.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      connection.disconnect();
    }
  }

  /**
   * The samples of /metrics whose name starts with the prefix, by name; labels are left out (each name is expected
   * once).
   */
  public Map<String, Double> scrape(String namePrefix) throws IOException {
    Map<String, Double> samples = new TreeMap<>();
    for (String line : scrapeText().split("\n")) {
      if (line.startsWith(namePrefix)) {
        int nameEnd = line.indexOf('{') >= 0 ? line.indexOf('{') : line.indexOf(' ');
        String name = line.substring(0, nameEnd);
        double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        if (samples.put(name, value) != null) {
          throw new IllegalStateException("Metric " + name + " is pushed more than once:\n" + scrapeText());
        }
      }
    }
    return samples;
  }

  private boolean ready() {
    try {
      HttpURLConnection connection = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/-/ready")
          .openConnection();
      try {
        return connection.getResponseCode() == 200;
      } finally {
        connection.disconnect();
      }
    } catch (IOException e) {
      return false;
    }
  }

  private static Option<String> binary() {
    return Option.fromJavaOptional(Arrays.stream(BINARIES).filter(path -> Files.isExecutable(Paths.get(path)))
        .findFirst());
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
