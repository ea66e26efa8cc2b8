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
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An S3 endpoint that misbehaves as S3 does under load: an HTTP proxy on a free 127.0.0.1 port in front of a real
 * endpoint (S3Proxy), which, while faults are on, answers a share of requests with {@code 503 SlowDown} without
 * passing them on, and cuts a share of others off in the middle of the response, after the real endpoint has carried
 * them out (the connection reset after the head and half of the body). Every other request passes through unchanged,
 * but for its Connection header, so that signatures still hold (the client signs for this endpoint's host, which the
 * real endpoint checks as it receives it).
 *
 * <p>Requests are parsed only as far as HTTP/1.1 framing needs: a body of {@code Content-Length} bytes (the AWS SDK
 * sends no chunked request bodies), {@code Expect: 100-continue} answered here. Each request goes to the real endpoint
 * on a connection of its own, which it closes after the response, so a response needs no parsing. Which requests fail
 * is drawn from a seeded random sequence; as requests come from several threads, the seed fixes the shares, not which
 * request draws which fault.
 */
public final class FaultyS3Endpoint implements Closeable {

  /** A fault, or none. */
  public enum Fault { NONE, SLOW_DOWN, CUT_MID_RESPONSE }

  private static final String SLOW_DOWN_BODY = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code>"
      + "<Message>Please reduce your request rate.</Message><RequestId>faulty-endpoint</RequestId></Error>";

