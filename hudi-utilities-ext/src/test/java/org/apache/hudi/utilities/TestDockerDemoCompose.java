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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code docker-demo/}: the compose file is valid for {@code docker-compose} (which checks it without a Docker engine),
 * it defines the services the demo needs, its credentials come from the environment only, every repository file it
 * mounts exists, every container path {@code run.sh} uses lies in a mount of the container that uses it (and exists
 * in the repository unless it is a build output or in the local Maven repository), the job files are demo/'s only
 * copy, and {@code run.sh}, {@code demo/run-on-cluster.sh} (the native cluster path that is its tested equivalent),
 * {@code demo/run-demo.sh}, the job arguments the three share ({@code demo/streamer-job.sh}) and
 * {@code demo/run-tool.sh} parse and pass shellcheck. Nothing is pulled or started.
 *
 * <p>Without {@code docker-compose} (or {@code shellcheck}) the checks that need it are skipped with a message, except
 * under {@code CI=true}, where {@code .ci/run} installs both and a missing tool fails the test.
 */
class TestDockerDemoCompose {

  private static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
  private static final Path DOCKER_DEMO = ROOT.resolve("docker-demo");
  private static final Path COMPOSE_FILE = DOCKER_DEMO.resolve("docker-compose.yml");
  private static final Path RUN_SCRIPT = DOCKER_DEMO.resolve("run.sh");
  private static final Path CLUSTER_SCRIPT = ROOT.resolve("demo").resolve("run-on-cluster.sh");
  private static final Path DEMO_SCRIPT = ROOT.resolve("demo").resolve("run-demo.sh");
  /** The checkpoint tool and explain with the build's jars (run by TestDocumentedCommands). */
  private static final Path TOOL_SCRIPT = ROOT.resolve("demo").resolve("run-tool.sh");
  /** The Streamer job's arguments, sourced by the three run scripts. */
  private static final Path STREAMER_JOB_SCRIPT = ROOT.resolve("demo").resolve("streamer-job.sh");

  /** The services of issue 10. */
  private static final Set<String> SERVICES = Set.of("spark-master", "spark-worker-1", "spark-worker-2", "minio",
      "createbuckets", "kafka", "pushgateway", "prometheus");

  private static final List<String> SPARK_SERVICES = List.of("spark-master", "spark-worker-1", "spark-worker-2");

  /** The credentials the compose file requires. Placeholders: "config" prints the interpolated values. */
  private static final Map<String, String> CREDENTIALS = Map.of("MINIO_ROOT_USER", "placeholder-user",
      "MINIO_ROOT_PASSWORD", "placeholder-password");

  /** A container path below the demo's mounts, as run.sh and the compose file write them. */
  private static final Pattern CONTAINER_PATH = Pattern.compile("/opt/hudi-ext/[A-Za-z0-9_./-]*[A-Za-z0-9_]");

  private static final Pattern CREDENTIAL_LINE = Pattern.compile(
      "^\\s*(AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|MINIO_ROOT_USER|MINIO_ROOT_PASSWORD)\\s*:\\s*(.*)$");

  private static Map<String, Map<String, Object>> resolvedServices;

  @Test
  void composeFileIsValid() throws Exception {
    ProcessResult result = run(List.of(tool("docker-compose"), "-f", COMPOSE_FILE.toString(), "config", "-q"),
        CREDENTIALS);
    assertEquals(0, result.exitCode, "docker-compose config -q rejects " + COMPOSE_FILE + ":\n" + result.output);
  }

