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

import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.AmazonS3ClientBuilder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A real S3 endpoint for tests and benchmarks: S3Proxy ({@code org.gaul:s3proxy}) in its own JVM on a free 127.0.0.1
 * port, so that its ~130 jars (jclouds, its own Jetty) never meet Spark's or Hudi's. Its classpath is resolved by Maven at build time
 * (module {@code test-servers/s3proxy}, file named by the system property {@code s3proxy.classpath.file}). Clients
 * reach it through Hadoop's S3A with {@link #s3aSettings()}.
 *
 * <p>Objects are kept in S3Proxy's memory ({@code jclouds.provider=transient}): a flat key space like S3's. Its
 * folder-backed stores ({@code filesystem}, {@code filesystem-nio2}) map a key ending in {@code /} onto a real
 * directory, so the directory markers that S3A creates and deletes break them: deleting the marker of a non-empty
 * folder (which S3A does after every write, and in every recursive delete) retries for about 40 s ({@code filesystem})
 * or fails with HTTP 500 ({@code filesystem-nio2}). Tests keep their data small; the JVM has 768 MB.
 *
 * <p>{@link #close()} stops the S3Proxy JVM and anything it started, and forgets the cached S3A file systems of its
 * buckets. Its log is kept under {@code target/test-server-logs}, or the folder of the system property
 * {@code test.server.logs.dir} (named in every failure message), pass or fail.
 */
public final class S3ProxyServer implements AutoCloseable {

  private static final String REGION = "us-east-1";
  private static final long START_TIMEOUT_SECONDS = 60;

  private final Process process;
  private final Thread stopOnExit;
  private final int port;
  private final String accessKey;
  private final String secretKey;
  private final Path log;
  private final List<String> buckets = new ArrayList<>();

  private S3ProxyServer(Process process, int port, String accessKey, String secretKey, Path log) {
    this.process = process;
    this.port = port;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.log = log;
    // A test JVM that exits without close() (a crash, a kill) does not leave S3Proxy running.
    this.stopOnExit = new Thread(() -> LocalProcesses.stopTree(process.toHandle()), "stop-s3proxy-" + port);
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /**
   * Starts S3Proxy with its settings in {@code dataDir}, and waits until it answers.
   *
   * @param accessKey the identity clients sign with ({@code fs.s3a.access.key})
   * @param secretKey its secret ({@code fs.s3a.secret.key}); written only to S3Proxy's properties file in
   *                  {@code dataDir}, never logged by this class
   */
  public static S3ProxyServer start(Path dataDir, String accessKey, String secretKey)
      throws IOException, InterruptedException {
    Files.createDirectories(dataDir);
    int port = LocalProcesses.freePort();
    Path properties = dataDir.resolve("s3proxy.properties");
    Files.write(properties, String.join("\n",
        "s3proxy.endpoint=http://127.0.0.1:" + port,
        "s3proxy.authorization=aws-v2-or-v4",
        "s3proxy.identity=" + accessKey,
        "s3proxy.credential=" + secretKey,
        "jclouds.provider=transient",
        "").getBytes(StandardCharsets.UTF_8));
    Path logback = dataDir.resolve("logback.xml");
    Files.write(logback, ("<configuration><appender name=\"out\" class=\"ch.qos.logback.core.ConsoleAppender\">"
        + "<encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n</pattern></encoder></appender>"
        // Every request S3Proxy serves is logged (DEBUG of its handler): the server's own count, see requestsTo.
        + "<logger name=\"org.gaul.s3proxy.S3ProxyHandler\" level=\"DEBUG\"/>"
        + "<root level=\"INFO\"><appender-ref ref=\"out\"/></root></configuration>\n").getBytes(StandardCharsets.UTF_8));
    Path logDir = Files.createDirectories(Paths.get(System.getProperty("test.server.logs.dir", "target/test-server-logs")));
    Path log = logDir.resolve("s3proxy-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss",
        Locale.ROOT)) + "-" + port + ".log");

    List<String> command = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Dlogback.configurationFile=" + logback,
        "-cp", classpath(), "org.gaul.s3proxy.Main", "--properties", properties.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    S3ProxyServer server = new S3ProxyServer(process, port, accessKey, secretKey, log);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    while (!server.answers()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        server.close();
        throw new IllegalStateException("Cannot start S3Proxy on 127.0.0.1:" + port + ": "
            + (process.isAlive() ? "no answer within " + START_TIMEOUT_SECONDS + " s" : "it exited")
            + " (see " + log + ")");
      }
      Thread.sleep(100);
    }
    return server;
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  public Path log() {
    return log;
  }

  /** Creates a bucket (a real, signed S3 PutBucket request); returns its {@code s3a://} root without a slash. */
  public String createBucket(String bucket) {
    AmazonS3 client = AmazonS3ClientBuilder.standard()
        .withEndpointConfiguration(new AwsClientBuilder.EndpointConfiguration(endpoint(), REGION))
        .withPathStyleAccessEnabled(true)
        .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(accessKey, secretKey)))
        .build();
    try {
      client.createBucket(bucket);
    } finally {
      client.shutdown();
    }
    buckets.add(bucket);
    return "s3a://" + bucket;
  }

  /**
   * The S3A settings that reach this endpoint: path-style requests over plain HTTP, the static credentials only (no
   * lookup of instance or environment credentials), few retries so that a broken endpoint fails a test quickly.
   */
  public Map<String, String> s3aSettings() {
    Map<String, String> settings = s3aEndpointSettings();
    settings.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    settings.put("fs.s3a.access.key", accessKey);
    settings.put("fs.s3a.secret.key", secretKey);
    return settings;
  }

  /**
   * The S3A settings of {@link #s3aSettings()} without any credential: for JVMs that read them from their environment
   * ({@link #credentialsEnvironment()}), as docs/deployment.md tells users to run a cluster job.
   */
  public Map<String, String> s3aEndpointSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fs.s3a.endpoint", endpoint());
    settings.put("fs.s3a.endpoint.region", REGION);
    settings.put("fs.s3a.path.style.access", "true");
    settings.put("fs.s3a.connection.ssl.enabled", "false");
    settings.put("fs.s3a.attempts.maximum", "2");
    settings.put("fs.s3a.retry.limit", "2");
    settings.put("fs.s3a.connection.establish.timeout", "5000");
    settings.put("fs.s3a.connection.timeout", "30000");
    return settings;
  }

  /** The credentials as the AWS SDK's environment provider reads them ({@code AWS_ACCESS_KEY_ID}, ...). */
  public Map<String, String> credentialsEnvironment() {
    return Map.of("AWS_ACCESS_KEY_ID", accessKey, "AWS_SECRET_ACCESS_KEY", secretKey);
  }

  /** Points {@code s3a://} paths of this configuration at this endpoint, until {@link #unconfigure}. */
  public void configure(Configuration conf) {
    s3aSettings().forEach(conf::set);
  }

  /** Removes the settings of {@link #configure} and closes the cached S3A file systems of this server's buckets. */
  public void unconfigure(Configuration conf) throws IOException {
    for (String bucket : buckets) {
      // FileSystem.get caches by scheme and bucket: a later server with a bucket of the same name must not get this
      // server's client. Closing the cached instance removes it from the cache.
      FileSystem.get(URI.create("s3a://" + bucket + "/"), conf).close();
    }
    s3aSettings().keySet().forEach(conf::unset);
  }

  /**
   * The requests S3Proxy has received for a bucket so far, by kind as {@link S3Requests} names them (LIST, HEAD, GET,
   * PUT, DELETE; a copy is a PUT here), as its log shows them: what the server saw, whichever client sent them.
   * Path-style requests only (as S3A sends them here).
   */
  public Map<String, Long> requestsTo(String bucket) throws IOException {
    Map<String, Long> byKind = new TreeMap<>();
    String marker = " - request: Request(";
    String bucketPath = "/" + bucket;
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      int at = line.indexOf(marker);
      if (at < 0) {
        continue;
      }
      String[] request = line.substring(at + marker.length()).split(" ", 3);
      if (request.length < 2) {
        continue;
      }
      URI url = URI.create(request[1].replaceFirst("\\)@[0-9a-f]+$", ""));
      String path = url.getRawPath();
      boolean onBucket = path.equals(bucketPath) || path.equals(bucketPath + "/");
      if (!onBucket && !path.startsWith(bucketPath + "/")) {
        continue;
      }
      String kind;
      switch (request[0]) {
        case "GET":
          kind = onBucket ? "LIST" : "GET";
          break;
        case "POST":
          kind = url.getRawQuery() != null && url.getRawQuery().startsWith("delete") ? "DELETE" : "POST";
          break;
        default:
          kind = request[0];
      }
      byKind.merge(kind, 1L, Long::sum);
    }
    return byKind;
  }

  private boolean answers() {
    try {
      HttpURLConnection connection = (HttpURLConnection) new URL(endpoint() + "/").openConnection();
      connection.setConnectTimeout(1000);
      connection.setReadTimeout(1000);
      try {
        // An unsigned request: S3Proxy answers 403 once Jetty is serving.
        return connection.getResponseCode() > 0;
      } finally {
        connection.disconnect();
      }
    } catch (IOException e) {
      return false;
    }
  }

  private static String classpath() {
    String file = System.getProperty("s3proxy.classpath.file");
    if (file == null || !Files.isRegularFile(Paths.get(file))) {
      throw new IllegalStateException("Cannot start S3Proxy: its classpath file " + file + " does not exist (it is "
          + "written by the build of test-servers/s3proxy: run the tests through Maven from the repository root, "
          + "e.g. mvn -B test -pl hudi-utilities-ext -am, and the benchmarks with benchmarks/run.sh)");
    }
    try {
      return new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops S3Proxy and every process it started. */
  @Override
  public void close() {
    LocalProcesses.stopTree(process.toHandle());
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down: the hook runs (or ran) the same stop.
    }
  }
}
