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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server binary from a Debian package run by a test on a free 127.0.0.1 port: started, waited for until its
 * readiness URL answers 200, stopped by process id. Shared by the pushgateway and Prometheus.
 */
final class LocalServer implements AutoCloseable {

  private final Process process;
  private final int port;

  private LocalServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** A port free at the time of the call. */
  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /**
   * The first of the binaries that exists; a missing one fails the test, since CI installs it in .ci/run.
   *
   * @param aptPackage the Debian package that installs it
   */
  static String binary(String aptPackage, String... candidates) {
    return Arrays.stream(candidates).filter(path -> Files.isExecutable(Paths.get(path))).findFirst()
        .orElseThrow(() -> new IllegalStateException("Cannot start " + aptPackage + ": none of "
            + Arrays.toString(candidates) + " exists (apt-get install " + aptPackage + "; .ci/run does)"));
  }

  /**
   * @param command   the command line, listening on {@code port}
   * @param readyPath the path that answers 200 once the server is ready
   */
  static LocalServer start(List<String> command, int port, String readyPath, Path log)
      throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    LocalServer server = new LocalServer(process, port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!server.answers(readyPath)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        server.close();
        throw new IllegalStateException("Cannot start " + command.get(0) + " on port " + port + ": not ready (see "
            + log + ": " + new String(Files.readAllBytes(log), StandardCharsets.UTF_8) + ")");
      }
      Thread.sleep(100);
    }
    return server;
  }

  int port() {
    return port;
  }

  /** The body of a GET of the path. */
  String get(String pathAndQuery) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) new URL("http://127.0.0.1:" + port + pathAndQuery)
        .openConnection();
    try (InputStream in = connection.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      connection.disconnect();
    }
  }

  private boolean answers(String path) {
    try {
      HttpURLConnection connection = (HttpURLConnection) new URL("http://127.0.0.1:" + port + path).openConnection();
      try {
        return connection.getResponseCode() == 200;
      } finally {
        connection.disconnect();
      }
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
