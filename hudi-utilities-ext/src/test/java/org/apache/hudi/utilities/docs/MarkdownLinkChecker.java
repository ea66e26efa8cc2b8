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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the relative links of Markdown files that do not resolve, as GitHub renders them: {@code [x](path)},
 * {@code [x](path#anchor)} and {@code [x](#anchor)} (images too) must name an existing file or folder, and an anchor
 * must be the id of a heading of the target Markdown file under GitHub's slug rules. Links with a scheme
 * ({@code https:}, {@code mailto:}, ...) are not checked. Code blocks, code spans and HTML comments hold no links.
 */
public final class MarkdownLinkChecker {

  /** An inline link or image: text, destination, optional title. */
  private static final Pattern LINK = Pattern.compile("!?\\[([^\\]]*)]\\(\\s*([^)\\s]*)(?:\\s+\"[^\"]*\")?\\s*\\)");
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
  private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
  private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$");
  private static final Pattern SETEXT_UNDERLINE = Pattern.compile("^ {0,3}(=+|-+)[ \\t]*$");
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
  private static final Pattern HTML_TAG = Pattern.compile("<[^>\\s][^>]*>");
  private static final Pattern HTML_ID = Pattern.compile("<a\\s[^>]*(?:name|id)\\s*=\\s*\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
  /**
   * A page named by its path from the repository root, with an optional section: not preceded by a path character, so
   * that {@code ../docs/x.md}, a path relative to its file, is left to the link check.
   */
  private static final Pattern PATH_REFERENCE = Pattern.compile(
      "(?<![\\w./-])(?:README\\.md|(?:docs|demo|docker-demo|rfc|benchmarks|upstream)/[\\w./-]*\\.md)(?:#[\\w-]+)?");
  private static final List<String> TEXT_EXTENSIONS = Arrays.asList(".java", ".scala", ".sh", ".yml", ".yaml",
      ".properties", ".sql", ".json", ".md", ".xml");
  private static final Set<String> OUTPUT_FOLDERS = Set.of("target", "spark-warehouse", "demo-output");
  /** What GitHub's slugger removes: everything but letters, marks, numbers, connector punctuation, '-' and spaces. */
  private static final Pattern NOT_IN_SLUG = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc}\\- ]");

  private MarkdownLinkChecker() {
  }

  /**
   * The root of the repository that holds a module directory: the nearest folder with a {@code .git} entry, or the
   * module's parent when the sources are not a git checkout.
   */
  static Path repositoryRoot() {
    Path module = Paths.get(System.getProperty("basedir", "")).toAbsolutePath().normalize();
    for (Path dir = module; dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(".git"))) {
        return dir;
      }
    }
    return module.getParent();
  }

  /** Every Markdown file under {@code root}, outside {@code .git} and {@code target} folders, in path order. */
  static List<Path> markdownFiles(Path root) throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        return !dir.equals(root) && (name.equals(".git") || name.equals("target"))
            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (attributes.isRegularFile() && file.getFileName().toString().endsWith(".md")) {
          files.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    Collections.sort(files);
    return files;
  }

  /**
   * Checks every relative link of the Markdown files under {@code root}.
   *
   * @return one line per broken link, {@code file:line -> link (why)}, in file and line order; empty if all resolve
   */
  static List<String> brokenLinks(Path root) throws IOException {
    Map<Path, Set<String>> anchorsByFile = new HashMap<>();
    List<String> broken = new ArrayList<>();
    for (Path file : markdownFiles(root)) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      List<String> prose = prose(lines);
      for (int i = 0; i < prose.size(); i++) {
        Matcher link = LINK.matcher(withoutCodeSpans(prose.get(i)));
        while (link.find()) {
          String destination = link.group(2);
          String problem = problem(root, file, destination, anchorsByFile);
          if (problem != null) {
            broken.add(String.format("%s:%d -> %s (%s)", root.relativize(file), i + 1, link.group(), problem));
          }
        }
      }
    }
    return broken;
  }

  /**
   * Checks every reference to a Markdown page of the repository written as its path from the root
   * ({@code docs/operations.md#retention-guard}, {@code README.md#get-the-jar}) in the repository's text files: code,
   * scripts, configuration, and Markdown code and prose. Such references are how messages, comments and configs send
   * a reader to a page; nothing else checks them.
   *
   * @return one line per reference whose page or section does not exist, {@code file:line -> reference (why)}
   */
  static List<String> brokenPathReferences(Path root) throws IOException {
    Map<Path, Set<String>> anchorsByFile = new HashMap<>();
    List<String> broken = new ArrayList<>();
    for (Path file : textFiles(root)) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        Matcher reference = PATH_REFERENCE.matcher(lines.get(i));
        while (reference.find()) {
          String problem = problem(root, root.resolve("README.md"), "/" + reference.group(), anchorsByFile);
          if (problem != null) {
            broken.add(String.format("%s:%d -> %s (%s)", root.relativize(file), i + 1, reference.group(), problem));
          }
        }
      }
    }
    return broken;
  }

  /** The files under {@code root} that may name a page by its path, outside {@code .git}, build and run output. */
  private static List<Path> textFiles(Path root) throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        // upstream/patches hold files of Hudi's repository, whose paths are Hudi's; tests name made-up pages of their
        // own and read the real ones they name, so a wrong one fails them.
        boolean skipped = name.startsWith(".") || OUTPUT_FOLDERS.contains(name)
            || dir.equals(root.resolve("upstream").resolve("patches"))
            || (name.equals("test") && dir.getParent() != null && dir.getParent().endsWith("src"));
        return !dir.equals(root) && skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        String name = file.getFileName().toString();
        if (attributes.isRegularFile() && TEXT_EXTENSIONS.stream().anyMatch(name::endsWith)) {
          files.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    Collections.sort(files);
    return files;
  }

  /** Why a link destination does not resolve, or null if it does (or is not checked). */
  private static String problem(Path root, Path file, String destination, Map<Path, Set<String>> anchorsByFile) {
    if (SCHEME.matcher(destination).find()) {
      return null;
    }
    if (destination.isEmpty()) {
      return "empty destination";
    }
    int hash = destination.indexOf('#');
    String pathPart = decode(hash < 0 ? destination : destination.substring(0, hash));
    String anchor = hash < 0 ? null : decode(destination.substring(hash + 1));
    Path target;
    if (pathPart.isEmpty()) {
      target = file;
    } else if (pathPart.startsWith("/")) {
      target = root.resolve(pathPart.substring(1)).normalize();
    } else {
      target = file.getParent().resolve(pathPart).normalize();
    }
    if (!Files.exists(target)) {
      return "no such file: " + root.relativize(target);
    }
    if (anchor == null) {
      return null;
    }
    if (Files.isDirectory(target)) {
      target = target.resolve("README.md");
    }
    if (!target.getFileName().toString().endsWith(".md") || !Files.isRegularFile(target)) {
      return null;
    }
    Set<String> anchors = anchorsByFile.computeIfAbsent(target, path -> {
      try {
        return anchors(Files.readAllLines(path, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    return anchors.contains(anchor) ? null : "no heading with anchor #" + anchor + " in " + root.relativize(target);
  }

  /**
   * The anchors of a Markdown file as GitHub renders it: one per heading (ATX or setext), repeated slugs numbered
   * {@code -1}, {@code -2}, ... in document order; and the names and ids of HTML anchor elements ({@code a} tags).
   * Public for the checks of links that are not Markdown (the alert rules' runbook URLs).
   */
  public static Set<String> anchors(List<String> lines) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> occurrences = new HashMap<>();
    List<String> prose = prose(lines);
    for (int i = 0; i < prose.size(); i++) {
      String line = prose.get(i);
      String heading = null;
      Matcher atx = ATX_HEADING.matcher(line);
      if (atx.matches()) {
        heading = atx.group(2) == null ? "" : atx.group(2);
      } else if (i > 0 && SETEXT_UNDERLINE.matcher(line).matches() && isParagraphLine(prose.get(i - 1))) {
        heading = prose.get(i - 1).trim();
      }
      if (heading != null) {
        anchors.add(uniqueSlug(slug(heading), occurrences));
      }
      Matcher id = HTML_ID.matcher(line);
      while (id.find()) {
        anchors.add(id.group(1));
      }
    }
    return anchors;
  }

  /**
   * GitHub's id of a heading's text (github-slugger): the rendered text in lower case, without punctuation and
   * symbols other than {@code -} and {@code _}, each space a {@code -}.
   */
  static String slug(String headingMarkdown) {
    StringBuilder text = new StringBuilder();
    Matcher code = CODE_SPAN.matcher(headingMarkdown);
    int from = 0;
    while (code.find()) {
      text.append(renderedText(headingMarkdown.substring(from, code.start()))).append(code.group(2).trim());
      from = code.end();
    }
    text.append(renderedText(headingMarkdown.substring(from)));
    return NOT_IN_SLUG.matcher(text.toString().trim().toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
  }

  /** The slug itself the first time, then with {@code -1}, {@code -2}, ... as GitHub numbers repeated headings. */
  private static String uniqueSlug(String slug, Map<String, Integer> occurrences) {
    String unique = slug;
    while (occurrences.containsKey(unique)) {
      int count = occurrences.merge(slug, 1, Integer::sum);
      unique = slug + "-" + count;
    }
    occurrences.put(unique, 0);
    return unique;
  }

  /** Text outside code spans as rendered: links and images by their text, HTML tags and escapes removed. */
  private static String renderedText(String markdown) {
    String text = LINK.matcher(markdown).replaceAll(match -> Matcher.quoteReplacement(match.group(1)));
    return HTML_TAG.matcher(text).replaceAll("").replaceAll("\\\\(\\p{Punct})", "$1");
  }

  private static boolean isParagraphLine(String line) {
    String trimmed = line.trim();
    return !trimmed.isEmpty() && !trimmed.startsWith("#") && !trimmed.startsWith("|") && !trimmed.startsWith(">")
        && !trimmed.matches("([-*+]|\\d+[.)])(\\s.*)?");
  }

  /** A line's code spans blanked out, so that a link written as code is not a link. */
  private static String withoutCodeSpans(String line) {
    return CODE_SPAN.matcher(line).replaceAll("code");
  }

  /**
   * The lines of a Markdown file with fenced code blocks and HTML comments blanked (line numbers kept), so that
   * neither yields links or headings.
   */
  private static List<String> prose(List<String> lines) {
    List<String> prose = new ArrayList<>(lines.size());
    String fence = null;
    boolean inComment = false;
    for (String line : lines) {
      if (fence != null) {
        prose.add("");
        if (line.trim().startsWith(fence)) {
          fence = null;
        }
        continue;
      }
      Matcher opening = FENCE.matcher(line);
      if (!inComment && opening.find()) {
        fence = opening.group(1);
        prose.add("");
        continue;
      }
      StringBuilder kept = new StringBuilder();
      int at = 0;
      while (at < line.length()) {
        if (inComment) {
          int end = line.indexOf("-->", at);
          if (end < 0) {
            at = line.length();
          } else {
            inComment = false;
            at = end + 3;
          }
        } else {
          int start = line.indexOf("<!--", at);
          if (start < 0) {
            kept.append(line, at, line.length());
            at = line.length();
          } else {
            kept.append(line, at, start);
            inComment = true;
            at = start + 4;
          }
        }
      }
      prose.add(kept.toString());
    }
    return prose;
  }

  private static String decode(String value) {
    return URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
