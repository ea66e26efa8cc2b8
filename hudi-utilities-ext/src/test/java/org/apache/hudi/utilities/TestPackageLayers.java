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

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packages of the main code form layers: no package reaches back into a package that reaches it. From the bottom,
 * values and rules ({@code checkpoint}, {@code config}, {@code sources.multi}, {@code transform.sql},
 * {@code transform.view}, {@code freshness}), the Hudi 0.14 binding ({@code hudi014}), then the entry points users name ({@code sources},
 * {@code transform}, {@code callback}), the freshness reporter ({@code reporter}: it orchestrates rounds over the
 * binding, so it sits above it and below its command line) and the command-line tools ({@code cli}).
 */
class TestPackageLayers {

  private static final Path MAIN = Paths.get("src/main/java/org/apache/hudi/utilities");
  /** A qualified class name under {@code org.apache.hudi.utilities}: an import, or a name in the code; Hudi's own classes share it. */
  private static final Pattern REFERENCE = Pattern.compile("\\borg\\.apache\\.hudi\\.utilities\\.((?:[a-z0-9_]+\\.)*)([A-Z]\\w*)");

  @Test
  void mainPackagesImportEachOtherWithoutACycle() {
    Map<String, Set<String>> graph = packageGraph();
    assertTrue(graph.size() > 8, "the main packages were found under " + MAIN.toAbsolutePath() + ": " + graph.keySet());
    List<List<String>> cycles = new ArrayList<>();
    for (String from : graph.keySet()) {
      for (String to : graph.get(from)) {
        List<String> back = path(graph, to, from, new TreeSet<>());
        if (back != null && from.compareTo(to) < 0) {
          List<String> cycle = new ArrayList<>();
          cycle.add(from);
          cycle.addAll(back);
          cycles.add(cycle);
        }
      }
    }
    assertEquals(List.of(), cycles, "package cycles (each a path back to its first package); the graph: " + graph);
  }

  @Test
  void theValuesAndRulesImportNoLayerAboveThem() {
    Map<String, Set<String>> graph = packageGraph();
    Set<String> upper = Set.of("hudi014", "sources", "transform", "callback", "reporter", "cli");
    List<String> violations = new ArrayList<>();
    for (String core : List.of("checkpoint", "config", "sources.multi", "transform.sql", "transform.view", "freshness")) {
      graph.getOrDefault(core, Set.of()).stream().filter(upper::contains)
          .forEach(imported -> violations.add(core + " -> " + imported));
    }
    assertEquals(List.of(), violations);
  }

  @Test
  void theReporterOrchestratesTheBindingAndOnlyTheCommandLineImportsIt() {
    Map<String, Set<String>> graph = packageGraph();
    List<String> importers = new ArrayList<>();
    graph.forEach((from, to) -> {
      if (to.contains("reporter") && !from.equals("cli")) {
        importers.add(from);
      }
    });
    assertEquals(List.of(), importers);
    assertTrue(graph.get("reporter").contains("hudi014"), "the reporter adapts nothing itself: " + graph.get("reporter"));
  }

  /** Package (relative to {@code org.apache.hudi.utilities}) to the packages its classes reference, itself left out. */
  private static Map<String, Set<String>> packageGraph() {
    Map<String, Set<String>> graph = new TreeMap<>();
    Set<String> classes = files().stream().map(file -> packageOf(file) + "." + file.getFileName().toString()
        .replace(".java", "")).collect(Collectors.toSet());
    for (Path file : files()) {
      String from = packageOf(file);
      Set<String> to = graph.computeIfAbsent(from, key -> new TreeSet<>());
      Matcher reference = REFERENCE.matcher(withoutComments(read(file)));
      while (reference.find()) {
        String referenced = reference.group(1).isEmpty() ? "" : reference.group(1).substring(0, reference.group(1).length() - 1);
        if (classes.contains(referenced + "." + reference.group(2)) && !referenced.equals(from)) {
          to.add(referenced);
        }
      }
    }
    return graph;
  }

  /** A path of imports from one package to another, or null if there is none. */
  private static List<String> path(Map<String, Set<String>> graph, String from, String to, Set<String> seen) {
    if (from.equals(to)) {
      return new ArrayList<>(List.of(to));
    }
    if (!seen.add(from)) {
      return null;
    }
    for (String next : graph.getOrDefault(from, Set.of())) {
      List<String> rest = path(graph, next, to, seen);
      if (rest != null) {
        rest.add(0, from);
        return rest;
      }
    }
    return null;
  }

  private static String packageOf(Path file) {
    return MAIN.relativize(file.getParent()).toString().replace('/', '.');
  }

  private static String withoutComments(String source) {
    return source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
  }

  private static List<Path> files() {
    try (Stream<Path> files = Files.walk(MAIN)) {
      return files.filter(file -> file.toString().endsWith(".java")).collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
