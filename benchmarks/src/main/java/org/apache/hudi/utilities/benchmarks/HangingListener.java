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

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server on a free 127.0.0.1 port that accepts every connection and never answers: an object store whose requests
 * hang (a client waits for its socket timeout). Counts the connections it accepted.
 */
final class HangingListener implements AutoCloseable {

  private final ServerSocket server;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  private HangingListener(ServerSocket server) {
    this.server = server;
    this.acceptor = new Thread(this::accept, "hanging-listener");
    acceptor.setDaemon(true);
  }

  static HangingListener start() throws IOException {
    HangingListener listener = new HangingListener(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    listener.acceptor.start();
    return listener;
  }

  String endpoint() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  int connectionsAccepted() {
    return accepted.size();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        // Held open, never read from nor written to.
        accepted.add(server.accept());
      } catch (IOException e) {
        return;
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : accepted) {
      socket.close();
    }
  }
}