  @Test
  void composeFileTakesCredentialsFromTheEnvironmentOnly() throws Exception {
    List<String> lines = Files.readAllLines(COMPOSE_FILE, StandardCharsets.UTF_8);
    int credentialLines = 0;
    for (String line : lines) {
      Matcher matcher = CREDENTIAL_LINE.matcher(line);
      if (matcher.matches()) {
        credentialLines++;
        assertTrue(matcher.group(2).startsWith("${MINIO_ROOT_") && matcher.group(2).contains(":?"),
            "a credential that is not a required variable of the environment: " + line.trim());
      }
    }
    assertTrue(credentialLines >= 6, "credential lines (the Spark services', MinIO's, createbuckets') found in "
        + COMPOSE_FILE + ": " + credentialLines);

    Map<String, String> withoutCredentials = new HashMap<>();
    CREDENTIALS.keySet().forEach(name -> withoutCredentials.put(name, null));
    ProcessResult result = run(List.of(tool("docker-compose"), "-f", COMPOSE_FILE.toString(), "config", "-q"),
        withoutCredentials);
    assertNotEquals(0, result.exitCode, "the compose file is accepted without MinIO credentials:\n" + result.output);
    assertTrue(result.output.contains("MINIO_ROOT_"), "the error names the missing variable:\n" + result.output);
  }

  @Test
  void composeFileDefinesTheServicesOfTheDemo() throws Exception {
    Map<String, Map<String, Object>> services = services();
    assertTrue(services.keySet().containsAll(SERVICES), "services " + services.keySet() + " lack some of " + SERVICES);

    Set<Object> sparkImages = SPARK_SERVICES.stream().map(name -> services.get(name).get("image"))
        .collect(Collectors.toSet());
    assertEquals(1, sparkImages.size(), "one Spark image for master and workers: " + sparkImages);
    assertTrue(String.valueOf(sparkImages.iterator().next()).matches("apache/spark:3\\.4\\.\\d+-scala2\\.12-.*"),
        "the official Apache Spark 3.4 image, Scala 2.12: " + sparkImages);
    assertTrue(command("spark-master").contains("org.apache.spark.deploy.master.Master"), command("spark-master"));
    for (String worker : List.of("spark-worker-1", "spark-worker-2")) {
      assertTrue(command(worker).contains("org.apache.spark.deploy.worker.Worker")
          && command(worker).contains("spark://spark-master:7077"), worker + ": " + command(worker));
    }

    assertTrue(String.valueOf(services.get("minio").get("image")).startsWith("minio/minio:"), "MinIO");
    assertTrue(String.valueOf(services.get("createbuckets").get("image")).startsWith("minio/mc:"), "mc");
    assertTrue(command("createbuckets").contains("mc mb"), "createbuckets creates the bucket");

    Map<String, String> kafka = environment(services.get("kafka"));
    assertTrue(kafka.getOrDefault("KAFKA_PROCESS_ROLES", "").contains("controller"), "Kafka in KRaft mode: " + kafka);
    assertFalse(kafka.keySet().stream().anyMatch(key -> key.contains("ZOOKEEPER")), "no ZooKeeper: " + kafka);

    assertTrue(String.valueOf(services.get("pushgateway").get("image")).startsWith("prom/pushgateway:"), "pushgateway");
    Path prometheusYml = mounts("prometheus").get("/etc/prometheus/prometheus.yml");
    assertTrue(prometheusYml != null && Files.isRegularFile(prometheusYml), "Prometheus mounts its prometheus.yml");
    Map<String, Object> prometheus = yaml(Files.readString(prometheusYml, StandardCharsets.UTF_8));
    assertTrue(String.valueOf(prometheus.get("scrape_configs")).contains("pushgateway:9091"),
        "Prometheus scrapes the pushgateway: " + prometheus);
  }

  @Test
  void everyMountedRepositoryFileExists() throws Exception {
    int checked = 0;
    for (String service : services().keySet()) {
      for (Map.Entry<String, Path> mount : mounts(service).entrySet()) {
        if (inRepository(mount.getValue()) && !buildOutput(mount.getValue())) {
          assertTrue(Files.exists(mount.getValue()), service + " mounts " + mount.getValue() + " at " + mount.getKey()
              + ", which is not in the repository");
          checked++;
        }
      }
    }
    assertTrue(checked >= 4, "mounted repository files and folders checked: " + checked);
  }

