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

import org.apache.hudi.utilities.streamer.HoodieStreamer;

import org.apache.spark.deploy.SparkSubmit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Starts a {@link StreamerJob} the way users run it, {@code spark-submit --class HoodieStreamer}, in a separate JVM.
 * Without a Spark distribution, the launch is {@code java -cp ... org.apache.spark.deploy.SparkSubmit}, which is what
 * the spark-submit script runs.
 *
 * <p>In local mode ({@link #start}) the plugin sits on the classpath next to the Hudi bundles, since Hudi loads
 * sources, transformers and callbacks through its own class loader. On a cluster ({@link #startOnCluster}) the
 * driver's classpath is Spark's {@code jars/} only, as with a real {@code spark-submit}, and the Hudi Spark bundle and
 * the plugin travel in {@code --jars}, which puts them in one class loader on the driver and ships them to every
 * executor.
 */
public final class SparkSubmitLauncher {

  /** Hudi's session settings, for every launch. */
  private static final List<String> HUDI_SESSION = LocalSpark.HUDI_SETTINGS.entrySet().stream()
      .flatMap(setting -> Stream.of("--conf", setting.getKey() + "=" + setting.getValue())).collect(Collectors.toList());

  private SparkSubmitLauncher() {
  }

  /**
   * Starts the job in {@code local[2]}; its output goes to {@code log}.
   *
   * @param extraJvmOptions more options for the driver JVM, e.g. system properties read by fault injectors
   */
  public static Process start(StreamerJob job, Path log, String... extraJvmOptions) {
    return start(job, log, Map.of(), Arrays.asList(extraJvmOptions));
  }

  /**
   * Starts the job in {@code local[2]}, as {@link #start(StreamerJob, Path, String...)}, with more environment variables
   * (e.g. S3 credentials, which the AWS SDK reads from there).
   */
  public static Process start(StreamerJob job, Path log, Map<String, String> environment, List<String> extraJvmOptions) {
    List<String> command = driverJvm(extraJvmOptions, System.getProperty("plugin.classes.dir")
        + File.pathSeparator + System.getProperty("test.classes.dir") + File.pathSeparator
        + Deployment.classpath().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
    command.addAll(Arrays.asList("--master", "local[2]"));
    command.addAll(HUDI_SESSION);
    command.addAll(Arrays.asList("--class", HoodieStreamer.class.getName(), Deployment.utilitiesBundle().toString()));
    command.addAll(Arrays.asList(job.arguments()));
    return launch(command, environment, log);
  }

  /**
   * Submits the job to a standalone cluster in client mode, as the standalone command of docs/deployment.md: the driver
   * runs in the launched JVM; one executor of 1 core and 1 GB per Worker; the Hudi Spark bundle, the plugin jar
   * ({@link Deployment#pluginJar()}) and {@code extraJars} in {@code --jars}.
   *
   * @param sparkConf       more {@code --conf} settings, e.g. {@code spark.hadoop.fs.s3a.*}
   * @param environment     added to the driver's environment (executors get the Workers')
   * @param extraJvmOptions more options for the driver JVM, e.g. system properties read by fault injectors
   */
  public static Process startOnCluster(SparkStandaloneCluster cluster, StreamerJob job, Path log,
                                       Map<String, String> sparkConf, Map<String, String> environment,
                                       List<Path> extraJars, String... extraJvmOptions) {
    List<String> command = driverJvm(Arrays.asList(extraJvmOptions), cluster.sparkClasspath());
    command.addAll(Arrays.asList("--master", cluster.masterUrl(), "--deploy-mode", "client"));
    List<Path> jars = new ArrayList<>(List.of(Deployment.sparkBundle(), Deployment.pluginJar()));
    jars.addAll(extraJars);
    command.addAll(Arrays.asList("--jars", jars.stream().map(Path::toString).collect(Collectors.joining(","))));
    command.addAll(HUDI_SESSION);
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.executor.memory", SparkStandaloneCluster.MEMORY_PER_WORKER);
    conf.put("spark.executor.cores", String.valueOf(SparkStandaloneCluster.CORES_PER_WORKER));
    conf.put("spark.executor.extraJavaOptions", String.join(" ", Deployment.java17Options()));
    conf.put("spark.sql.shuffle.partitions", "2");
    conf.put("spark.default.parallelism", "2");
    conf.putAll(sparkConf);
    conf.forEach((key, value) -> command.addAll(Arrays.asList("--conf", key + "=" + value)));
    command.addAll(Arrays.asList("--class", HoodieStreamer.class.getName(), Deployment.utilitiesBundle().toString()));
    command.addAll(Arrays.asList(job.arguments()));
    return launch(command, environment, log);
  }

  /** The last lines of a launch's output, for failure messages. */
  public static String tail(Path log, int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return all.stream().skip(Math.max(0, all.size() - lines)).collect(Collectors.joining("\n"));
    } catch (IOException e) {
      return "<no output: " + e.getMessage() + ">";
    }
  }

  /** {@code java <options> -cp <classpath> SparkSubmit}, the rest of the command to follow. */
  private static List<String> driverJvm(List<String> extraJvmOptions, String classpath) {
    List<String> command = new ArrayList<>();
    command.add(Deployment.java());
    command.add("-Xmx1g");
    command.addAll(Deployment.java17Options());
    command.addAll(extraJvmOptions);
    command.add("-cp");
    command.add(classpath);
    command.add(SparkSubmit.class.getName());
    return command;
  }

  private static Process launch(List<String> command, Map<String, String> environment, Path log) {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    try {
      return builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
