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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every relative link of the repository's Markdown files resolves: the file or folder exists, and an anchor names a
 * heading of the target file under GitHub's slug rules. All broken links are reported in one failure, each as
 * {@code file:line -> link (why)}.
 */
class TestMarkdownLinks {

  @Test
  void everyRelativeLinkOfTheRepositorysMarkdownFilesResolves() throws IOException {
    Path root = MarkdownLinkChecker.repositoryRoot();
    List<Path> files = MarkdownLinkChecker.markdownFiles(root);
    assertTrue(files.contains(root.resolve("README.md")), "no README.md found under the repository root " + root);

    List<String> broken = MarkdownLinkChecker.brokenLinks(root);

    assertTrue(broken.isEmpty(), broken.size() + " broken link(s) in the Markdown files under " + root + ":\n"
        + String.join("\n", broken));
  }

  @Test
  void everyPageAndSectionNamedByItsPathInTheRepositorysFilesExists() throws IOException {
    Path root = MarkdownLinkChecker.repositoryRoot();

    List<String> broken = MarkdownLinkChecker.brokenPathReferences(root);

    assertTrue(broken.isEmpty(), broken.size() + " reference(s) to a page or section that does not exist under " + root
        + ":\n" + String.join("\n", broken));
  }

  @Test
  void referencesByPathAreCheckedInCodeScriptsAndMarkdownAlike(@TempDir Path root) throws IOException {
    Files.createDirectories(root.resolve("docs"));
    Files.createDirectories(root.resolve("demo"));
    Files.createDirectories(root.resolve("target"));
    write(root.resolve("README.md"), "# Title", "## Get the jar", "See `docs/page.md#gone` and README.md#get-the-jar.");
    write(root.resolve("docs/page.md"), "## A section", "[relative](../docs/nope.md) is the link check's");
    write(root.resolve("demo/run.sh"), "# see docs/page.md#a-section, docs/missing.md and README.md#run-it");
    write(root.resolve("demo/Tool.java"), "String help = \"docs/page.md#a-section\";");
    write(root.resolve("target/Ignored.java"), "docs/missing.md");

    List<String> broken = MarkdownLinkChecker.brokenPathReferences(root);

    assertEquals(Arrays.asList(
        "README.md:3 -> docs/page.md#gone (no heading with anchor #gone in docs/page.md)",
        "demo/run.sh:1 -> docs/missing.md (no such file: docs/missing.md)",
        "demo/run.sh:1 -> README.md#run-it (no heading with anchor #run-it in README.md)"), broken);
  }

  @Test
  void headingsBecomeGitHubAnchorsAndRepeatedOnesAreNumbered() {
    List<String> page = Arrays.asList(
        "<!-- # not a heading -->",
        "# Joining deltas is not joining tables: exact incremental joins",
        "## Moving tables with `--checkpoint`",
        "## Snapshot reads restricted to the delta's keys (pushdown)",
        "## Issue 10: S3 — requests per table per batch",
        "## Hudi 1.x port map ##",
        "### [Linked](other.md) heading_with_underscores",
        "```",
        "# not a heading either",
        "```",
        "## Notes",
        "## Notes",
        "Setext heading",
        "==============",
        "<a name=\"explicit-anchor\"></a>");

    assertEquals(Arrays.asList(
        "joining-deltas-is-not-joining-tables-exact-incremental-joins",
        "moving-tables-with---checkpoint",
        "snapshot-reads-restricted-to-the-deltas-keys-pushdown",
        "issue-10-s3--requests-per-table-per-batch",
        "hudi-1x-port-map",
        "linked-heading_with_underscores",
        "notes",
        "notes-1",
        "setext-heading",
        "explicit-anchor"), List.copyOf(MarkdownLinkChecker.anchors(page)));
  }

  @Test
  void everyBrokenLinkIsReportedWithItsFileAndLine(@TempDir Path root) throws IOException {
    Files.createDirectories(root.resolve("docs"));
    Files.createDirectories(root.resolve("target"));
    write(root.resolve("README.md"),
        "# Title",
        "[ok](docs/page.md) [ok anchor](docs/page.md#a-section) [ok self](#title) [web](https://example.org/x#y)",
        "[missing file](docs/nope.md)",
        "`[code is not a link](nope.md)`",
        "```",
        "[fenced code is not a link](nope.md)",
        "```",
        "[missing anchor](docs/page.md#no-such-section) ![missing image](docs/chart.png)");
    write(root.resolve("docs/page.md"),
        "## A section",
        "[up](../README.md#title) [bad self](#a-sectio) [folder](../docs/)");
    write(root.resolve("target/ignored.md"), "[ignored](nope.md)");

    List<String> broken = MarkdownLinkChecker.brokenLinks(root);

    assertEquals(Arrays.asList(
        "README.md:3 -> [missing file](docs/nope.md) (no such file: docs/nope.md)",
        "README.md:8 -> [missing anchor](docs/page.md#no-such-section) (no heading with anchor #no-such-section in "
            + "docs/page.md)",
        "README.md:8 -> ![missing image](docs/chart.png) (no such file: docs/chart.png)",
        "docs/page.md:2 -> [bad self](#a-sectio) (no heading with anchor #a-sectio in docs/page.md)"), broken);
  }

  private static void write(Path file, String... lines) throws IOException {
    Files.write(file, Arrays.asList(lines), StandardCharsets.UTF_8);
  }
}
