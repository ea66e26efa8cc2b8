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

package org.apache.hudi.utilities.docs;

import org.apache.hudi.utilities.testutils.ExactJoins;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exact-join recipes that the tests and the benchmarks run ({@link ExactJoins}, files of test-support) are, to the
 * character, the SQL blocks that docs/exact-joins.md shows users.
 */
class TestExactJoinRecipesInDocs {

  static Stream<Arguments> recipes() {
    return Stream.of(
        Arguments.of("inner join", ExactJoins.INNER_JOIN),
        Arguments.of("delete-aware inner join", ExactJoins.DELETE_AWARE_INNER_JOIN),
        Arguments.of("delete-aware join over CDC deltas", ExactJoins.DELETE_AWARE_JOIN_OVER_CDC_DELTAS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recipes")
  void docsShowTheRecipeThatTestsAndBenchmarksRun(String name, String recipe) throws IOException {
    Path page = MarkdownLinkChecker.repositoryRoot().resolve("docs").resolve("exact-joins.md");
    String text = new String(Files.readAllBytes(page), StandardCharsets.UTF_8);

    assertTrue(text.contains("```sql\n" + recipe + "```"), "Cannot find the " + name + " recipe in " + page
        + " as test-support/src/main/resources/org/apache/hudi/utilities/testutils/exact-joins/ holds it (change both "
        + "alike):\n" + recipe);
  }
}
