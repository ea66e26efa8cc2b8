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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Spark 3.4 standalone cluster of separate JVMs on 127.0.0.1: a Master and Workers started from the Maven-resolved
 * Spark jars, each Worker launching the executors of an application as its own child JVMs. No Spark distribution is
 * needed: the cluster lays one out, a {@code spark-home/} whose {@code jars/} holds links to
 * {@link Deployment#sparkDistribution()} (Spark, Hadoop and the S3A connector; jobs bring the Hudi bundles in
 * {@code --jars}), which is where a Worker's launcher finds the executors' classpath.
 *
 * <p>Everything lives in one folder kept after the run: {@code spark-home/}, {@code logs/master.log},
 * {@code logs/worker-<n>.log}, and each executor's {@code stdout}/{@code stderr} under
 * {@code worker-<n>/<app-id>/<executor-id>/}. {@link #close()} stops the Workers, their executors and the Master
 * (also when the JVM that started them exits without it).
 */
public final class SparkStandaloneCluster implements AutoCloseable {

  /** Per Worker: one core and the memory of one executor of {@code spark.executor.memory=1g}. */
  public static final int CORES_PER_WORKER = 1;
  public static final String MEMORY_PER_WORKER = "1g";

  private static final long START_TIMEOUT_SECONDS = 90;
  private static final String MASTER_READY = "I have been elected leader";
  private static final String WORKER_READY = "Successfully registered with master";

  private final Path dir;
  private final Path sparkHome;
  private final int masterPort;
  private final List<Process> daemons = new ArrayList<>();
  private final List<Process> workers = new ArrayList<>();
  private final Thread stopOnExit;

  private SparkStandaloneCluster(Path dir, Path sparkHome, int masterPort) {
    this.dir = dir;
    this.sparkHome = sparkHome;
    this.masterPort = masterPort;
    this.stopOnExit = new Thread(this::stopAll, "stop-spark-cluster-" + masterPort);
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /**
   * Starts a cluster in a new folder {@code spark-cluster-<time>-<port>} of {@code test.server.logs.dir}
   * ({@code target/test-server-logs} by default).
   */
  public static SparkStandaloneCluster start(int workers, Map<String, String> workerEnvironment)
      throws IOException, InterruptedException {
    Path logs = Paths.get(System.getProperty("test.server.logs.dir", "target/test-server-logs"));
    int masterPort = LocalProcesses.freePort();
    return start(logs.resolve("spark-cluster-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern(
        "yyyyMMdd-HHmmss", Locale.ROOT)) + "-" + masterPort), masterPort, workers, workerEnvironment);
  }

  /**
   * Lays out {@code dir}, starts the Master and {@code workers} Workers, and waits until every Worker is registered.
   *
   * @param workerEnvironment added to the Workers' environment, which the executors inherit (e.g. the
   *                          {@code AWS_*} variables that S3A's environment credential provider reads)
   */
  public static SparkStandaloneCluster start(Path dir, int masterPort, int workers,
                                             Map<String, String> workerEnvironment)
      throws IOException, InterruptedException {
    Path sparkHome = layOutSparkHome(dir.resolve("spark-home"));
    Files.createDirectories(dir.resolve("logs"));
    SparkStandaloneCluster cluster = new SparkStandaloneCluster(dir, sparkHome, masterPort);
    try {
      cluster.startDaemon("master", Collections.emptyMap(), MASTER_READY,
          "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", String.valueOf(masterPort),
          "--webui-port", String.valueOf(LocalProcesses.freePort()));
      for (int n = 1; n <= workers; n++) {
        Path workDir = Files.createDirectories(dir.resolve("worker-" + n));
        Map<String, String> environment = new HashMap<>(workerEnvironment);
        // The executors' scratch space (fetched jars, shuffle files): here, not in /tmp, where a killed one leaves it.
        environment.put("SPARK_LOCAL_DIRS", workDir.resolve("local").toString());
        cluster.workers.add(cluster.startDaemon("worker-" + n, environment, WORKER_READY,
            "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
            "--port", String.valueOf(LocalProcesses.freePort()), "--webui-port", String.valueOf(LocalProcesses.freePort()),
            "--cores", String.valueOf(CORES_PER_WORKER), "--memory", MEMORY_PER_WORKER,
            "--work-dir", workDir.toString(), cluster.masterUrl()));
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** {@code spark://127.0.0.1:<port>}. */
  public String masterUrl() {
    return "spark://127.0.0.1:" + masterPort;
  }

  /** The laid-out Spark home: {@code jars/} is the classpath of a driver submitted as {@code spark-submit} runs it. */
  public Path sparkHome() {
    return sparkHome;
  }

  /** The driver classpath of {@code spark-submit}: every jar of the distribution. */
  public String sparkClasspath() {
    return sparkHome.resolve("jars").resolve("*").toString();
  }

  /** The folder of the Spark home, the logs and the Workers' folders. */
  public Path dir() {
    return dir;
  }

  /** The executor JVMs now alive: the child processes of the Workers. */
  public List<ProcessHandle> executors() {
    return workers.stream().flatMap(Process::children).filter(ProcessHandle::isAlive).collect(Collectors.toList());
  }

  /** Every log file of the cluster: the Master's, the Workers' and each executor's stdout and stderr. */
  public List<Path> logs() {
    List<Path> logs = new ArrayList<>(filesIn(dir.resolve("logs"), "*.log"));
    for (Path workDir : filesIn(dir, "worker-*")) {
      for (Path application : filesIn(workDir, "app-*")) {
        for (Path executor : filesIn(application, "*")) {
          logs.addAll(filesIn(executor, "{stdout,stderr}"));
        }
      }
    }
    Collections.sort(logs);
    return logs;
  }

  /**
   * The entries of one folder matching a glob. The logs are looked up folder by folder rather than by walking the
   * cluster's folder: a walk also enters the executors' scratch space ({@code worker-<n>/local}), whose shuffle files
   * a running executor deletes under the walk.
   */
  private static List<Path> filesIn(Path folder, String glob) {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(folder, glob)) {
      stream.forEach(entries::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return entries;
  }

  /** Where the logs are, for failure messages. */
  public String describeLogs() {
    return "Spark cluster logs: " + dir.resolve("logs") + " (Master, Workers); executors' stdout and stderr under "
        + dir + "/worker-<n>/<app-id>/<executor-id>/";
  }

  /**
   * Stops the Workers (with their executors) and the Master, and deletes what the executors fetched and spilled (a
   * copy of every {@code --jars} jar per executor, some 100 MB each), keeping every log.
   */
  @Override
  public void close() {
    stopAll();
    deleteExecutorFiles();
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down: the hook runs (or ran) the same stop.
    }
  }

  private void stopAll() {
    // Workers first: stopping the Master first makes them retry to reconnect instead of exiting.
    for (int i = daemons.size() - 1; i >= 0; i--) {
      LocalProcesses.stopTree(daemons.get(i).toHandle());
    }
  }

  private void deleteExecutorFiles() {
    try (Stream<Path> files = Files.walk(dir)) {
      files.filter(file -> !file.startsWith(sparkHome) && !file.startsWith(dir.resolve("logs")))
          .filter(file -> Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
          .filter(file -> !(file.endsWith("stdout") || file.endsWith("stderr") || file.toString().endsWith(".log")))
          .forEach(file -> file.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // Best effort: a file that cannot be deleted is left in target/.
    }
  }

  private static Path layOutSparkHome(Path sparkHome) throws IOException {
    Path jars = Files.createDirectories(sparkHome.resolve("jars"));
    for (Path jar : Deployment.sparkDistribution()) {
      Path link = jars.resolve(jar.getFileName());
      if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
        Files.createSymbolicLink(link, jar);
      }
    }
    return sparkHome;
  }

  private Process startDaemon(String name, Map<String, String> environment, String readyLine, String mainClass,
                              String... arguments) throws IOException, InterruptedException {
    Path log = dir.resolve("logs").resolve(name + ".log");
    List<String> command = new ArrayList<>();
    command.add(Deployment.java());
    command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    command.addAll(Deployment.java17Options());
    command.addAll(List.of("-cp", sparkClasspath(), mainClass));
    command.addAll(List.of(arguments));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    builder.environment().put("SPARK_HOME", sparkHome.toString());
    // Without it the launcher that builds an executor's command looks for Spark's build folders and fails.
    builder.environment().put("SPARK_SCALA_VERSION", "2.12");
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process process = builder.start();
    daemons.add(process);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    while (!contains(log, readyLine)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("Cannot start the Spark " + name + " of " + masterUrl() + ": "
            + (process.isAlive() ? "'" + readyLine + "' not logged within " + START_TIMEOUT_SECONDS + " s"
            : "it exited with status " + process.exitValue()) + " (see " + log + ")");
      }
      Thread.sleep(100);
    }
    return process;
  }

  private static boolean contains(Path log, String line) throws IOException {
    return new String(Files.readAllBytes(log), StandardCharsets.UTF_8).contains(line);
  }
}