  private final ServerSocket server;
  private final URI backend;
  private final Random random;
  private final ExecutorService connections = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "faulty-s3-endpoint");
    thread.setDaemon(true);
    return thread;
  });
  private final Map<Fault, AtomicLong> served = new ConcurrentHashMap<>();
  private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
  private volatile double slowDownShare;
  private volatile double cutShare;

  private FaultyS3Endpoint(ServerSocket server, URI backend, long seed) {
    this.server = server;
    this.backend = backend;
    this.random = new Random(seed);
    for (Fault fault : Fault.values()) {
      served.put(fault, new AtomicLong());
    }
  }

  /** Starts the proxy in front of {@code backendEndpoint} ({@code http://host:port}), faults off. */
  public static FaultyS3Endpoint start(String backendEndpoint, long seed) throws IOException {
    FaultyS3Endpoint endpoint = new FaultyS3Endpoint(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
        URI.create(backendEndpoint), seed);
    endpoint.connections.submit(endpoint::accept);
    return endpoint;
  }

  public String endpoint() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** From now on, answers this share of requests with 503 SlowDown and cuts this share of others off. */
  public void faults(double slowDown, double cutMidResponse) {
    this.slowDownShare = slowDown;
    this.cutShare = cutMidResponse;
  }

  /** How many requests were served with each fault, or none, so far. */
  public long served(Fault fault) {
    return served.get(fault).get();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket client : clients) {
      client.close();
    }
    connections.shutdownNow();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        clients.add(client);
        connections.submit(() -> serve(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  /** Serves one request of a client connection, then closes it. */
  private void serve(Socket client) {
    try (Socket closing = client) {
      serveOneRequest(client);
    } catch (SocketException e) {
      // The client went away, or a fault or close() closed the connection.
    } catch (IOException e) {
      throw new IllegalStateException("faulty endpoint: " + e, e);
    } finally {
      clients.remove(client);
    }
  }

  private void serveOneRequest(Socket client) throws IOException {
    InputStream in = client.getInputStream();
    OutputStream out = client.getOutputStream();
    Head request = Head.read(in);
    if (request == null) {
      return;
    }
    Fault fault = draw();
    served.get(fault).incrementAndGet();
    if (fault == Fault.SLOW_DOWN) {
      // Answered before the body: a client that waits for 100-continue never sends it; a body already on its way is
      // left unread, as the connection closes.
      byte[] body = SLOW_DOWN_BODY.getBytes(StandardCharsets.UTF_8);
      out.write(("HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: " + body.length
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      return;
    }
    if ("100-continue".equalsIgnoreCase(request.header("expect"))) {
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }
    byte[] response = exchangeWithRealEndpoint(request, in.readNBytes((int) request.contentLength()));
    if (fault == Fault.CUT_MID_RESPONSE) {
      // A dropped connection: the head whole, half of the body (none if it has none), then a reset. A clean close
      // inside the head would be no network fault but a forged response (S3 over TLS cannot end that way): the
      // client would take a header cut short, an ETag or a Content-Length, for the real one.
      int headLength = headLength(response);
      out.write(response, 0, headLength == response.length ? 0 : headLength + (response.length - headLength) / 2);
      out.flush();
      client.setSoLinger(true, 0);
      return;
    }
    // The response ends where the real endpoint closed its connection (it may be framed by nothing else), so this
    // connection closes after it too.
    out.write(response);
    out.flush();
  }

  /** The length of the response's head, up to and with the blank line that ends it. */
  private static int headLength(byte[] response) {
    for (int i = 3; i < response.length; i++) {
      if (response[i - 3] == '\r' && response[i - 2] == '\n' && response[i - 1] == '\r' && response[i] == '\n') {
        return i + 1;
      }
    }
    return response.length;
  }

  /**
   * Sends the request to the real endpoint on a connection of its own, asking it to close the connection after the
   * response (AWS signatures leave the Connection header out), and returns the response as received up to that close:
   * its final response, 1xx interim responses skipped (this endpoint answered 100-continue itself).
   */
  private byte[] exchangeWithRealEndpoint(Head request, byte[] requestBody) throws IOException {
    try (Socket real = new Socket(backend.getHost(), backend.getPort())) {
      real.setSoTimeout(60_000);
      OutputStream toReal = real.getOutputStream();
      toReal.write(request.withConnectionClose());
      toReal.write(requestBody);
      toReal.flush();
      InputStream fromReal = real.getInputStream();
      Head head = Head.read(fromReal);
      while (head != null && head.status() / 100 == 1) {
        head = Head.read(fromReal);
      }
      if (head == null) {
        throw new SocketException("the real endpoint closed the connection without a response");
      }
      ByteArrayOutputStream response = new ByteArrayOutputStream();
      response.write(head.bytes);
      fromReal.transferTo(response);
      return response.toByteArray();
    }
  }

  private synchronized Fault draw() {
    double draw = random.nextDouble();
    if (draw < slowDownShare) {
      return Fault.SLOW_DOWN;
    }
    return draw < slowDownShare + cutShare ? Fault.CUT_MID_RESPONSE : Fault.NONE;
  }

  /** The start line and headers of a request or response, as received, and the fields framing needs. */
  private static final class Head {
    private final byte[] bytes;
    private final String startLine;
    private final Map<String, String> headers;

    private Head(byte[] bytes, String startLine, Map<String, String> headers) {
      this.bytes = bytes;
      this.startLine = startLine;
      this.headers = headers;
    }

    /** Reads up to the blank line after the headers; null if the stream ends before a new head starts. */
    private static Head read(InputStream in) throws IOException {
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      int matched = 0;
      int b;
      while (matched < 4 && (b = in.read()) != -1) {
        raw.write(b);
        int expected = matched % 2 == 0 ? '\r' : '\n';
        matched = b == expected ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      if (matched < 4) {
        if (raw.size() == 0) {
          return null;
        }
        throw new SocketException("connection closed inside a head");
      }
      String[] lines = raw.toString(StandardCharsets.ISO_8859_1).split("\r\n");
      Map<String, String> headers = new HashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon > 0) {
          headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
      }
      return new Head(raw.toByteArray(), lines[0], headers);
    }

    /** The head with its Connection header, if any, replaced by {@code Connection: close}. */
    byte[] withConnectionClose() {
      StringBuilder head = new StringBuilder();
      for (String line : new String(bytes, StandardCharsets.ISO_8859_1).split("\r\n")) {
        if (!line.isEmpty() && !line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
          head.append(line).append("\r\n");
        }
      }
      return head.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    String header(String lowerCaseName) {
      return headers.get(lowerCaseName);
    }

    long contentLength() {
      String length = headers.get("content-length");
      return length == null ? 0 : Long.parseLong(length);
    }

    int status() {
      return Integer.parseInt(startLine.split(" ", 3)[1]);
    }
  }
}