  /** The spark-sql and spark-submit commands run in spark-master; createbuckets uploads the job files. */
  @Test
  void everyContainerPathTheDemoUsesIsMounted() throws Exception {
    Set<String> checked = new TreeSet<>();
    checked.addAll(checkContainerPaths("spark-master", Files.readString(RUN_SCRIPT, StandardCharsets.UTF_8)));
    checked.addAll(checkContainerPaths("createbuckets", command("createbuckets")));
    for (String expected : List.of("/opt/hudi-ext/demo/conf/streamer.properties", "/opt/hudi-ext/demo/conf/join.sql",
        "/opt/hudi-ext/demo/sql/create-sources.sql", "/opt/hudi-ext/demo/sql/append.sql",
        "/opt/hudi-ext/demo/sql/show-target.sql")) {
      assertTrue(checked.contains(expected), "the demo uses " + expected + "; paths found: " + checked);
    }
    // One set of job files: demo/ holds them, docker-demo/ has no copy.
    try (Stream<Path> files = Files.walk(DOCKER_DEMO)) {
      List<Path> copies = files.filter(file -> !buildOutput(file))
          .filter(file -> file.toString().endsWith(".sql") || file.toString().endsWith(".properties"))
          .collect(Collectors.toList());
      assertEquals(List.of(), copies, "job files belong in demo/conf and demo/sql only");
    }
  }

  @Test
  void runScriptsParseAndPassShellcheck() throws Exception {
    for (Path script : List.of(RUN_SCRIPT, CLUSTER_SCRIPT, DEMO_SCRIPT, STREAMER_JOB_SCRIPT, TOOL_SCRIPT)) {
      ProcessResult syntax = run(List.of("bash", "-n", script.toString()), Map.of());
      assertEquals(0, syntax.exitCode, "bash -n " + script + ":\n" + syntax.output);
      // -x: the scripts source demo/streamer-job.sh, checked with them.
      ProcessResult shellcheck = run(List.of(tool("shellcheck"), "-x", script.toString()), Map.of());
      assertEquals(0, shellcheck.exitCode, "shellcheck " + script + ":\n" + shellcheck.output);
    }
  }

  // ------------------------------------------------------------------------------------------------------- helpers

  /** Checks each container path of the text against the service's mounts; returns the paths found. */
  private static Set<String> checkContainerPaths(String service, String text) throws Exception {
    Map<String, Path> mounts = mounts(service);
    Set<String> paths = new TreeSet<>();
    Matcher matcher = CONTAINER_PATH.matcher(text);
    while (matcher.find()) {
      paths.add(matcher.group());
    }
    assertFalse(paths.isEmpty(), "no /opt/hudi-ext path found for " + service);
    for (String path : paths) {
      String target = null;
      for (String mounted : mounts.keySet()) {
        if ((path.equals(mounted) || path.startsWith(mounted + "/"))
            && (target == null || mounted.length() > target.length())) {
          target = mounted;
        }
      }
      assertTrue(target != null, service + " uses " + path + ", which lies in none of its mounts " + mounts);
      Path host = mounts.get(target).resolve(path.substring(target.length()).replaceFirst("^/", ""));
      if (inRepository(host) && !buildOutput(host)) {
        assertTrue(Files.exists(host), service + " uses " + path + ": " + host + " is not in the repository");
      }
    }
    return paths;
  }

  private static boolean inRepository(Path host) {
    return host.normalize().startsWith(ROOT);
  }

  /** Whether a path lies in a build output folder (target/), which a build writes and docker-demo/run.sh checks. */
  private static boolean buildOutput(Path path) {
    for (Path element : ROOT.relativize(path.toAbsolutePath().normalize())) {
      if (element.toString().equals("target")) {
        return true;
      }
    }
    return false;
  }

