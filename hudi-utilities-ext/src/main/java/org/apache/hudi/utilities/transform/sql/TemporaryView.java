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

import org.apache.hudi.common.util.Option;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A temporary view that a SQL statement creates, so that a transformer can drop it when the batch is done.
 *
 * <p>Recognised: {@code CREATE [OR REPLACE] [GLOBAL] TEMP|TEMPORARY VIEW [IF NOT EXISTS] name} and
 * {@code CACHE [LAZY] TABLE name [OPTIONS (...)] AS ...}, names plain or in backquotes, after any leading comments.
 * {@code CACHE TABLE name} without {@code AS} caches an existing table and creates no view.
 */
public final class TemporaryView {

  private static final Pattern CREATE_VIEW = Pattern.compile(
      "^\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?(GLOBAL\\s+)?TEMP(?:ORARY)?\\s+VIEW\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?"
          + "(`(?:[^`]|``)+`|[\\w.]+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern CACHE_TABLE = Pattern.compile(
      "^\\s*CACHE\\s+(?:LAZY\\s+)?TABLE\\s+(`(?:[^`]|``)+`|[\\w.]+)\\s+(?:OPTIONS\\s*\\([^)]*\\)\\s*)?AS\\b",
      Pattern.CASE_INSENSITIVE);

  private final String name;
  private final boolean global;

  private TemporaryView(String name, boolean global) {
    this.name = name;
    this.global = global;
  }

  /** The view a statement creates, if it creates one. */
  public static Option<TemporaryView> createdBy(String statement) {
    String code = withoutLeadingComments(statement);
    Matcher create = CREATE_VIEW.matcher(code);
    if (create.find()) {
      return Option.of(new TemporaryView(unquote(create.group(2)), create.group(1) != null));
    }
    Matcher cache = CACHE_TABLE.matcher(code);
    if (cache.find()) {
      return Option.of(new TemporaryView(unquote(cache.group(1)), false));
    }
    return Option.empty();
  }

  public String name() {
    return name;
  }

  /** Whether the view lives in Spark's {@code global_temp} database rather than in the session. */
  public boolean isGlobal() {
    return global;
  }

  private static String withoutLeadingComments(String statement) {
    String rest = statement.trim();
    while (rest.startsWith("--") || rest.startsWith("/*")) {
      int end = rest.startsWith("--") ? rest.indexOf('\n') : rest.indexOf("*/");
      rest = end < 0 ? "" : rest.substring(end + (rest.startsWith("--") ? 1 : 2)).trim();
    }
    return rest;
  }

  private static String unquote(String identifier) {
    return identifier.startsWith("`")
        ? identifier.substring(1, identifier.length() - 1).replace("``", "`")
        : identifier;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof TemporaryView)) {
      return false;
    }
    TemporaryView that = (TemporaryView) other;
    return global == that.global && name.toLowerCase(Locale.ROOT).equals(that.name.toLowerCase(Locale.ROOT));
  }

  @Override
  public int hashCode() {
    return Objects.hash(name.toLowerCase(Locale.ROOT), global);
  }

  @Override
  public String toString() {
    return (global ? "global temp view " : "temp view ") + name;
  }
}
