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
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Starts a {@link StreamerJob} the way users run it, {@code spark-submit --class HoodieStreamer}, in a separate JVM.
 * Without a Spark distribution, the launch is {@code java -cp ... org.apache.spark.deploy.SparkSubmit}, which is what
 * the spark-submit script runs. The plugin sits on the classpath next to the Hudi bundles, since Hudi loads sources,
 * transformers and callbacks through its own class loader.
 */
public final class SparkSubmitLauncher {

  private SparkSubmitLauncher() {
  }

  /**
   * Starts the job; its output goes to {@code log}.
   *
   * @param extraJvmOptions more options for the driver JVM, e.g. system properties read by fault injectors
   */
  public static Process start(StreamerJob job, Path log, String... extraJvmOptions) {
    List<String> deployment = deploymentClasspath();
    String utilitiesBundle = deployment.stream().filter(jar -> jar.contains("hudi-utilities-slim-bundle"))
        .findFirst().orElseThrow(() -> new IllegalStateException("no utilities bundle in " + deployment));
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(Arrays.asList(System.getProperty("spark.java17.opens").trim().split("\\s+")));
    command.addAll(Arrays.asList(extraJvmOptions));
    command.add("-cp");
    command.add(System.getProperty("plugin.classes.dir") + File.pathSeparator
        + System.getProperty("test.classes.dir") + File.pathSeparator + String.join(File.pathSeparator, deployment));
    command.add(SparkSubmit.class.getName());
    command.addAll(Arrays.asList("--master", "local[2]",
        "--conf", "spark.serializer=org.apache.spark.serializer.KryoSerializer",
        "--conf", "spark.kryo.registrator=org.apache.spark.HoodieSparkKryoRegistrar",
        "--conf", "spark.sql.extensions=org.apache.spark.sql.hudi.HoodieSparkSessionExtension",
        "--conf", "spark.ui.enabled=false",
        "--class", HoodieStreamer.class.getName(),
        utilitiesBundle));
    command.addAll(Arrays.asList(job.arguments()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    try {
      return builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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

  private static List<String> deploymentClasspath() {
    try {
      return Arrays.asList(new String(Files.readAllBytes(Paths.get(System.getProperty("deployment.classpath.file"))),
          StandardCharsets.UTF_8).trim().split(File.pathSeparator));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
