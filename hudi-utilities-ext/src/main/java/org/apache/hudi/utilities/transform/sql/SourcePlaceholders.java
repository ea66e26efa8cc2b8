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
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Binds the source placeholders of a SQL text to the temp views that hold the datasets of a batch.
 *
 * <ul>
 *   <li>{@code <SRC_i>}: the i-th dataset, counting from 0 in the order of the configured tables;</li>
 *   <li>{@code <SRC:name>}: the dataset of the table named {@code name}, so that reordering the table list cannot
 *   silently rebind the SQL;</li>
 *   <li>{@code <SRC>}: the first dataset, as in the stock SQL transformers.</li>
 * </ul>
 *
 * <p>Every placeholder is checked before anything is bound: an index without a dataset, an unknown name or any other
 * {@code <SRC...>} form fails, listing what can be referenced.
 */
public final class SourcePlaceholders {

  private static final Pattern ANY_PLACEHOLDER = Pattern.compile("<SRC([^<>]*)>");
  private static final Pattern INDEX = Pattern.compile("_(\\d+)");
  private static final Pattern NAME = Pattern.compile(":(.+)");

  private final List<String> tableNames;
  private final List<String> viewNames;

  /**
   * @param tableNames the source table names by dataset index; may be empty when the datasets have no names
   * @param viewNames  the temp view of each dataset, by index
   */
  public SourcePlaceholders(List<String> tableNames, List<String> viewNames) {
    if (!tableNames.isEmpty() && tableNames.size() != viewNames.size()) {
      throw new IllegalArgumentException(String.format(
          "Cannot name %d datasets with %d table names %s", viewNames.size(), tableNames.size(), tableNames));
    }
    this.tableNames = new ArrayList<>(tableNames);
    this.viewNames = new ArrayList<>(viewNames);
  }

  /** Whether a SQL text references any dataset by position ({@code <SRC>} or {@code <SRC_i>}). */
  public static boolean isPositional(String sql) {
    Matcher matcher = ANY_PLACEHOLDER.matcher(sql);
    while (matcher.find()) {
      if (matcher.group(1).isEmpty() || INDEX.matcher(matcher.group(1)).matches()) {
        return true;
      }
    }
    return false;
  }

  /**
   * @return {@code sql} with every placeholder replaced by its view name
   * @throws IllegalArgumentException naming the first placeholder that references no dataset
   */
  public String bind(String sql) {
    Matcher matcher = ANY_PLACEHOLDER.matcher(sql);
    StringBuilder bound = new StringBuilder();
    while (matcher.find()) {
      matcher.appendReplacement(bound, Matcher.quoteReplacement(viewNames.get(indexOf(matcher.group(1), matcher.group()))));
    }
    matcher.appendTail(bound);
    return bound.toString();
  }

  private int indexOf(String suffix, String placeholder) {
    if (suffix.isEmpty()) {
      return 0;
    }
    Matcher index = INDEX.matcher(suffix);
    if (index.matches()) {
      String digits = index.group(1).replaceFirst("^0+(?=\\d)", "");
      if (digits.length() <= 9 && Integer.parseInt(digits) < viewNames.size()) {
        return Integer.parseInt(digits);
      }
      throw unresolved(placeholder, "there are only " + viewNames.size() + " datasets");
    }
    Matcher name = NAME.matcher(suffix);
    if (name.matches()) {
      int position = tableNames.indexOf(name.group(1));
      if (position >= 0) {
        return position;
      }
      throw unresolved(placeholder, tableNames.isEmpty()
          ? "the datasets have no table names (name placeholders need hoodie.streamer.source.multi.hudi.tables)"
          : "no configured table has that name");
    }
    throw unresolved(placeholder, "it is not of the form <SRC>, <SRC_i> or <SRC:table>");
  }

  private IllegalArgumentException unresolved(String placeholder, String why) {
    List<String> valid = new ArrayList<>();
    valid.add("<SRC>");
    for (int i = 0; i < viewNames.size(); i++) {
      valid.add("<SRC_" + i + ">");
    }
    tableNames.forEach(table -> valid.add("<SRC:" + table + ">"));
    return new IllegalArgumentException(String.format(
        "Cannot bind SQL placeholder %s: %s. Valid placeholders for this job: %s", placeholder, why, valid));
  }
}
