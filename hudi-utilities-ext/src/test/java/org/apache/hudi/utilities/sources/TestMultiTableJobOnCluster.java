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

package org.apache.hudi.utilities.sources;

import org.apache.hudi.utilities.callback.FreshnessCommitCallback;
import org.apache.hudi.utilities.faults.CrashPoint;
import org.apache.hudi.utilities.faults.HaltBeforeCommitCompletesS3AFileSystem;
import org.apache.hudi.utilities.faults.HoldFirstDataFileWriteS3AFileSystem;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.testutils.Deployment;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.OrdersAndUsers;
import org.apache.hudi.utilities.testutils.S3ProxyServer;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.SparkStandaloneCluster;
import org.apache.hudi.utilities.testutils.SparkSubmitLauncher;
import org.apache.hudi.utilities.testutils.StreamerJob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The demo's multi-table job on a real Spark standalone cluster: a Master and two Workers in their own JVMs, each
 * Worker running an executor JVM for each run, the stock HoodieStreamer submitted in client mode with the Hudi Spark
 * bundle and the plugin in {@code --jars} (as the standalone command of docs/deployment.md), every table, the SQL file
 * and the freshness history on S3 (S3Proxy over {@code s3a://}), the credentials only in the environment of the driver
 * and the Workers.
 *
 * <p>Three runs over orders (COPY_ON_WRITE) and users (MERGE_ON_READ), each committed one checked against the
 * time-travel join of the sources at the checkpoint it committed and against the expected rows: the first round, in
 * which an executor JVM is killed while the batch writes (Spark reruns its tasks); one, incremental on both tables, in
 * which the driver dies as the commit is about to complete; and the run after it. A run costs 45-60 s on 2 cores (JVM
 * starts, jar shipping); the demo's own cluster run (demo/run-on-cluster.sh, in TestDocumentedCommands) covers two
 * plain rounds, so this class spends its runs on the faults.
 */
class TestMultiTableJobOnCluster {

  /** Distinctive credentials: neither may appear in any log of the driver, the Master, the Workers or executors. */
  private static final String ACCESS_KEY = "AKIDCLUSTERE2E5W8QP";
  private static final String SECRET_KEY = "s3secret-cluster-7d1e0b94c3";
  private static final long RUN_TIMEOUT_SECONDS = 600;

  @TempDir
  static Path shared;

  private static S3ProxyServer s3;
  private static SparkStandaloneCluster cluster;
  private static String lake;

  @TempDir
  Path dir;

  private final List<Path> driverLogs = new ArrayList<>();

  @BeforeAll
  static void startS3AndCluster() throws Exception {
    s3 = S3ProxyServer.start(shared.resolve("s3proxy"), ACCESS_KEY, SECRET_KEY);
    lake = s3.createBucket("lake-cluster");
    s3.configure(hadoopConf());
    cluster = SparkStandaloneCluster.start(2, s3.credentialsEnvironment());
  }

  @AfterAll
  static void stopClusterAndS3() throws Exception {
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      if (s3 != null) {
        s3.unconfigure(hadoopConf());
        s3.close();
      }
    }
  }

  @Test
  void roundsOnTheClusterCommitTheExactJoinThroughAnExecutorKillAndADriverDeath() throws Exception {
    OrdersAndUsers tables = new OrdersAndUsers(dir, lake + "/warehouse", "joined");
    String sqlFile = lake + "/jobs/join.sql";
    writeObject(sqlFile, Files.readString(Paths.get("..", "demo", "conf", "join.sql")));
    StreamerJob job = tables.job()
        .property("hoodie.streamer.transformer.sql.file", sqlFile)
        .property("hoodie.write.commit.callback.on", "true")
        .property("hoodie.write.commit.callback.class", FreshnessCommitCallback.class.getName())
        .property("hoodie.streamer.freshness.pipeline.name", "orders_users_cluster");
    Map<String, Long> seconds = new LinkedHashMap<>();

    // Round 1: both tables read from the start, an order's user written in the same batch. The first task to write a
    // data file of the target holds in the write, and its executor JVM is killed there: Spark must rerun that task on
    // another executor, and the commit must name exactly the files of the rerun.
    String orders1 = tables.orders(order("o1", "u1", 10.0, 1L), order("o2", "u2", 20.0, 1L), order("o3", "u3", 30.0, 1L));
    String users1 = tables.users(user("u1", "alice", 1L), user("u2", "bob", 1L), user("u3", "carol", 1L));
    long started = System.nanoTime();
    Path holdDir = Files.createDirectories(dir.resolve("hold"));
    Path eventLogDir = Files.createDirectories(dir.resolve("event-log"));
    Map<String, String> holdAndLogEvents = new LinkedHashMap<>();
    holdAndLogEvents.put("spark.hadoop.fs.s3a.impl", HoldFirstDataFileWriteS3AFileSystem.class.getName());
    holdAndLogEvents.put("spark.executorEnv." + HoldFirstDataFileWriteS3AFileSystem.DIR_VARIABLE, holdDir.toString());
    holdAndLogEvents.put("spark.eventLog.enabled", "true");
    holdAndLogEvents.put("spark.eventLog.dir", eventLogDir.toUri().toString());
    Process driver = launch("round1-executor-lost", job, List.of(faultsJar()), holdAndLogEvents);
    ProcessHandle holding = awaitHeldWrite(driver, holdDir.resolve(HoldFirstDataFileWriteS3AFileSystem.HELD_FILE));
    assertTrue(cluster.executors().contains(holding), "the write is held in an executor JVM; " + cluster.describeLogs());
    String lostExecutor = executorId(holding);
    holding.destroyForcibly();
    holding.onExit().get(30, TimeUnit.SECONDS);
    awaitExit(driver, "round1-executor-lost", 0);
    seconds.put("round 1 (executor lost while writing a data file)", elapsedSeconds(started));
    assertTaskLostWithItsExecutorRanAgainElsewhere(eventLogDir, lostExecutor);
    assertExecutorsFetched(Deployment.pluginJar().getFileName().toString());
    tables.assertTargetIsTheJoinAt(orders1, users1);
    assertEquals(List.of("[o1,u1,10.0,alice]", "[o2,u2,20.0,bob]", "[o3,u3,30.0,carol]"), tables.targetRows());
    assertDataFilesAreExactlyThoseOfCompletedCommits(tables.targetPath, "after the executor loss");

    // Round 2: users renamed (reaching old orders), an order updated and one added; the driver halts as the commit's
    // completed instant is about to be written: nothing is committed.
    String users2 = tables.users(user("u1", "alicia", 2L), user("u3", "caroline", 2L));
    String orders2 = tables.orders(order("o4", "u3", 40.0, 2L), order("o2", "u2", 21.0, 2L));
    String lastCommit = HudiTables.lastCompletedInstant(tables.targetPath).get();
    seconds.put("round 2 (driver killed)", run("round2-driver-killed", job,
        CrashPoint.BEFORE_COMMIT_COMPLETES.exitCode(), List.of(faultsJar()),
        Map.of("spark.hadoop.fs.s3a.impl", HaltBeforeCommitCompletesS3AFileSystem.class.getName()),
        CrashPoint.BEFORE_COMMIT_COMPLETES.jvmOption()));
    assertEquals(lastCommit, HudiTables.lastCompletedInstant(tables.targetPath).get(), "a commit completed");
    assertEquals("orders=" + orders1 + ",users=" + users1, HudiTables.lastCheckpoint(tables.targetPath));
    assertEquals(1, HudiTables.inflightCommits(tables.targetPath).size(), "the halted commit is left inflight");

    // Round 3: the next run rolls the halted commit back and commits the same batch exactly.
    seconds.put("round 3 (after the driver death)", run("round3", job, 0));
    tables.assertTargetIsTheJoinAt(orders2, users2);
    assertEquals(List.of("[o1,u1,10.0,alicia]", "[o2,u2,21.0,bob]", "[o3,u3,30.0,caroline]", "[o4,u3,40.0,caroline]"),
        tables.targetRows());
    assertEquals(List.of(), HudiTables.inflightCommits(tables.targetPath));
    assertDataFilesAreExactlyThoseOfCompletedCommits(tables.targetPath, "after the rollback of the halted commit");

    // The freshness callback ran in the driver of every committed run and kept its history on S3.
    List<JsonNode> history = FreshnessHistory.open(tables.targetPath + "/.hoodie/.aux/freshness", 1000, hadoopConf())
        .newest(10);
    assertEquals(2, history.size(), "one entry per committed run: " + history);
    JsonNode last = history.get(history.size() - 1);
    assertEquals("orders_users_cluster", last.get("pipeline").asText());
    assertEquals(HudiTables.lastCompletedInstant(tables.targetPath).get(), last.get("commit").asText());
    assertEquals("orders=" + orders2 + ",users=" + users2, last.get("checkpoint").asText());

    assertCredentialsInNoLog();
    awaitNoExecutor();
    System.out.printf("Multi-table job on a Spark standalone cluster over S3: run wall times (s) %s; %s%n", seconds,
        cluster.describeLogs());
  }

  private long run(String name, StreamerJob job, int expectedExit) throws Exception {
    return run(name, job, expectedExit, List.of(), Map.of());
  }

  /** Runs the job on the cluster; returns its wall time in seconds. */
  private long run(String name, StreamerJob job, int expectedExit, List<Path> extraJars, Map<String, String> conf,
                   String... driverJvmOptions) throws Exception {
    long started = System.nanoTime();
    awaitExit(launch(name, job, extraJars, conf, driverJvmOptions), name, expectedExit);
    return elapsedSeconds(started);
  }

  private Process launch(String name, StreamerJob job, List<Path> extraJars, Map<String, String> conf,
                         String... driverJvmOptions) {
    Map<String, String> sparkConf = new LinkedHashMap<>();
    s3.s3aEndpointSettings().forEach((key, value) -> sparkConf.put("spark.hadoop." + key, value));
    // As docs/deployment.md says: S3A reads the credentials from the environment (the driver's here, the Workers' for
    // executors).
    sparkConf.put("spark.hadoop.fs.s3a.aws.credentials.provider", "com.amazonaws.auth.EnvironmentVariableCredentialsProvider");
    sparkConf.put("spark.app.name", name);
    sparkConf.put("spark.local.dir", cluster.dir().resolve("driver-local").toString());
    sparkConf.putAll(conf);
    Path log = cluster.dir().resolve("driver-" + name + ".log");
    driverLogs.add(log);
    return SparkSubmitLauncher.startOnCluster(cluster, job, log, sparkConf, s3.credentialsEnvironment(), extraJars,
        driverJvmOptions);
  }

  private void awaitExit(Process driver, String name, int expectedExit) throws InterruptedException {
    if (!driver.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      driver.destroyForcibly();
      fail(name + " did not finish in " + RUN_TIMEOUT_SECONDS + " s; " + failureContext());
    }
    assertEquals(expectedExit, driver.exitValue(), name + " exit status; " + failureContext());
  }

  /** The test classes of the fault injectors, for {@code --jars}. */
  private static Path faultsJar() {
    return Deployment.testPackageJar("org/apache/hudi/utilities/faults");
  }

  /** Waits until a JVM of the job holds a data-file write; returns that JVM. Fails if the driver exits first. */
  private ProcessHandle awaitHeldWrite(Process driver, Path heldFile) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RUN_TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline && driver.isAlive()) {
      if (Files.exists(heldFile)) {
        String[] pidAndFile = Files.readString(heldFile).split(" ", 2);
        System.out.printf("Executor JVM %s holds the write of %s%n", pidAndFile[0], pidAndFile[1]);
        return ProcessHandle.of(Long.parseLong(pidAndFile[0])).orElseThrow(() -> new AssertionError(
            "the JVM holding the write, " + pidAndFile[0] + ", is gone"));
      }
      Thread.sleep(100);
    }
    driver.destroyForcibly();
    return fail("no data-file write was held; " + failureContext());
  }

  /** The {@code --executor-id} an executor JVM was started with. */
  private static String executorId(ProcessHandle executor) {
    List<String> arguments = List.of(executor.info().arguments().orElseThrow(() -> new AssertionError(
        "cannot read the arguments of executor JVM " + executor.pid())));
    int at = arguments.indexOf("--executor-id");
    assertTrue(at >= 0 && at + 1 < arguments.size(), "no --executor-id in " + arguments);
    return arguments.get(at + 1);
  }

  /**
   * From the application's Spark event log: a task ended with the loss of {@code lostExecutor}, and every such task
   * (its stage and partition) later succeeded on another executor.
   */
  private static void assertTaskLostWithItsExecutorRanAgainElsewhere(Path eventLogDir, String lostExecutor)
      throws IOException {
    List<Path> logs;
    try (Stream<Path> files = Files.list(eventLogDir)) {
      logs = files.collect(Collectors.toList());
    }
    assertEquals(1, logs.size(), "one event log: " + logs);
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> taskEnds = new ArrayList<>();
    for (String line : Files.readAllLines(logs.get(0), StandardCharsets.UTF_8)) {
      JsonNode event = json.readTree(line);
      if ("SparkListenerTaskEnd".equals(event.path("Event").asText())) {
        taskEnds.add(event);
      }
    }
    List<JsonNode> lost = taskEnds.stream()
        .filter(end -> "ExecutorLostFailure".equals(end.path("Task End Reason").path("Reason").asText())
            && lostExecutor.equals(end.path("Task Info").path("Executor ID").asText()))
        .collect(Collectors.toList());
    assertFalse(lost.isEmpty(), "no task ended with the loss of executor " + lostExecutor + " in " + logs.get(0));
    for (JsonNode failed : lost) {
      int stage = failed.path("Stage ID").asInt();
      int partition = failed.path("Task Info").path("Index").asInt();
      assertTrue(taskEnds.stream().anyMatch(end -> end.path("Stage ID").asInt() == stage
              && end.path("Task Info").path("Index").asInt() == partition
              && "Success".equals(end.path("Task End Reason").path("Reason").asText())
              && !lostExecutor.equals(end.path("Task Info").path("Executor ID").asText())),
          "task " + partition + " of stage " + stage + ", lost with executor " + lostExecutor
              + ", never succeeded on another executor (" + logs.get(0) + ")");
    }
    System.out.printf("Event log: %d task(s) lost with executor %s, each rerun elsewhere: %s%n", lost.size(),
        lostExecutor, lost.stream().map(end -> "stage " + end.path("Stage ID").asInt() + " partition "
            + end.path("Task Info").path("Index").asInt()).collect(Collectors.toList()));
  }

  /**
   * The target's data files on S3 are exactly the files that the write stats of its completed commits name: none
   * orphaned by a lost task or a rolled-back commit, none missing.
   */
  private static void assertDataFilesAreExactlyThoseOfCompletedCommits(String targetPath, String when) {
    assertEquals(HudiTables.filesWrittenByCompletedCommits(targetPath), HudiTables.dataFiles(targetPath), when);
  }

  /**
   * Each Worker ran an executor that fetched the jar from the driver. The first run also has the executor the Master
   * started after the kill, which fetches the jar only if a task reaches it before the run ends.
   */
  private void assertExecutorsFetched(String jar) {
    List<Path> stderrs = cluster.logs().stream().filter(log -> log.endsWith("stderr")).collect(Collectors.toList());
    Set<String> workersThatFetched = stderrs.stream()
        .filter(stderr -> read(stderr).contains("Fetching spark://") && read(stderr).contains(jar))
        .map(stderr -> stderr.getParent().getParent().getParent().getFileName().toString())
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of("worker-1", "worker-2"), workersThatFetched,
        "the Workers with an executor that fetched " + jar + " from the driver (--jars); executors: " + stderrs);
  }

  private void assertCredentialsInNoLog() {
    List<Path> logs = new ArrayList<>(cluster.logs());
    logs.addAll(driverLogs);
    for (Path log : logs) {
      String text = read(log);
      assertFalse(text.contains(ACCESS_KEY) || text.contains(SECRET_KEY), "an S3 credential leaked into " + log);
    }
  }

  /** Every run has ended: the Master ends the executors of a finished (or dead) application. */
  /**
   * Waits for the Workers to stop the executors of the ended applications. Only a leak reaches the bound: an executor
   * JVM stops within seconds, but a 2-core machine running two test forks can take tens of seconds to schedule it.
   */
  private static void awaitNoExecutor() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (!cluster.executors().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertEquals(List.of(), cluster.executors(), "executors outlive their applications; " + cluster.describeLogs());
  }

  private Path lastDriverLogPath() {
    return driverLogs.get(driverLogs.size() - 1);
  }

  private String lastDriverLog() {
    return read(lastDriverLogPath());
  }

  private String failureContext() {
    return "driver log " + lastDriverLogPath() + ", last lines:\n" + SparkSubmitLauncher.tail(lastDriverLogPath(), 60)
        + "\n" + cluster.describeLogs() + "; S3Proxy log " + s3.log();
  }

  private static long elapsedSeconds(long startedNanos) {
    return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedNanos);
  }

  private static String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeObject(String uri, String content) throws IOException {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(uri);
    try (FSDataOutputStream out = path.getFileSystem(hadoopConf()).create(path, true)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static Configuration hadoopConf() {
    return SharedSpark.jsc().hadoopConfiguration();
  }
}
