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
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A TCP proxy on a free 127.0.0.1 port that adds a round-trip latency to each HTTP request it forwards: the first
 * bytes a client sends after the server's last answer (the start of its next request on a kept-alive connection) wait
 * {@link #delay} milliseconds before they are passed on. What an object store far from the client costs per request,
 * for a server that answers at once. Each request's first line ({@code GET /bucket/key?query HTTP/1.1}) can be handed to
 * a listener ({@link #onRequest}), to count what a client asked for.
 */
final class DelayingProxy implements AutoCloseable {

  private static final int BUFFER_BYTES = 64 * 1024;

  private final ServerSocket server;
  private final int targetPort;
  private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "delaying-proxy");
    thread.setDaemon(true);
    return thread;
  });
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile long delayMillis;
  private volatile Consumer<String> requestLines = line -> { };

  private DelayingProxy(ServerSocket server, int targetPort) {
    this.server = server;
    this.targetPort = targetPort;
  }

  /** Starts forwarding to {@code 127.0.0.1:targetPort}, without delay until {@link #delay} is set. */
  static DelayingProxy start(int targetPort) throws IOException {
    DelayingProxy proxy = new DelayingProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), targetPort);
    proxy.threads.execute(proxy::accept);
    return proxy;
  }

  /** The endpoint clients use instead of the server's. */
  String endpoint() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** From now on, each request waits {@code millis} before it reaches the server. */
  void delay(long millis) {
    this.delayMillis = millis;
  }

  /**
   * From now on, the first line of each request is handed to {@code listener} on the proxy's thread, before the
   * request waits; a line split across two reads is handed as far as the first read holds it.
   */
  void onRequest(Consumer<String> listener) {
    this.requestLines = listener;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(upstream);
        // Set by every answer of the server: the client's next bytes start a request.
        AtomicBoolean requestStarts = new AtomicBoolean(true);
        threads.execute(() -> pump(client, upstream, requestStarts, true));
        threads.execute(() -> pump(upstream, client, requestStarts, false));
      } catch (IOException e) {
        if (!server.isClosed()) {
          throw new IllegalStateException("Cannot accept a connection on " + endpoint(), e);
        }
      }
    }
  }

  private void pump(Socket from, Socket to, AtomicBoolean requestStarts, boolean towardsServer) {
    byte[] buffer = new byte[BUFFER_BYTES];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int read;
      while ((read = in.read(buffer)) >= 0) {
        if (!towardsServer) {
          requestStarts.set(true);
        } else if (requestStarts.getAndSet(false)) {
          requestLines.accept(firstLine(buffer, read));
          if (delayMillis > 0) {
            Thread.sleep(delayMillis);
          }
        }
        out.write(buffer, 0, read);
        out.flush();
      }
    } catch (IOException e) {
      // The other side closed the connection: so does this one.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static String firstLine(byte[] buffer, int length) {
    int end = 0;
    while (end < length && buffer[end] != '\r' && buffer[end] != '\n') {
      end++;
    }
    return new String(buffer, 0, end, StandardCharsets.ISO_8859_1);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing anyway.
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    sockets.forEach(DelayingProxy::closeQuietly);
    threads.shutdownNow();
  }
}
