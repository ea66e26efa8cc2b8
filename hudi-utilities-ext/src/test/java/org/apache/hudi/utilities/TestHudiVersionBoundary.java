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
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Hudi-version boundary: the core (checkpoint values and grammar, window and ceiling math, SQL binding, the
 * carrier, freshness math) imports no type that is specific to a Hudi release line. Those sit in the glue package
 * {@code org.apache.hudi.utilities.hudi014} and in the layers above it: the entry points users name in their configs
 * ({@code sources}, {@code callback}, the transformers) and the command-line tools ({@code cli}), which are the files a
 * binding for another Hudi line replaces.
 */
class TestHudiVersionBoundary {

  private static final Path MAIN = Paths.get("src/main/java/org/apache/hudi/utilities");

  /** Packages, as folders under {@link #MAIN}, whose classes are core. */
  private static final List<String> CORE_PACKAGES = List.of("checkpoint", "sources/multi", "transform", "transform/sql",
      "transform/view", "freshness");

  /**
   * Classes in core packages that are entry points: Hudi instantiates them by name through its 0.14 interfaces; and
   * the SQL file transformer's view path, which reads the view's tables through the binding as the transformer reads
   * snapshots.
   */
  private static final Set<String> ENTRY_POINTS = Set.of("transform/MultiDatasetSqlFileTransformer.java",
      "transform/MultiDatasetTransformer.java", "transform/MultiTableView.java");

  /** Imports that tie a class to a Hudi release line: timelines, commit metadata, planning, relations, metrics. */
  private static final List<String> GLUE_ONLY = List.of(
      "org.apache.hudi.common.table.",
      "org.apache.hudi.common.model.HoodieCommitMetadata",
      "org.apache.hudi.utilities.sources.helpers.",
      "org.apache.hudi.utilities.sources.HoodieIncrSource",
      "org.apache.hudi.utilities.sources.SnapshotLoadQuerySplitter",
      "org.apache.hudi.utilities.streamer.",
      "org.apache.hudi.utilities.ingestion.",
      "org.apache.hudi.DataSourceReadOptions",
      "org.apache.hudi.metrics.",
      "org.apache.hudi.callback.",
      "org.apache.hudi.config.HoodieWriteConfig",
      "org.apache.hudi.org.",
      "org.apache.hudi.com.",
      "org.apache.hudi.utilities.hudi014.");

  @Test
  void coreClassesImportNoHudiVersionSpecificType() {
    List<String> violations = new ArrayList<>();
    List<Path> coreFiles = coreFiles();
    assertTrue(coreFiles.size() > 20, "the core packages were found under " + MAIN.toAbsolutePath());
    for (Path file : coreFiles) {
      for (String line : lines(file)) {
        String imported = line.replaceFirst("^import (static )?", "").replace(";", "").trim();
        if (line.startsWith("import ") && GLUE_ONLY.stream().anyMatch(imported::startsWith)) {
          violations.add(MAIN.relativize(file) + " imports " + imported);
        }
      }
    }
    assertEquals(List.of(), violations, "core classes must reach Hudi-version-specific API through "
        + "org.apache.hudi.utilities.hudi014 (or be an entry point)");
  }

  private static List<Path> coreFiles() {
    return CORE_PACKAGES.stream().flatMap(pkg -> list(MAIN.resolve(pkg)))
        .filter(file -> !ENTRY_POINTS.contains(MAIN.relativize(file).toString()))
        .collect(Collectors.toList());
  }

  private static Stream<Path> list(Path folder) {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(file -> file.toString().endsWith(".java")).collect(Collectors.toList()).stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
