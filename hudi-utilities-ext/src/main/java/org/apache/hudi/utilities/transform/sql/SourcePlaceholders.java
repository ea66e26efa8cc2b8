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

package org.apache.hudi.utilities.transform.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The placeholders a SQL text uses to reference the datasets of a batch, and their binding to temp views.
 *
 * <ul>
 *   <li>{@code <SRC_i>} / {@code <SRC:name>}: the rows read from table i (from 0, in the order of the configured
 *   tables) or from the table named {@code name}; {@code <SRC>} is the first;</li>
 *   <li>{@code <SNAP_i>} / {@code <SNAP:name>}: the table's full state as of the position this batch commits for it;</li>
 *   <li>{@code <PREV_i>} / {@code <PREV:name>}: the table's full state as of the position before this batch;</li>
 *   <li>&lt;TABLE_i&gt; / &lt;TABLE:name&gt;: the whole table, in a view's query, which may use no other kind.</li>
 * </ul>
 * Names keep the SQL bound to the right table when the table list is reordered.
 *
 * <p>Text inside string literals, quoted identifiers and comments holds no placeholder: it is neither checked nor bound
 * ({@code '<SRC>'} stays a string). A hint ({@code /*+ BROADCAST(<SRC_1>) * /}) is code.
 *
 * <p>Every placeholder is checked before anything is bound: an index without a dataset, an unknown name or any other
 * {@code <SRC...>}, {@code <SNAP...>} or {@code <PREV...>} form fails, listing what can be referenced.
 */
public final class SourcePlaceholders {

  /** What a placeholder stands for. */
  public enum Kind {
    /** The rows the batch read. */
    SRC,
    /** The table as of the position the batch commits. */
    SNAP,
    /** The table as of the position before the batch. */
    PREV,
    /** The whole table, in the query of a view (see {@code transform.view}): the plugin decides which state it reads. */
    TABLE
  }

  private static final Pattern ANY_PLACEHOLDER = Pattern.compile("<(SRC|SNAP|PREV|TABLE)([^<>]*)>");
  private static final Pattern INDEX = Pattern.compile("_(\\d+)");
  private static final Pattern NAME = Pattern.compile(":(.+)");

  private final List<String> tableNames;
  private final int datasetCount;

  /**
   * @param tableNames   the source table names by dataset index; may be empty when the datasets have no names
   * @param datasetCount how many datasets the batch has
   */
  public SourcePlaceholders(List<String> tableNames, int datasetCount) {
    if (!tableNames.isEmpty() && tableNames.size() != datasetCount) {
      throw new IllegalArgumentException(String.format(
          "Cannot name %d datasets with %d table names %s", datasetCount, tableNames.size(), tableNames));
    }
    this.tableNames = new ArrayList<>(tableNames);
    this.datasetCount = datasetCount;
  }

  /** Whether a SQL text references any dataset by position ({@code <SRC>}, {@code <SRC_i>}, {@code <SNAP_i>}...). */
  public static boolean isPositional(String sql) {
    return placeholdersIn(sql).stream()
        .anyMatch(placeholder -> placeholder.group(2).isEmpty() || INDEX.matcher(placeholder.group(2)).matches());
  }

  /**
   * The datasets a SQL text references, in order of first use.
   *
   * @throws IllegalArgumentException naming the first placeholder that references no dataset
   */
  public Set<Reference> referencesIn(String sql) {
    Set<Reference> references = new LinkedHashSet<>();
    placeholdersIn(sql).forEach(placeholder -> references.add(resolve(placeholder)));
    return references;
  }

  /**
   * Each placeholder of a SQL text as written ({@code <SRC:orders>}), with the dataset it references, in order of
   * first use.
   *
   * @throws IllegalArgumentException naming the first placeholder that references no dataset
   */
  public Map<String, Reference> placeholders(String sql) {
    Map<String, Reference> placeholders = new LinkedHashMap<>();
    placeholdersIn(sql).forEach(placeholder -> placeholders.putIfAbsent(placeholder.group(), resolve(placeholder)));
    return placeholders;
  }

  /**
   * @param viewOf the temp view that holds each referenced dataset
   * @return {@code sql} with every placeholder replaced by its view name
   * @throws IllegalArgumentException naming the first placeholder that references no dataset
   */
  public String bind(String sql, Function<Reference, String> viewOf) {
    StringBuilder bound = new StringBuilder();
    int copied = 0;
    for (MatchResult placeholder : placeholdersIn(sql)) {
      bound.append(sql, copied, placeholder.start()).append(viewOf.apply(resolve(placeholder)));
      copied = placeholder.end();
    }
    return bound.append(sql, copied, sql.length()).toString();
  }

  /** The placeholders in the code of {@code sql}, in order; none from its literals, quoted identifiers or comments. */
  private static List<MatchResult> placeholdersIn(String sql) {
    Matcher matcher = ANY_PLACEHOLDER.matcher(SqlStatements.codeOnly(sql));
    List<MatchResult> placeholders = new ArrayList<>();
    while (matcher.find()) {
      placeholders.add(matcher.toMatchResult());
    }
    return placeholders;
  }

  private Reference resolve(MatchResult placeholder) {
    Kind kind = Kind.valueOf(placeholder.group(1));
    String suffix = placeholder.group(2);
    if (suffix.isEmpty() && kind == Kind.SRC) {
      return new Reference(kind, 0);
    }
    Matcher index = INDEX.matcher(suffix);
    if (index.matches()) {
      String digits = index.group(1).replaceFirst("^0+(?=\\d)", "");
      if (digits.length() <= 9 && Integer.parseInt(digits) < datasetCount) {
        return new Reference(kind, Integer.parseInt(digits));
      }
      throw unresolved(placeholder.group(), "there are only " + datasetCount + " datasets");
    }
    Matcher name = NAME.matcher(suffix);
    if (name.matches()) {
      int position = tableNames.indexOf(name.group(1));
      if (position >= 0) {
        return new Reference(kind, position);
      }
      throw unresolved(placeholder.group(), tableNames.isEmpty()
          ? "the datasets have no table names (name placeholders need hoodie.streamer.source.multi.hudi.tables)"
          : "no configured table has that name");
    }
    throw unresolved(placeholder.group(), "it is not of the form <SRC>, <SRC_i>, <SRC:table>, <SNAP_i>, <SNAP:table>, "
        + "<PREV_i> or <PREV:table> (or, in a view, <TABLE_i> or <TABLE:table>)");
  }

  private IllegalArgumentException unresolved(String placeholder, String why) {
    List<String> valid = new ArrayList<>();
    valid.add("<SRC>");
    for (Kind kind : Arrays.asList(Kind.SRC, Kind.SNAP, Kind.PREV)) {
      for (int i = 0; i < datasetCount; i++) {
        valid.add("<" + kind + "_" + i + ">");
      }
      tableNames.forEach(table -> valid.add("<" + kind + ":" + table + ">"));
    }
    return new IllegalArgumentException(String.format(
        "Cannot bind SQL placeholder %s: %s. Valid placeholders for this job: %s", placeholder, why, valid));
  }

  /** One referenced dataset: what it is, of which table (by index). */
  public static final class Reference {

    private final Kind kind;
    private final int index;

    public Reference(Kind kind, int index) {
      this.kind = kind;
      this.index = index;
    }

    public Kind kind() {
      return kind;
    }

    public int index() {
      return index;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Reference && ((Reference) other).kind == kind && ((Reference) other).index == index;
    }

    @Override
    public int hashCode() {
      return 31 * kind.hashCode() + index;
    }

    @Override
    public String toString() {
      return kind + "_" + index;
    }
  }
}
