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

import org.apache.hudi.common.util.FileIOUtils;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every number RFC-108 takes from the tests or the benchmarks is the number its source gives today: the cases of a
 * test class counted in its source, the generated cases of a property suite, the lines and tests of the patch series
 * of {@code upstream/}. So is every number of the plugin that the RFC moved out to {@code docs/upstream.md} (the
 * carrier, the figures of {@code benchmarks/RESULTS.md}) and {@code docs/hudi-1x-port.md} (the files of the port map
 * found in the repository). Each claim is one entry of {@link #claims()}: the page it is on, a pattern around a stable
 * phrase of it whose group 1 is the number, and the computation of the true value from the source. A claim whose
 * number is wrong fails naming the page's line, its number and the true one; a claim whose phrase is gone fails asking
 * for its pattern to follow the new wording.
 */
class TestRfcNumbers {

  private static final String RFC = "rfc/rfc-108/rfc-108.md";
  /** Where the RFC moved the plugin's own figures: the carrier and the benchmarks. */
  private static final String UPSTREAM_DOC = "docs/upstream.md";
  /** Where the RFC moved the plugin's port map onto Hudi 1.x. */
  private static final String PORT_DOC = "docs/hudi-1x-port.md";
  private static final String RESULTS = "benchmarks/RESULTS.md";
  private static final String POM = "pom.xml";
  private static final String PLUGIN_MAIN = "hudi-utilities-ext/src/main/java/org/apache/hudi/utilities/";
  private static final String TEST_JAVA = "hudi-utilities-ext/src/test/java/org/apache/hudi/utilities/";
  private static final String TEST_SCALA = "hudi-utilities-ext/src/test/scala/";
  private static final String MISCONFIGURATION = TEST_JAVA + "sources/TestMultiTableJobMisconfiguration.java";
  private static final String CRASH_SAFETY = TEST_JAVA + "sources/TestMultiTableCrashSafety.java";
  private static final String CRASH_POINT = TEST_JAVA + "faults/CrashPoint.java";
  private static final String GRAMMAR_PROPERTIES = TEST_SCALA + "org/apache/hudi/utilities/checkpoint/TestMultiTableCheckpointGrammar.scala";
  private static final String SQL_PROPERTIES = TEST_SCALA + "org/apache/hudi/utilities/transform/sql/TestSqlPlaceholderBinding.scala";
  /** The RFC's table that upstream/build.sh checks (TestRfcConfigurationTable): its numbers are the code's. */
  private static final String GENERATED_START = "<!-- generated table: HoodieIncrMultiSourceConfig -->";
  private static final String GENERATED_END = "<!-- end of generated table -->";
  private static final String PORT_MAP_HEADING = "## Hudi 1.x port map";
  /** The patch series for Hudi 0.14.0, built and run end to end by upstream/build.sh. */
  private static final PatchSeries SERIES = new PatchSeries("upstream/series", "upstream/patches/");
  /** The series as pull requests to apache/hudi master, built by upstream/build-master.sh. */
  private static final PatchSeries MASTER_SERIES = new PatchSeries("upstream/master/series", "upstream/master/patches/");
  private static final String UPSTREAM_STREAMER_TEST = "hudi-utilities/src/test/java/org/apache/hudi/utilities/sources/TestHoodieIncrMultiSource.java";

  /**
   * The claims. In a pattern a space stands for any run of white space (the RFC wraps its lines) and group 1 is the
   * number as the RFC writes it: digits ({@code 1,000}, {@code 17.8}) or a word ({@code five}, {@code both}). Every
   * place the pattern matches is checked.
   */
  static Stream<Claim> claims() {
    return Stream.of(
        claim(UPSTREAM_DOC, "cases of the misconfiguration test", "`TestMultiTableJobMisconfiguration`, (\\w+) cases",
            "the JUnit cases of " + MISCONFIGURATION, () -> testCases(read(MISCONFIGURATION))),
        claim("generated cases per property of the checkpoint grammar suite",
            "`TestMultiTableCheckpointGrammar`, ([\\d,]+) generated cases per property",
            "minSuccessful of " + GRAMMAR_PROPERTIES, () -> propertyCases(read(GRAMMAR_PROPERTIES))),
        claim("generated SQL files per property of the placeholder suite",
            "`TestSqlPlaceholderBinding`, ([\\d,]+) generated SQL files per property",
            "minSuccessful of " + SQL_PROPERTIES, () -> propertyCases(read(SQL_PROPERTIES))),
        claim("generated cases per property of every property suite (test plan)",
            "`scalatest-maven-plugin`, ([\\d,]+) generated cases per property",
            "minSuccessful of every ScalaCheck suite under " + TEST_SCALA, TestRfcNumbers::casesOfEveryPropertySuite),
        claim("property suites (test plan)", "(\\w+) suites pure",
            "the ScalaCheck suites under " + TEST_SCALA, TestRfcNumbers::propertySuites),
        claim("crash points of the crash-safety test", "Streamer JVMs at (\\w+) points",
            "the constants of enum CrashPoint in " + CRASH_POINT, () -> enumConstants(read(CRASH_POINT), "CrashPoint")),
        claim("fixed seeds of a build of the crash-safety test", "(\\w+) fixed seeds? a build",
            "the static final long ...SEED constants of " + CRASH_SAFETY, () -> fixedSeeds(read(CRASH_SAFETY))),
        claim("setups of the crash-safety test", "(\\w+) setups: local and S3",
            "the constants of enum Setup in " + CRASH_SAFETY, () -> enumConstants(read(CRASH_SAFETY), "Setup")),
        claim(UPSTREAM_DOC, "S3 latency of the fan-out (P3)", "On S3 with (\\d+) ms a request",
            "the P3 goal of " + RESULTS, () -> group(goal("P3 on S3"), "(\\d+) ms a request")),
        claim(UPSTREAM_DOC, "tables of the S3 fan-out (P3)", "ms a request, (\\d+) tables:",
            "the P3 goal of " + RESULTS, () -> group(goal("P3 on S3"), "(\\d+) tables")),
        claim(UPSTREAM_DOC, "parallel batch on S3 (P3)", "([\\d.]+) s parallel against",
            "P3's latest figure in " + RESULTS + ", its second number", () -> number(latest("P3 on S3"), 1)),
        claim(UPSTREAM_DOC, "sequential batch on S3 (P3)", "against ([\\d.]+) s sequential",
            "P3's latest figure in " + RESULTS + ", its third number", () -> number(latest("P3 on S3"), 2)),
        claim(UPSTREAM_DOC, "issue of the S3 fan-out figures", "RESULTS\\.md\\]\\([^)]*\\), issue (\\d+)\\)",
            "the section of " + RESULTS + " holding the goal table", () -> group(goalTable().section, "Issue (\\d+)")),
        claim(UPSTREAM_DOC, "tables in one batch (P3)", "go to (\\d+) tables in one batch \\(P3\\)",
            "the P3 goal of " + RESULTS, () -> group(goal("P3 on S3"), "(\\d+) tables")),
        claim(UPSTREAM_DOC, "files a table (P1)", "to tables of (\\d+) files \\(P1\\)",
            "the P1 goal of " + RESULTS, () -> group(goal("P1:"), "at (\\d+) files")),
        claim(UPSTREAM_DOC, "workaround / ours (P1)", "([\\d.]+)x slower than the incremental reads",
            "P1's latest figure in " + RESULTS, () -> number(latest("P1:"), 0)),
        claim(UPSTREAM_DOC, "files of the workaround comparison (P1)", "slower than the incremental reads at (\\d+) files",
            "the P1 goal of " + RESULTS, () -> group(goal("P1:"), "at (\\d+) files")),
        claim(PORT_DOC, "Java files of the port map", "That is (\\d+) Java files",
            "the distinct plugin files named in the port map's project-file column, as paths, file names or class names",
            TestRfcNumbers::portMapJavaFiles),
        claim(PORT_DOC, "poms of the port map", "Java files and (\\w+) poms",
            "the distinct pom.xml files of the port map's project-file column", TestRfcNumbers::portMapPoms),
        claim("patches of the master series", "PRs 1 to (\\w+) applied to master's files",
            "the patches of " + MASTER_SERIES, MASTER_SERIES::patches),
        claim("lines the master series adds to StreamSync", "`StreamSync`\\*\\* changes by (\\w+) added",
            "the lines the patches of " + MASTER_SERIES + " add to StreamSync.java",
            () -> MASTER_SERIES.lines("/StreamSync\\.java$")[0]),
        claim("lines the master series removes from StreamSync", "changes by \\w+ added and (\\w+) removed lines",
            "the lines the patches of " + MASTER_SERIES + " remove from StreamSync.java",
            () -> MASTER_SERIES.lines("/StreamSync\\.java$")[1]),
        claim("misconfigurations of the upstream end-to-end test", "a SQL join, (\\w+) misconfigurations failing",
            "the cases of misconfigurationFailsBeforeAnythingIsCommitted in " + UPSTREAM_STREAMER_TEST + " as the series leaves it",
            () -> casesOf(SERIES.patchedFile(UPSTREAM_STREAMER_TEST), "misconfigurationFailsBeforeAnythingIsCommitted")),
        claim("Hudi version", "(?:Hudi|slim bundle for|`hudi-utilities`) (\\d+\\.\\d+\\.\\d+)",
            "hudi.version of " + POM, () -> group(read(POM), "<hudi\\.version>([^<]+)</hudi\\.version>")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("claims")
  void pageQuotesTheNumberOfItsSource(Claim claim) {
    String rfc = claim.page.equals(RFC) ? rfcText() : read(claim.page);
    Object computed = claim.truth.value();
    String truth = computed instanceof Collection ? String.valueOf(((Collection<?>) computed).size()) : String.valueOf(computed);
    String counted = computed instanceof Collection ? ": " + computed : "";
    Matcher matcher = claim.pattern.matcher(rfc);
    List<String> wrong = new ArrayList<>();
    int found = 0;
    while (matcher.find()) {
      found++;
      if (!sameNumber(matcher.group(1), truth)) {
        int line = lineOf(rfc, matcher.start(1));
        wrong.add(String.format("%s line %d says %s (\"%s\"), but the true value is %s (%s%s)", claim.page, line,
            matcher.group(1), rfc.split("\n", -1)[line - 1].trim(), truth, claim.source, counted));
      }
    }
    assertTrue(found > 0, claim.page + " no longer has the claim '" + claim + "' (pattern " + claim.pattern + "): if it was "
        + "reworded, make its pattern in " + TestRfcNumbers.class.getSimpleName() + " follow; if it was dropped, drop it");
    if (!wrong.isEmpty()) {
      fail(claim.page + " is stale on '" + claim + "':\n  " + String.join("\n  ", wrong));
    }
  }

  /** The counters on sources whose counts are known: what JUnit runs, what an enum holds. */
  @Test
  void countersCountWhatTheSourcesHold() {
    String testClass = String.join("\n",
        "class TestExample {",
        "  // @Test in a comment is no test; \"@Test\" in a string neither",
        "  private static final String TEXT = \"@Test\";",
        "  static Stream<Arguments> cases() {",
        "    return Stream.of(Arguments.of(\"a, b\", 1), Arguments.of(\"c\", List.of(2, 3)));",
        "  }",
        "  enum Mode { FAST(1), SLOW(2) { int speed() { return 0; } }, ; int speed() { return 1; } }",
        "  @Test void one() { }",
        "  @Disabled @Test void skipped() { }",
        "  @ParameterizedTest @ValueSource(ints = {1, 2, 3}) void three(int i) { }",
        "  @ParameterizedTest(name = \"{0}\")",
        "  @MethodSource(\"cases\") void two(String s, Object o) { }",
        "  @ParameterizedTest @MethodSource void cases(String s, Object o) { }",
        "  @ParameterizedTest @EnumSource(Mode.class) void modes(Mode mode) { }",
        "  @ParameterizedTest @CsvSource({\"a, 1\", \"b, 2\"}) void csv(String s, int i) { }",
        "  @RepeatedTest(4) void four() { }",
        "  @TestInstance(TestInstance.Lifecycle.PER_CLASS) class Nested { @Test void nested() { } }",
        "}");
    assertEquals(1 + 3 + 2 + 2 + 2 + 2 + 4 + 1, testCases(testClass));
    assertEquals(2, enumConstants(testClass, "Mode"));
    assertEquals(1000, propertyCases("PropertyCheckConfiguration(minSuccessful = 1000, sizeRange = 30)"));
    assertEquals(2, fixedSeeds("private static final long CI_SEED = 1L; static final long OTHER_SEED = 2; long seed;"));

    assertEquals(1, casesOf(testClass, "one"));
    assertEquals(2, casesOf(testClass, "two"));

    assertTrue(sameNumber("1,000", "1000") && sameNumber("17.8", "17.80") && sameNumber("both", "2")
        && sameNumber("Five", "5") && sameNumber("0.14.0", "0.14.0") && !sameNumber("17", "16"));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // The claims

  /** The true value of a claim, computed from its source: a value, or the things counted (the value is their number). */
  @FunctionalInterface
  interface Truth {
    Object value();
  }

  /** A number of the RFC: where it is (a pattern whose group 1 is the number) and where its true value comes from. */
  static final class Claim {
    private final String page;
    private final String name;
    private final Pattern pattern;
    private final String source;
    private final Truth truth;

    private Claim(String page, String name, Pattern pattern, String source, Truth truth) {
      this.page = page;
      this.name = name;
      this.pattern = pattern;
      this.source = source;
      this.truth = truth;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static Claim claim(String name, String pattern, String source, Truth truth) {
    return claim(RFC, name, pattern, source, truth);
  }

  private static Claim claim(String page, String name, String pattern, String source, Truth truth) {
    return new Claim(page, name, Pattern.compile(pattern.replace(" ", "\\s+")), source, truth);
  }

  private static final Map<String, Integer> NUMBER_WORDS = new HashMap<>();

  static {
    List<String> words = Arrays.asList("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        "ten", "eleven", "twelve");
    for (int i = 0; i < words.size(); i++) {
      NUMBER_WORDS.put(words.get(i), i);
    }
    NUMBER_WORDS.put("both", 2);
    NUMBER_WORDS.put("single", 1);
  }

  /** Whether the RFC's number is the true one: equal as numbers (1,000 = 1000, 17.8 = 17.80, five = 5), else as text. */
  static boolean sameNumber(String said, String truth) {
    BigDecimal saidNumber = parseNumber(said);
    BigDecimal trueNumber = parseNumber(truth);
    return saidNumber != null && trueNumber != null ? saidNumber.compareTo(trueNumber) == 0 : said.trim().equals(truth.trim());
  }

  private static BigDecimal parseNumber(String text) {
    String normalized = text.trim().toLowerCase(Locale.ROOT);
    if (NUMBER_WORDS.containsKey(normalized)) {
      return BigDecimal.valueOf(NUMBER_WORDS.get(normalized));
    }
    normalized = normalized.replaceAll("(?<=\\d),(?=\\d{3})", "");
    return normalized.matches("-?\\d+(\\.\\d+)?") ? new BigDecimal(normalized) : null;
  }

  /** The RFC, its generated configuration table blanked (upstream/build.sh checks its numbers). */
  private static String rfcText() {
    String text = read(RFC);
    int start = text.indexOf(GENERATED_START);
    int end = text.indexOf(GENERATED_END);
    if (start < 0 || end < start) {
      return text;
    }
    String blank = text.substring(start, end).replaceAll("[^\n]", "");
    return text.substring(0, start) + blank + text.substring(end);
  }

  private static int lineOf(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private static String read(String relativePath) {
    Path path = MarkdownLinkChecker.repositoryRoot().resolve(relativePath);
    try {
      return new String(Files.readAllBytes(path), StandardCharsets.UTF_8).replace("\r\n", "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + path, e);
    }
  }

  /** Group 1 of the first match of {@code regex} in {@code text}; fails if there is none. */
  private static String group(String text, String regex) {
    Matcher matcher = Pattern.compile(regex).matcher(text);
    assertTrue(matcher.find(), "no '" + regex + "' in: " + text);
    return matcher.group(1);
  }

  /** The {@code index}-th number (from 0) of {@code text}, e.g. 5.96 is number 2 of "0.50x (3.00 vs 5.96 s)". */
  private static String number(String text, int index) {
    Matcher matcher = Pattern.compile("\\d+(?:\\.\\d+)?").matcher(text);
    for (int i = 0; matcher.find(); i++) {
      if (i == index) {
        return matcher.group();
      }
    }
    throw new AssertionError("no number " + index + " in: " + text);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Sources: benchmarks/RESULTS.md

  /** A Markdown table: its header, its rows (cells trimmed) and the last level-2 heading above it. */
  static final class Table {
    private final List<String> header;
    private final List<List<String>> rows;
    private final String section;

    private Table(List<String> header, List<List<String>> rows, String section) {
      this.header = header;
      this.rows = rows;
      this.section = section;
    }

    List<String> row(String firstCellPrefix) {
      List<List<String>> matching = rows.stream().filter(row -> row.get(0).startsWith(firstCellPrefix))
          .collect(Collectors.toList());
      assertEquals(1, matching.size(), "rows starting with '" + firstCellPrefix + "' in the table " + header);
      return matching.get(0);
    }

    int column(String name) {
      int column = header.indexOf(name);
      assertTrue(column >= 0, "no column '" + name + "' in the table " + header);
      return column;
    }
  }

  /** The first table of {@code text} after {@code fromLine} (a line of it, or the start) whose header matches. */
  private static Table table(String text, String fromLine, Pattern headerPattern) {
    List<String> lines = Arrays.asList(text.split("\n", -1));
    int from = fromLine == null ? 0 : lines.indexOf(fromLine);
    assertTrue(from >= 0, "no line '" + fromLine + "'");
    String section = "";
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("## ")) {
        section = line;
      }
      if (i >= from && headerPattern.matcher(line).find()) {
        List<String> header = cells(line);
        List<List<String>> rows = new ArrayList<>();
        for (int j = i + 2; j < lines.size() && lines.get(j).startsWith("|"); j++) {
          List<String> row = cells(lines.get(j));
          assertEquals(header.size(), row.size(), "cells of '" + lines.get(j) + "' under " + header);
          rows.add(row);
        }
        return new Table(header, rows, section);
      }
    }
    throw new AssertionError("no table with a header like '" + headerPattern + "'");
  }

  private static List<String> cells(String line) {
    String inner = line.trim().replaceAll("^\\|", "").replaceAll("(?<!\\\\)\\|$", "");
    return Arrays.stream(inner.split("(?<!\\\\)\\|", -1)).map(String::trim).collect(Collectors.toList());
  }

  /** The goal table of RESULTS.md: its first, newest table of goals ("| goal | before | ... | met |"). */
  private static Table goalTable() {
    return table(read(RESULTS), null, Pattern.compile("^\\| goal \\|.*\\| met \\|$"));
  }

  /** The goal of a row of the goal table, e.g. "P3 on S3, 8 tables, 30 ms a request: ...". */
  private static String goal(String goalPrefix) {
    return goalTable().row(goalPrefix).get(0);
  }

  /** The latest figure of a goal: its cell in the column just before "met". */
  private static String latest(String goalPrefix) {
    Table goals = goalTable();
    return goals.row(goalPrefix).get(goals.column("met") - 1);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Sources: the RFC's port map, the repository

  /** What the project-file column of the RFC's port map names in backquotes, row by row. */
  private static List<String> portMapNames() {
    Table portMap = table(read(PORT_DOC), PORT_MAP_HEADING, Pattern.compile("^\\| Hudi API the plugin uses"));
    int column = portMap.column("project file");
    List<String> names = new ArrayList<>();
    for (List<String> row : portMap.rows) {
      Matcher quoted = Pattern.compile("`([^`]+)`").matcher(row.get(column));
      while (quoted.find()) {
        names.add(quoted.group(1));
      }
    }
    return names;
  }

  /** The distinct poms the port map names. */
  private static Set<String> portMapPoms() {
    return portMapNames().stream().filter(name -> name.endsWith("pom.xml")).collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * The distinct plugin files the port map names, by their path under {@link #PLUGIN_MAIN}: a path as written if the
   * file is there, else the one plugin file of that name ({@code StoredCheckpointReader.java} for
   * {@code hudi014/StoredCheckpointReader.java}); a class name ({@code `WindowFileScan`}) counts when it is the name of
   * exactly one plugin file. A {@code .java} name that matches no plugin file, or several, fails.
   */
  private static Set<String> portMapJavaFiles() {
    Path main = MarkdownLinkChecker.repositoryRoot().resolve(PLUGIN_MAIN);
    Map<String, List<String>> byName;
    try (Stream<Path> files = Files.walk(main)) {
      byName = files.filter(file -> file.toString().endsWith(".java"))
          .collect(Collectors.groupingBy(file -> file.getFileName().toString(),
              Collectors.mapping(file -> main.relativize(file).toString().replace('\\', '/'), Collectors.toList())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<String> files = new TreeSet<>();
    for (String name : portMapNames()) {
      if (name.endsWith(".java") && Files.isRegularFile(main.resolve(name))) {
        files.add(name);
      } else if (name.endsWith(".java")) {
        List<String> candidates = byName.getOrDefault(name.substring(name.lastIndexOf('/') + 1), new ArrayList<>());
        assertEquals(1, candidates.size(), "plugin files the port map may mean by " + name + ": " + candidates);
        files.add(candidates.get(0));
      } else if (name.matches("[A-Z]\\w*") && byName.getOrDefault(name + ".java", new ArrayList<>()).size() == 1) {
        files.add(byName.get(name + ".java").get(0));
      }
    }
    return files;
  }

  /** The ScalaCheck property suites of the plugin's Scala tests. */
  private static List<Path> propertySuites() {
    try (Stream<Path> files = Files.walk(MarkdownLinkChecker.repositoryRoot().resolve(TEST_SCALA))) {
      return files.filter(file -> file.toString().endsWith(".scala"))
          .filter(file -> read(MarkdownLinkChecker.repositoryRoot().relativize(file).toString())
              .contains("ScalaCheckPropertyChecks"))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The generated cases per property, the same in every property suite (else there is no one number to quote). */
  private static int casesOfEveryPropertySuite() {
    Map<Path, Integer> cases = propertySuites().stream().collect(Collectors.toMap(suite -> suite,
        suite -> propertyCases(read(MarkdownLinkChecker.repositoryRoot().relativize(suite).toString()))));
    assertEquals(1, new TreeSet<>(cases.values()).size(), "the property suites differ in their cases: " + cases);
    return cases.values().iterator().next();
  }

  /** A property suite's generated cases per property: the one {@code minSuccessful} of its check configuration. */
  static int propertyCases(String scalaSource) {
    Matcher matcher = Pattern.compile("minSuccessful\\s*=\\s*([\\d_]+)").matcher(scalaSource);
    assertTrue(matcher.find(), "no 'minSuccessful = <n>' in the suite");
    int cases = Integer.parseInt(matcher.group(1).replace("_", ""));
    assertTrue(!matcher.find() && !scalaSource.contains("minSuccessful("), "a property overrides minSuccessful");
    return cases;
  }

  /** The fixed seeds of a test: its {@code static final long ...SEED = <literal>} constants. */
  static int fixedSeeds(String javaSource) {
    Matcher matcher = Pattern.compile("\\bstatic\\s+final\\s+long\\s+\\w*SEED\\w*\\s*=\\s*-?\\d+L?\\s*;")
        .matcher(JavaSource.of(javaSource).code);
    int seeds = 0;
    while (matcher.find()) {
      seeds++;
    }
    return seeds;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Sources: the patch series of upstream/

  /** The patches of upstream/series, in the order the build applies them. */
  /** A patch series: the file listing its patches in order, and the folder holding them. */
  private static final class PatchSeries {
    private final String seriesFile;
    private final String patchFolder;

    PatchSeries(String seriesFile, String patchFolder) {
      this.seriesFile = seriesFile;
      this.patchFolder = patchFolder;
    }

    List<String> patches() {
      return Arrays.stream(read(seriesFile).split("\n")).map(String::trim)
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .collect(Collectors.toList());
    }

    /**
     * The lines added ([0]) and removed ([1]) by the whole series in the files whose path matches {@code fileRegex},
     * as {@code git apply --numstat} counts them.
     */
    int[] lines(String fileRegex) {
      Pattern file = Pattern.compile(fileRegex);
      int[] lines = new int[2];
      for (String patch : patches()) {
        for (String stat : git(MarkdownLinkChecker.repositoryRoot(), "apply", "--numstat", patchFile(patch)).split("\n")) {
          String[] columns = stat.split("\t");
          if (columns.length == 3 && file.matcher(columns[2]).find()) {
            lines[0] += Integer.parseInt(columns[0]);
            lines[1] += Integer.parseInt(columns[1]);
          }
        }
      }
      return lines;
    }

    /** A file as the whole series leaves it: the patches applied in order by git, as the build scripts apply them. */
    String patchedFile(String path) {
      try {
        Path tree = Files.createTempDirectory("rfc-numbers");
        try {
          for (String patch : patches()) {
            git(tree, "apply", "--include=" + path, patchFile(patch));
          }
          return new String(Files.readAllBytes(tree.resolve(path)), StandardCharsets.UTF_8);
        } finally {
          FileIOUtils.deleteDirectory(tree.toFile());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private String patchFile(String patch) {
      return MarkdownLinkChecker.repositoryRoot().resolve(patchFolder + patch).toString();
    }

    @Override
    public String toString() {
      return seriesFile;
    }
  }

  /** Runs git in {@code dir}; its standard output, or a failure with its messages. */
  private static String git(Path dir, String... arguments) {
    List<String> command = new ArrayList<>();
    command.add("git");
    command.addAll(Arrays.asList(arguments));
    try {
      Process git = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, git.waitFor(), String.join(" ", command) + " failed in " + dir + ": " + output);
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Sources: Java test classes

  /** The constants of the enum {@code name} declared in a Java source. */
  static int enumConstants(String javaSource, String name) {
    JavaSource source = JavaSource.of(javaSource);
    Matcher declaration = Pattern.compile("\\benum\\s+" + name + "\\b[^{]*\\{").matcher(source.code);
    assertTrue(declaration.find(), "no enum " + name);
    int open = declaration.end() - 1;
    String body = source.code.substring(open + 1, source.closing(open));
    int constantsEnd = body.length();
    int depth = 0;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      depth += JavaSource.depthChange(c);
      if (c == ';' && depth == 0) {
        constantsEnd = i;
        break;
      }
    }
    return JavaSource.topLevelItems(body.substring(0, constantsEnd)).size();
  }

  /**
   * The cases JUnit runs of a test class: one per {@code @Test}, n per {@code @RepeatedTest(n)}, and per
   * {@code @ParameterizedTest} the arguments of its {@code @ValueSource}, {@code @CsvSource}, {@code @EnumSource} or
   * {@code @MethodSource} (a method that returns {@code Stream.of(...)}, {@code List.of(...)} or
   * {@code Arrays.asList(...)}); {@code @Disabled} methods count none. Anything else fails rather than guess.
   */
  static int testCases(String javaSource) {
    JavaSource source = JavaSource.of(javaSource);
    assertTrue(!source.code.contains("@TestFactory") && !source.code.contains("@TestTemplate"),
        "dynamic tests cannot be counted from the source");
    int cases = 0;
    for (Map.Entry<String, Map<String, String>> method : source.annotatedMethods().entrySet()) {
      cases += casesOf(source, method.getKey(), method.getValue());
    }
    return cases;
  }

  /** The cases JUnit runs of one test method of a test class, counted as {@link #testCases} counts them. */
  static int casesOf(String javaSource, String method) {
    JavaSource source = JavaSource.of(javaSource);
    Map<String, String> annotations = source.annotatedMethods().get(method);
    assertTrue(annotations != null, "no annotated method " + method);
    return casesOf(source, method, annotations);
  }

  private static int casesOf(JavaSource source, String method, Map<String, String> annotations) {
    if (annotations.containsKey("Disabled")) {
      return 0;
    }
    if (annotations.containsKey("Test")) {
      return 1;
    }
    if (annotations.containsKey("RepeatedTest")) {
      return Integer.parseInt(group(annotations.get("RepeatedTest"), "(\\d+)"));
    }
    return annotations.containsKey("ParameterizedTest") ? parameterizedCases(source, method, annotations) : 0;
  }

  private static int parameterizedCases(JavaSource source, String method, Map<String, String> annotations) {
    if (annotations.containsKey("ValueSource") || annotations.containsKey("CsvSource")) {
      String arguments = annotations.containsKey("ValueSource") ? annotations.get("ValueSource") : annotations.get("CsvSource");
      String value = JavaSource.of(arguments).code.replaceAll("^\\(\\s*(\\w+\\s*=\\s*)?", "").replaceAll("\\)$", "").trim();
      return value.startsWith("{") ? JavaSource.topLevelItems(value.substring(1, value.lastIndexOf('}'))).size() : 1;
    }
    if (annotations.containsKey("EnumSource")) {
      String arguments = annotations.get("EnumSource");
      assertTrue(arguments.matches("\\(\\s*(value\\s*=\\s*)?\\w+\\.class\\s*\\)"), "cannot count @EnumSource" + arguments);
      return enumConstants(source.text, group(arguments, "(\\w+)\\.class"));
    }
    if (annotations.containsKey("MethodSource")) {
      String arguments = annotations.get("MethodSource");
      String factory = arguments.isEmpty() ? method : group(arguments, "^\\(\\s*(?:value\\s*=\\s*)?\"(\\w+)\"\\s*\\)$");
      return source.returnedItems(factory);
    }
    throw new AssertionError("cannot count the cases of " + method + ": no @ValueSource, @CsvSource, @EnumSource or "
        + "@MethodSource in " + annotations.keySet());
  }

  /**
   * A Java source as two texts of the same length: {@link #text} without comments, and {@link #code}, the same with
   * the contents of string and character literals blanked too, so that structure is found in code only.
   */
  static final class JavaSource {
    /** What follows an annotation up to its end: another annotation ({@code @}) or a declaration's first bracket. */
    private static final Pattern DECLARATION = Pattern.compile("[\\s\\w<>\\[\\],.?]*?([(){};=@])");

    private final String text;
    private final String code;

    private JavaSource(String text, String code) {
      this.text = text;
      this.code = code;
    }

    static JavaSource of(String source) {
      StringBuilder text = new StringBuilder(source);
      StringBuilder code = new StringBuilder(source);
      int i = 0;
      while (i < source.length()) {
        int end;
        if (source.startsWith("//", i)) {
          end = source.indexOf('\n', i);
          end = end < 0 ? source.length() : end;
          blank(text, i, end);
          blank(code, i, end);
        } else if (source.startsWith("/*", i)) {
          end = source.indexOf("*/", i + 2);
          end = end < 0 ? source.length() : end + 2;
          blank(text, i, end);
          blank(code, i, end);
        } else if (source.startsWith("\"\"\"", i)) {
          end = source.indexOf("\"\"\"", i + 3);
          end = end < 0 ? source.length() : end + 3;
          blank(code, i + 3, end - 3);
        } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
          end = i + 1;
          while (source.charAt(end) != source.charAt(i)) {
            end += source.charAt(end) == '\\' ? 2 : 1;
          }
          blank(code, i + 1, end);
          end++;
        } else {
          end = i + 1;
        }
        i = end;
      }
      return new JavaSource(text.toString(), code.toString());
    }

    private static void blank(StringBuilder text, int start, int end) {
      for (int i = start; i < end; i++) {
        if (text.charAt(i) != '\n') {
          text.setCharAt(i, ' ');
        }
      }
    }

    /** The index of the bracket that closes the one at {@code open}. */
    int closing(int open) {
      int depth = 0;
      for (int i = open; i < code.length(); i++) {
        char c = code.charAt(i);
        depth += JavaSource.depthChange(c);
        if (depth == 0) {
          return i;
        }
      }
      throw new AssertionError("unbalanced bracket at " + open);
    }

    /**
     * The methods declared with annotations, by name, each with its annotations by simple name and their arguments
     * as written (with the parentheses; empty for none).
     */
    Map<String, Map<String, String>> annotatedMethods() {
      Map<String, Map<String, String>> methods = new HashMap<>();
      Matcher annotation = Pattern.compile("@\\s*([A-Za-z_][\\w.]*)").matcher(code);
      Map<String, String> pending = new HashMap<>();
      int searchFrom = 0;
      while (annotation.find(searchFrom)) {
        String name = annotation.group(1).substring(annotation.group(1).lastIndexOf('.') + 1);
        int end = annotation.end();
        int next = skipBlanks(end);
        String arguments = "";
        if (next < code.length() && code.charAt(next) == '(') {
          end = closing(next) + 1;
          arguments = text.substring(next, end);
        }
        pending.put(name, arguments);
        searchFrom = end;
        // What follows the annotation: another annotation, or the declaration they all belong to.
        Matcher declaration = DECLARATION.matcher(code).region(end, code.length());
        if (declaration.lookingAt() && !declaration.group(1).equals("@")) {
          if (declaration.group(1).equals("(")) {
            String head = code.substring(end, declaration.start(1)).trim();
            methods.put(head.substring(head.lastIndexOf(' ') + 1), pending);
          }
          pending = new HashMap<>();
        }
      }
      return methods;
    }

    /**
     * The items of the {@code Stream.of(...)}, {@code List.of(...)} or {@code Arrays.asList(...)} that a method returns
     * in its one return statement, its last.
     */
    int returnedItems(String method) {
      Matcher declaration = Pattern.compile("\\b" + method + "\\s*\\(\\s*\\)\\s*(throws[^{]*)?\\{").matcher(code);
      assertTrue(declaration.find(), "no method " + method + "()");
      int open = declaration.end() - 1;
      String body = code.substring(open + 1, closing(open));
      Matcher returned = Pattern.compile("\\breturn\\s+(Stream|List|Arrays)\\s*\\.\\s*(of|asList)\\s*\\(").matcher(body);
      assertTrue(returned.find() && body.split("\\breturn\\b", -1).length == 2, "cannot count the cases of " + method
          + "(): its one return is not Stream.of(...), List.of(...) or Arrays.asList(...)");
      int argumentsOpen = open + 1 + returned.end() - 1;
      int argumentsClose = closing(argumentsOpen);
      assertTrue(code.substring(argumentsClose + 1, open + 1 + body.length()).matches("\\s*;\\s*"),
          "cannot count the cases of " + method + "(): its return is more than Stream.of(...)");
      return topLevelItems(code.substring(argumentsOpen + 1, argumentsClose)).size();
    }

    /** +1 for an opening bracket, -1 for a closing one, else 0. */
    static int depthChange(char c) {
      if ("({[".indexOf(c) >= 0) {
        return 1;
      }
      return ")}]".indexOf(c) >= 0 ? -1 : 0;
    }

    private int skipBlanks(int from) {
      int i = from;
      while (i < code.length() && Character.isWhitespace(code.charAt(i))) {
        i++;
      }
      return i;
    }

    /** The comma-separated items of code outside brackets (literals blanked), a trailing comma allowed. */
    static List<String> topLevelItems(String code) {
      List<String> items = new ArrayList<>();
      int depth = 0;
      int start = 0;
      for (int i = 0; i <= code.length(); i++) {
        char c = i < code.length() ? code.charAt(i) : ',';
        depth += JavaSource.depthChange(c);
        if (c == ',' && depth == 0) {
          if (!code.substring(start, i).trim().isEmpty()) {
            items.add(code.substring(start, i).trim());
          }
          start = i + 1;
        }
      }
      return items;
    }
  }
}
