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

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The jars users deploy, as the build resolved them for tests that launch Spark JVMs: the Hudi bundles (the rebuilt
 * utilities slim bundle, the Spark 3.4 bundle), Spark itself with Hadoop and the S3A connector, and the plugin.
 *
 * <p>In {@code mvn test} the plugin module's jar is not packaged yet (that happens after the tests): {@link #pluginJar}
 * packs the compiled classes into a jar under {@code target/}, which then travels as users ship the released one.
 */
public final class Deployment {

  private Deployment() {
  }

  /** Every jar of the deployment classpath ({@code target/deployment-classpath.txt}), in its order. */
  public static List<Path> classpath() {
    try {
      String text = new String(Files.readAllBytes(Paths.get(System.getProperty("deployment.classpath.file"))),
          StandardCharsets.UTF_8).trim();
      return Arrays.stream(text.split(File.pathSeparator)).map(Paths::get).collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The rebuilt {@code hudi-utilities-slim-bundle}: the primary jar of {@code spark-submit --class HoodieStreamer}. */
  public static Path utilitiesBundle() {
    return jar("hudi-utilities-slim-bundle");
  }

  /** {@code hudi-spark3.4-bundle}, which users pass in {@code --jars}. */
  public static Path sparkBundle() {
    return jar("hudi-spark3.4-bundle");
  }

  /**
   * What a Spark 3.4 distribution with the S3A connector holds in {@code jars/}: the deployment classpath without the
   * Hudi bundles, which a job brings itself.
   */
  public static List<Path> sparkDistribution() {
    List<Path> hudi = List.of(utilitiesBundle(), sparkBundle());
    return classpath().stream().filter(jar -> !hudi.contains(jar)).collect(Collectors.toList());
  }

  /** The Java 17 options every Spark JVM needs (the root pom's {@code spark.java17.opens}). */
  public static List<String> java17Options() {
    return Arrays.asList(System.getProperty("spark.java17.opens").trim().split("\\s+"));
  }

  /** The {@code java} of this JVM. */
  public static String java() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The plugin's compiled classes as a jar, {@code target/test-jars/hudi-utilities-ext.jar}, packed once per JVM. */
  public static synchronized Path pluginJar() {
    Path classes = Paths.get(System.getProperty("plugin.classes.dir"));
    return pack(classes, "", classes.resolveSibling("test-jars").resolve("hudi-utilities-ext.jar"));
  }

  /**
   * The test classes of one package (e.g. {@code org/apache/hudi/utilities/faults}) as a jar under
   * {@code target/test-jars/}, to ship a test helper to Spark JVMs with {@code --jars}.
   */
  public static synchronized Path testPackageJar(String packagePath) {
    Path classes = Paths.get(System.getProperty("test.classes.dir"));
    return pack(classes, packagePath, classes.resolveSibling("test-jars")
        .resolve(packagePath.replace('/', '-') + ".jar"));
  }

  private static Path jar(String artifact) {
    return classpath().stream().filter(jar -> jar.getFileName().toString().startsWith(artifact)).findFirst()
        .orElseThrow(() -> new IllegalStateException("Cannot find " + artifact + " in the deployment classpath "
            + System.getProperty("deployment.classpath.file") + " (rebuild it: mvn -B test-compile -pl "
            + "hudi-utilities-ext -am)"));
  }

  /** Packs the files under {@code classes/prefix} into {@code jar}, unless the jar is newer than all of them. */
  private static Path pack(Path classes, String prefix, Path jar) {
    Path root = classes.resolve(prefix);
    try (Stream<Path> walk = Files.walk(root)) {
      List<Path> files = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
      if (Files.exists(jar) && !newerThan(files, jar)) {
        return jar;
      }
      Files.createDirectories(jar.getParent());
      Manifest manifest = new Manifest();
      manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
      // Test JVMs run side by side (surefire forks): each packs into a file of its own, then moves it in place.
      Path partial = jar.resolveSibling(jar.getFileName() + "." + ProcessHandle.current().pid() + ".partial");
      try (OutputStream file = Files.newOutputStream(partial); JarOutputStream out = new JarOutputStream(file, manifest)) {
        for (Path each : files) {
          out.putNextEntry(new JarEntry(classes.relativize(each).toString().replace(File.separatorChar, '/')));
          Files.copy(each, out);
          out.closeEntry();
        }
      }
      return Files.move(partial, jar, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot pack " + root + " into " + jar, e);
    }
  }

  private static boolean newerThan(List<Path> files, Path jar) throws IOException {
    long packed = Files.getLastModifiedTime(jar).toMillis();
    for (Path file : files) {
      if (Files.getLastModifiedTime(file).toMillis() > packed) {
        return true;
      }
    }
    return false;
  }
}