  /** The services of the compose file, as {@code docker-compose config} resolves them (run once per class). */
  @SuppressWarnings("unchecked")
  private static synchronized Map<String, Map<String, Object>> services() throws Exception {
    if (resolvedServices != null) {
      return resolvedServices;
    }
    ProcessResult result = run(List.of(tool("docker-compose"), "-f", COMPOSE_FILE.toString(), "config"), CREDENTIALS);
    assertEquals(0, result.exitCode, "docker-compose config:\n" + result.output);
    // docker-compose 1.x may print warnings before the YAML.
    int start = result.output.indexOf("services:");
    assertTrue(start >= 0, "docker-compose config printed no services:\n" + result.output);
    resolvedServices = (Map<String, Map<String, Object>>) yaml(result.output.substring(start)).get("services");
    return resolvedServices;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> yaml(String text) throws IOException {
    return new ObjectMapper(new YAMLFactory()).readValue(text, Map.class);
  }

  /** The command of a service, one string (list form joined by spaces). */
  private static String command(String service) throws Exception {
    Object command = services().get(service).get("command");
    return command instanceof List ? ((List<?>) command).stream().map(String::valueOf)
        .collect(Collectors.joining(" ")) : String.valueOf(command);
  }

  /** The environment of a service, in map or list form. */
  private static Map<String, String> environment(Map<String, Object> service) {
    Map<String, String> environment = new LinkedHashMap<>();
    Object value = service.get("environment");
    if (value instanceof Map) {
      ((Map<?, ?>) value).forEach((k, v) -> environment.put(String.valueOf(k), String.valueOf(v)));
    } else if (value instanceof List) {
      for (Object entry : (List<?>) value) {
        String[] pair = String.valueOf(entry).split("=", 2);
        environment.put(pair[0], pair.length > 1 ? pair[1] : "");
      }
    }
    return environment;
  }

  /**
   * The bind mounts of a service: container path to host path. docker-compose 1.x prints them as
   * {@code host:container[:mode]}, Compose 2 as maps with source and target.
   */
  private static Map<String, Path> mounts(String service) throws Exception {
    Map<String, Path> mounts = new LinkedHashMap<>();
    Object volumes = services().get(service).get("volumes");
    if (volumes == null) {
      return mounts;
    }
    for (Object volume : (List<?>) volumes) {
      if (volume instanceof Map) {
        Map<?, ?> map = (Map<?, ?>) volume;
        if ("bind".equals(map.get("type"))) {
          mounts.put(String.valueOf(map.get("target")), Paths.get(String.valueOf(map.get("source"))));
        }
      } else {
        String[] parts = String.valueOf(volume).split(":");
        if (parts.length >= 2 && parts[0].startsWith("/")) {
          mounts.put(parts[1], Paths.get(parts[0]));
        }
      }
    }
    return mounts;
  }

  /**
   * The path of a tool; when it is missing, the test is skipped with a message, or fails under CI=true.
   */
  private static String tool(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Paths.get(dir, name))) {
        return Paths.get(dir, name).toString();
      }
    }
    String message = name + " is not installed, so docker-demo/ was not checked with it (Debian: apt-get install -y "
        + name + "; .ci/run installs it)";
    if ("true".equals(System.getenv("CI"))) {
      fail(message + ". Under CI=true this check must run.");
    }
    Assumptions.abort(message);
    return name;
  }

  /** Runs a command in the repository root with changes to the environment (a null value removes the variable). */
  private static ProcessResult run(List<String> command, Map<String, String> environment) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(ROOT.toFile())
        .redirectErrorStream(true);
    environment.forEach((name, value) -> {
      if (value == null) {
        builder.environment().remove(name);
      } else {
        builder.environment().put(name, value);
      }
    });
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      fail(String.join(" ", command) + " did not finish in 120 s:\n" + output);
    }
    return new ProcessResult(process.exitValue(), output);
  }

  private static final class ProcessResult {
    private final int exitCode;
    private final String output;

    private ProcessResult(int exitCode, String output) {
      this.exitCode = exitCode;
      this.output = output;
    }
  }
}
