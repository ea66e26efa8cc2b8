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

package org.apache.hudi.utilities;

import org.apache.hudi.utilities.testutils.LocalProcesses;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The commands README.md, demo/README.md and docs/ tell a user to run, run as a user runs them: {@code bash -c
 * '<the command as documented>'} from the root of a fresh copy of the repository (its files as {@code git ls-files}
 * lists them, no build output), each with its exit status, its own checks and its output asserted, and a timeout.
 *
 * <p>The copy lives in {@code target/documented-commands/repository}. Running there, the scripts build what they
 * need as on a fresh clone: the first one ({@code demo/run-demo.sh}) runs {@code mvn -B -DskipTests -Dcheckstyle.skip
 * -Drat.skip package} in the copy, and the later ones find its output up to date. The outer {@code mvn test} has not
 * packaged the plugin jar (package comes after test), and a nested build in this module's own {@code target/} would
 * rewrite the classes and the shaded slim bundle jar that this JVM and later test classes load: the copy keeps the
 * two builds apart. Its logs ({@code demo-output/logs/}, {@code demo/target/cluster/logs/}) stay there.
 *
 * <p>Every line a command prints goes to this test's output file and, through this JVM's own stderr, to Maven's
 * console (Surefire redirects {@code System.out} to {@code target/surefire-reports/}), so CI's log shows each run.
 * Each run's duration is printed at the end. Every command must also appear, word for word, in one of the docs, and
 * no process a command started may outlive it.
 *
 * <p>Left out: {@code docker-demo/run.sh} (no Docker engine; {@link TestDockerDemoCompose} lints it); the benchmarks
 * themselves ({@code bash benchmarks/run.sh <name>}, minutes each; only the listing runs here); the variant
 * {@code SUBMIT_MASTER='local[2]' bash demo/run-on-cluster.sh} (the same script and job); the reporter on
 * {@code docs/freshness/reporter-example.yaml} as it is (its {@code /data} paths are placeholders, and the reporter
 * would write history under them); and the {@code spark-submit} and {@code java -cp} templates for a deployment
 * (they need a Spark distribution and the released jars: {@code demo/run-on-cluster.sh} and {@code demo/run-tool.sh}
 * launch the same {@code spark-submit} lines through Spark's launcher class with this build's jars).
 *
 * <p>{@code bash demo/run-on-cluster.sh} (seven minutes) runs only with {@code -Ddocumented.commands.cluster=true}, to
 * keep the suite near 40 minutes: {@code TestMultiTableJobOnCluster} runs the same job on the same kind of cluster over
 * S3Proxy in every build, and this run adds only the script around it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestDocumentedCommands {

  private static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
  private static final Path COPY = Paths.get("target", "documented-commands", "repository").toAbsolutePath();

  /** The docs searched for the commands. */
  private static final List<String> DOCS = List.of("README.md", "demo/README.md", "docker-demo/README.md", "docs",
      "benchmarks/RESULTS.md");

  private static final String LOCAL_DEMO = "bash demo/run-demo.sh";
  private static final String CLUSTER_DEMO = "bash demo/run-on-cluster.sh";
  private static final String CLUSTER_DEMO_PROPERTY = "documented.commands.cluster";

  /** demo/README.md, "Inspect the checkpoint and explain a batch": the demo's Streamer job, for the tools. */
  private static final String DEMO_JOB = "DEMO_JOB=(--props demo/conf/streamer.properties "
      + "--target-base-path \"$PWD/demo-output/joined\"\n"
      + "  --hoodie-conf \"hoodie.streamer.source.hudi.orders.path=$PWD/demo-output/orders\"\n"
      + "  --hoodie-conf \"hoodie.streamer.source.hudi.users.path=$PWD/demo-output/users\"\n"
      + "  --hoodie-conf \"hoodie.streamer.transformer.sql.file=$PWD/demo/conf/join.sql\")";
  private static final String CHECKPOINT_SHOW = "bash demo/run-tool.sh checkpoint show \"${DEMO_JOB[@]}\"";
  private static final String CHECKPOINT_OVERRIDE =
      "bash demo/run-tool.sh checkpoint override \"${DEMO_JOB[@]}\" --set users=EARLIEST";
  private static final String EXPLAIN = "bash demo/run-tool.sh explain \"${DEMO_JOB[@]}\" --checkpoint 'users=EARLIEST'";

  /** The README, "Running the reporter", with pipelines.yaml written for the demo's pipeline. */
  private static final String REPORTER = "bash docs/freshness/run-reporter.sh --config pipelines.yaml";
  private static final String REPORTER_HISTORY = REPORTER + " --history";
  private static final String REPORTER_CHART = REPORTER + " --chart joined.png --chart-pipeline joined";

  /** benchmarks/RESULTS.md: without a name, the runner builds and lists the benchmarks. */
  private static final String BENCHMARKS = "bash benchmarks/run.sh";

  /** About five times what each took on 2 idle cores: the machine is shared. */
  private static final Duration BUILD_AND_DEMO_TIMEOUT = Duration.ofMinutes(30);
  private static final Duration CLUSTER_TIMEOUT = Duration.ofMinutes(30);
  private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(10);

  private static final Pattern SUMMARY = Pattern.compile("SUMMARY: 2 Streamer rounds joined orders\\+users "
      + "incrementally; checkpoint (orders=\\d+,users=\\d+) -> (orders=(\\d+),users=(\\d+)); target = full join "
      + "\\(4 orders\\)\\.");

  /** Maven's console: this JVM's own stderr, which Surefire copies there (System.out goes to the report file). */
  private static final PrintStream CONSOLE = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
      StandardCharsets.UTF_8);

  /** Each run's command and duration, for the summary. */
  private static final Map<String, String> DURATIONS = new LinkedHashMap<>();

  /** The checkpoint the local demo committed in round 2, and its positions; null until the demo passed. */
  private static String demoCheckpoint;
  private static String demoOrdersPosition;
  private static String demoUsersPosition;

  @BeforeAll
  static void freshCopyOfTheRepository() throws Exception {
    long start = System.nanoTime();
    deleteTree(COPY);
    List<Path> files = repositoryFiles();
    for (Path file : files) {
      Path copy = COPY.resolve(file.toString());
      Files.createDirectories(copy.getParent());
      Files.copy(ROOT.resolve(file), copy, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    }
    log(String.format("==== TestDocumentedCommands: copied the %d files of the repository (no build output) to %s in "
        + "%.1f s; the commands run there", files.size(), COPY, seconds(start)));
  }

  @AfterAll
  static void printDurations() {
    log("==== TestDocumentedCommands: durations");
    DURATIONS.forEach((command, duration) -> log(String.format("  %-8s %s", duration, command)));
  }

  /** The README's "Two commands on a fresh machine" and demo/README.md: builds, then two Streamer rounds. */
  @Test
  @Order(1)
  void localDemoBuildsAndRunsOnAFreshClone() throws Exception {
    Run run = run(LOCAL_DEMO, BUILD_AND_DEMO_TIMEOUT);
    assertEquals(0, run.exitCode, "exit status of " + LOCAL_DEMO + ":\n" + run.tail());
    run.assertContains("building (missing: ", "built in ",
        "check: the checkpoint holds the newest instant of both sources: OK",
        "check: the positions of both orders and users moved: OK",
        "|OK: the target equals the full join of the current orders and users (3 rows)|",
        "|OK: the target equals the full join of the current orders and users (4 rows)|",
        "check: o4 added, o1 updated, alicia on o1 and o3: OK");
    // The joined target as round 2 prints it: o1 updated, o4 new, alicia (renamed) on both her orders.
    for (String row : List.of("\\|o1 +\\|u1 +\\|11\\.0 +\\|alicia +\\|2 +\\|", "\\|o2 +\\|u2 +\\|20\\.0 +\\|bob +\\|1 +\\|",
        "\\|o3 +\\|u1 +\\|30\\.0 +\\|alicia +\\|2 +\\|", "\\|o4 +\\|u2 +\\|40\\.0 +\\|bob +\\|2 +\\|")) {
      assertTrue(Pattern.compile(row).matcher(run.output).find(), "the joined target lacks the row " + row + ":\n"
          + run.tail());
    }
    Matcher summary = SUMMARY.matcher(run.output);
    assertTrue(summary.find(), "no SUMMARY line with both checkpoints:\n" + run.tail());
    assertTrue(Files.isDirectory(COPY.resolve("demo-output/joined/.hoodie")), "no target written");
    demoCheckpoint = summary.group(2);
    demoOrdersPosition = summary.group(3);
    demoUsersPosition = summary.group(4);
  }

  /** The README's "Checkpoint tools", run by demo/run-tool.sh against the demo's target (demo/README.md). */
  @Test
  @Order(2)
  void checkpointToolShowsAndOverridesTheDemosCheckpoint() throws Exception {
    assumeLocalDemoRan();
    Run show = run(DEMO_JOB + "\n" + CHECKPOINT_SHOW, TOOL_TIMEOUT);
    assertEquals(0, show.exitCode, "exit status of " + CHECKPOINT_SHOW + ":\n" + show.tail());
    show.assertContains("Target " + COPY.resolve("demo-output/joined") + ": checkpoint '" + demoCheckpoint
        + "' stored by commit ");
    for (String table : List.of("orders", "users")) {
      String position = table.equals("orders") ? demoOrdersPosition : demoUsersPosition;
      assertTrue(Pattern.compile("\n" + table + " +" + position + " +[0-9hms.]+ +yes +yes +unbounded").matcher(show.output)
          .find(), table + " at " + position + ", on the active timeline, its next batch readable:\n" + show.tail());
    }

    Run override = run(DEMO_JOB + "\n" + CHECKPOINT_OVERRIDE, TOOL_TIMEOUT);
    assertEquals(0, override.exitCode, "exit status of " + CHECKPOINT_OVERRIDE + ":\n" + override.tail());
    override.assertContains("--checkpoint 'orders=" + demoOrdersPosition + ",users=EARLIEST'");
  }

  /**
   * The README's "Explain a batch before running it", by demo/run-tool.sh (spark-submit of ExplainCli with the Hudi
   * bundles in --jars): the batch that re-reads users from its start ends at the checkpoint round 2 committed, and
   * the target is left as it was.
   */
  @Test
  @Order(3)
  void explainShowsTheBatchThatReReadsUsers() throws Exception {
    assumeLocalDemoRan();
    List<String> timelineBefore = listing(COPY.resolve("demo-output/joined/.hoodie"));
    Run explain = run(DEMO_JOB + "\n" + EXPLAIN, TOOL_TIMEOUT);
    assertEquals(0, explain.exitCode, "exit status of " + EXPLAIN + ":\n" + explain.tail());
    explain.assertContains("stored checkpoint '" + demoCheckpoint + "'",
        "the batch resumes from --checkpoint 'users=EARLIEST'. Nothing is written.",
        "Table orders (", "window: nothing new after " + demoOrdersPosition,
        "Table users (", "2 instants: [", demoUsersPosition + "]; ",
        "Next checkpoint: '" + demoCheckpoint + "'", "conf/join.sql binds:", "<SRC:users>   -> rows of users read in",
        "== Physical Plan ==");
    assertEquals(timelineBefore, listing(COPY.resolve("demo-output/joined/.hoodie")), "explain wrote to the target");
  }

  /**
   * The README's "Running the reporter" with a pipelines.yaml for the demo's pipeline (joined, from orders and users):
   * once, bounded with --interval (the documented runs until stopped), --history and --chart.
   */
  @Test
  @Order(4)
  void freshnessReporterMeasuresPrintsAndDrawsTheDemosPipeline() throws Exception {
    assumeLocalDemoRan();
    String target = "file://" + COPY.resolve("demo-output/joined");
    Files.writeString(COPY.resolve("pipelines.yaml"), "pipelines:\n"
        + "  - name: joined\n"
        + "    basePath: " + target + "\n"
        + "    properties:\n"
        + "      hoodie.streamer.source.multi.hudi.tables: orders,users\n"
        + "      hoodie.streamer.source.hudi.orders.path: file://" + COPY.resolve("demo-output/orders") + "\n"
        + "      hoodie.streamer.source.hudi.users.path: file://" + COPY.resolve("demo-output/users") + "\n",
        StandardCharsets.UTF_8);

    // One measurement: the demo's job has read everything its sources hold.
    Run once = run(REPORTER, TOOL_TIMEOUT);
    assertEquals(0, once.exitCode, "exit status of " + REPORTER + ":\n" + once.tail());
    for (String source : List.of("orders", "users")) {
      assertTrue(Pattern.compile("\n\\S+ +joined +REPORTER +\\d+ +" + source + " +CAUGHT_UP +IDLE +0\\.0 ")
          .matcher(once.output).find(), "the reporter's measurement of " + source + ":\n" + once.tail());
    }

    // "--interval 60 [--http-port 9464]" runs until stopped: the same, bounded by --rounds, on a free port.
    assertDocumented(REPORTER + " --interval 60 --http-port 9464");
    String interval = REPORTER + " --interval 1 --rounds 2 --http-port 0";
    Run rounds = run(interval, TOOL_TIMEOUT, false);
    assertEquals(0, rounds.exitCode, "exit status of " + interval + ":\n" + rounds.tail());
    rounds.assertContains("Serving the labelled freshness metrics on http://");
    assertEquals(2, occurrences(rounds.output, "\nmeasured_at +pipeline "), "two rounds measured:\n" + rounds.tail());

    Run history = run(REPORTER_HISTORY, TOOL_TIMEOUT);
    assertEquals(0, history.exitCode, "exit status of " + REPORTER_HISTORY + ":\n" + history.tail());
    history.assertContains("== joined (" + target + ")");
    // A reporter writes its first measurement, then what changed: one entry per source from each of the two runs, the
    // second round changing nothing its first did not say.
    assertEquals(4, occurrences(history.output, "\n\\S+ +joined +REPORTER "), "the history:\n" + history.tail());

    Run chart = run(REPORTER_CHART, TOOL_TIMEOUT);
    assertEquals(0, chart.exitCode, "exit status of " + REPORTER_CHART + ":\n" + chart.tail());
    chart.assertContains("Drew 2 history entries of pipeline 'joined' to joined.png");
    byte[] png = Files.readAllBytes(COPY.resolve("joined.png"));
    assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4), "joined.png is not a PNG");
  }

  /**
   * The README's "Run on a cluster": S3Proxy and a Spark standalone cluster of separate JVMs, two Streamer rounds
   * submitted with the plugin in --jars, its checks, and everything it started stopped.
   */
  @Test
  @Order(5)
  void clusterDemoRunsOnAFreshClone() throws Exception {
    assumeTrue(Boolean.getBoolean(CLUSTER_DEMO_PROPERTY), CLUSTER_DEMO + " runs with -D" + CLUSTER_DEMO_PROPERTY
        + "=true");
    Run run = run(CLUSTER_DEMO, CLUSTER_TIMEOUT);
    assertEquals(0, run.exitCode, "exit status of " + CLUSTER_DEMO + ":\n" + run.tail());
    run.assertContains("|OK: the target equals the full join of the current orders and users (3 rows)|",
        "|OK: the target equals the full join of the current orders and users (4 rows)|",
        "check: the positions of both orders and users moved: OK",
        "check: o4 added, o1 updated, alicia on o1 and o3: OK",
        "check: the executors fetched the plugin jar from the driver (--jars): OK",
        "stopping S3Proxy and the Spark cluster");
    assertTrue(Pattern.compile("SUMMARY: 2 Streamer rounds on spark://127\\.0\\.0\\.1:\\d+ joined orders\\+users on "
        + "S3; checkpoint orders=\\d+,users=\\d+ -> orders=\\d+,users=\\d+; target = full join \\(4 orders\\)\\.")
        .matcher(run.output).find(), "no SUMMARY line:\n" + run.tail());
  }

  /** benchmarks/RESULTS.md: the benchmark runner builds its module and lists the benchmarks (each runs minutes). */
  @Test
  @Order(6)
  void benchmarkRunnerBuildsAndListsTheBenchmarks() throws Exception {
    Run run = run(BENCHMARKS, TOOL_TIMEOUT);
    assertEquals(0, run.exitCode, "exit status of " + BENCHMARKS + ":\n" + run.tail());
    run.assertContains("Benchmarks (bash benchmarks/run.sh <name> [args]):", "\n  freshness  ", "\n  exact-join  ",
        "\n  exact-join-deletes  ", "\n  multi  ", "\n  s3  ");
  }

  // ------------------------------------------------------------------------------------------------------- helpers

  private static void assumeLocalDemoRan() {
    assumeTrue(demoCheckpoint != null, "the local demo did not complete in this JVM, so there is no target to run "
        + "the tools against (see localDemoBuildsAndRunsOnAFreshClone)");
  }

  /** What a command printed, its exit status and how long it took. */
  private static final class Run {
    private final int exitCode;
    private final String output;

    private Run(int exitCode, String output) {
      this.exitCode = exitCode;
      this.output = output;
    }

    void assertContains(String... expected) {
      for (String text : expected) {
        assertTrue(output.contains(text), "the output lacks '" + text + "':\n" + tail());
      }
    }

    /** The end of the output, for messages (the whole of it is in the test's log). */
    String tail() {
      List<String> lines = Arrays.asList(output.split("\n"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
  }

  private static Run run(String command, Duration timeout) throws Exception {
    return run(command, timeout, true);
  }

  /**
   * Runs {@code bash -c command} in the copy, streaming its output (stdout and stderr) line by line to the log, and
   * stops it and every process it started when it outlives the timeout. Then checks that none of the processes it
   * started is left: each of them names the copy on its command line.
   *
   * @param documented whether the command (its last line) must appear in the docs as it is
   */
  private static Run run(String command, Duration timeout, boolean documented) throws Exception {
    String[] lines = command.split("\n");
    String shown = lines[lines.length - 1];
    if (documented) {
      assertDocumented(command);
    }
    log(String.format("==== TestDocumentedCommands: %s   [in %s, timeout %d min]", shown, COPY, timeout.toMinutes()));
    long start = System.nanoTime();
    ProcessBuilder builder = new ProcessBuilder("bash", "-c", command).directory(COPY.toFile())
        .redirectErrorStream(true);
    Process process = builder.start();
    process.getOutputStream().close();
    StringBuilder output = new StringBuilder();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          synchronized (output) {
            output.append(line).append('\n');
          }
          log("  | " + line);
        }
      } catch (IOException e) {
        log("  (reading the output stopped: " + e + ")");
      }
    }, "output of " + shown);
    reader.setDaemon(true);
    reader.start();
    boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!finished) {
      LocalProcesses.stopTree(process.toHandle());
    }
    reader.join(TimeUnit.SECONDS.toMillis(30));
    String text;
    synchronized (output) {
      text = output.toString();
    }
    Run run = new Run(finished ? process.exitValue() : -1, text);
    String duration = String.format("%.0f s", seconds(start));
    DURATIONS.put(shown, duration + (finished ? "" : " (timed out)"));
    log(String.format("==== TestDocumentedCommands: %s: %s after %s", shown,
        finished ? "exit status " + run.exitCode : "stopped, still running", duration));
    assertTrue(finished, shown + " did not finish in " + timeout.toMinutes() + " min; stopped it and the processes "
        + "it started:\n" + run.tail());
    assertNothingLeftRunning(shown);
    return run;
  }

  /** Fails (after stopping them) if processes the command started still run: each names the copy when it runs. */
  private static void assertNothingLeftRunning(String command) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    List<ProcessHandle> left = processesOfTheCopy();
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(500);
      left = processesOfTheCopy();
    }
    if (!left.isEmpty()) {
      String described = left.stream().map(handle -> handle.pid() + " " + abbreviated(handle.info().commandLine()
          .orElse("?"))).collect(Collectors.joining("\n"));
      left.forEach(LocalProcesses::stopTree);
      fail(command + " left processes running (stopped now):\n" + described);
    }
  }

  private static int occurrences(String text, String regex) {
    Matcher matcher = Pattern.compile(regex).matcher(text);
    int count = 0;
    while (matcher.find()) {
      count++;
    }
    return count;
  }

  private static String abbreviated(String commandLine) {
    return commandLine.length() <= 300 ? commandLine : commandLine.substring(0, 300) + "...";
  }

  private static List<ProcessHandle> processesOfTheCopy() {
    long self = ProcessHandle.current().pid();
    return ProcessHandle.allProcesses().filter(handle -> handle.pid() != self && handle.isAlive())
        .filter(handle -> handle.info().commandLine().map(line -> line.contains(COPY.toString())).orElse(false))
        .collect(Collectors.toList());
  }

  /**
   * Fails unless the docs show the command as it is, up to line breaks and indentation: each part of it that starts
   * with {@code bash } on a new line, and what comes before (e.g. {@link #DEMO_JOB}), each where it may be.
   */
  private static void assertDocumented(String command) throws IOException {
    for (String part : command.split("\n(?=bash )")) {
      assertDocumentedAsIs(part);
    }
  }

  private static void assertDocumentedAsIs(String command) throws IOException {
    List<Path> docs = new ArrayList<>();
    for (String doc : DOCS) {
      try (Stream<Path> files = Files.walk(ROOT.resolve(doc))) {
        files.filter(Files::isRegularFile).filter(file -> file.toString().endsWith(".md")).forEach(docs::add);
      }
    }
    String wanted = normalized(command);
    for (Path doc : docs) {
      if (normalized(Files.readString(doc, StandardCharsets.UTF_8)).contains(wanted)) {
        return;
      }
    }
    fail("None of " + docs.stream().map(ROOT::relativize).collect(Collectors.toList()) + " shows the command this "
        + "test runs; keep the test and the docs in step:\n" + command);
  }

  private static String normalized(String text) {
    return text.replace("\\\n", " ").replaceAll("\\s+", " ").trim();
  }

  /** The repository's files, relative to its root: as git lists them (tracked or not ignored), else every file. */
  private static List<Path> repositoryFiles() throws Exception {
    Process git = new ProcessBuilder("git", "-C", ROOT.toString(), "ls-files", "-z", "--cached", "--others",
        "--exclude-standard").redirectError(ProcessBuilder.Redirect.DISCARD).start();
    git.getOutputStream().close();
    String listed = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (git.waitFor(60, TimeUnit.SECONDS) && git.exitValue() == 0 && !listed.isEmpty()) {
      return Arrays.stream(listed.split("\0")).filter(name -> !name.isEmpty()).map(Paths::get)
          .filter(file -> Files.isRegularFile(ROOT.resolve(file), LinkOption.NOFOLLOW_LINKS))
          .collect(Collectors.toList());
    }
    // Not a git work tree: every file but version control, build output and the demo's work directory.
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(ROOT, new SimpleFileVisitor<Path>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        return !dir.equals(ROOT) && List.of(".git", "target", "demo-output", ".idea").contains(name)
            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (attributes.isRegularFile()) {
          files.add(ROOT.relativize(file));
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return files;
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(file -> file.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path path : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).collect(Collectors.toList())) {
        try {
          Files.delete(path);
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot delete " + path + " of an earlier run", e);
        }
      }
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static void log(String line) {
    System.out.println(line);
    CONSOLE.println(line);
  }
}
