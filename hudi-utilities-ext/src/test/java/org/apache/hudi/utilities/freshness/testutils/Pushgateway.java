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
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A real Prometheus pushgateway (Debian package prometheus-pushgateway) on a free 127.0.0.1 port, started by the test
 * and stopped after it. A missing binary fails the test: CI installs it in .ci/run.
 */
public final class Pushgateway implements AutoCloseable {

  private final LocalServer server;

  private Pushgateway(LocalServer server) {
    this.server = server;
  }

  public static Pushgateway start(Path log) throws IOException, InterruptedException {
    String binary = LocalServer.binary("prometheus-pushgateway", "/usr/bin/prometheus-pushgateway",
        "/usr/local/bin/pushgateway", "/usr/local/bin/prometheus-pushgateway");
    int port = LocalServer.freePort();
    // Debian's build persists to /var/lib/prometheus/pushgateway.data by default: every test would see the series
    // of the tests before it (and of other processes). An empty file name keeps them in memory.
    return new Pushgateway(LocalServer.start(List.of(binary, "--web.listen-address=127.0.0.1:" + port,
        "--persistence.file="), port, "/-/ready", log));
  }

  public int port() {
    return server.port();
  }

  /** The text exposition of /metrics. */
  public String scrapeText() throws IOException {
    return server.get("/metrics");
  }

  /**
   * The samples of /metrics whose name starts with the prefix, by name; labels are left out (each name is expected
   * once).
   */
  public Map<String, Double> scrape(String namePrefix) throws IOException {
    Map<String, Double> samples = new TreeMap<>();
    String text = scrapeText();
    for (String line : text.split("\n")) {
      if (line.startsWith(namePrefix)) {
        int nameEnd = line.indexOf('{') >= 0 ? line.indexOf('{') : line.indexOf(' ');
        String name = line.substring(0, nameEnd);
        double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        if (samples.put(name, value) != null) {
          throw new IllegalStateException("Metric " + name + " is pushed more than once:\n" + text);
        }
      }
    }
    return samples;
  }

  @Override
  public void close() throws InterruptedException {
    server.close();
  }
}
