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

/**
 * Splits a SQL file into statements at each {@code ;} that is outside quotes and comments.
 *
 * <p>A superset of the naive split of the stock {@code SqlFileBasedTransformer}: files it splits correctly are split
 * the same way, and a {@code ;} inside {@code '...'}, {@code "..."}, {@code `...`}, {@code -- ...} or
 * {@code /* ... * /} no longer cuts a statement in two. Comments are replaced by a space (hints, {@code /*+ ... * /},
 * are kept), and statements without code are dropped.
 */
public final class SqlStatements {

  /** The kinds of text this class tells apart. */
  private enum Part { CODE, QUOTED, COMMENT, SEPARATOR }

  private SqlStatements() {
  }

  public static List<String> split(String sql) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean hasCode = false;
    int i = 0;
    while (i < sql.length()) {
      Part part = partAt(sql, i);
      int end = endOfPart(sql, i);
      if (part == Part.SEPARATOR) {
        if (hasCode) {
          statements.add(current.toString().trim());
        }
        current.setLength(0);
        hasCode = false;
      } else {
        hasCode |= part != Part.COMMENT && !Character.isWhitespace(sql.charAt(i));
        // Comments become a space: placeholders mentioned in them are neither bound nor checked.
        current.append(part == Part.COMMENT ? " " : sql.substring(i, end));
      }
      i = end;
    }
    if (hasCode) {
      statements.add(current.toString().trim());
    }
    return statements;
  }

  /**
   * {@code sql} with every character of its string literals, quoted identifiers and comments (not hints) replaced by a
   * space. Same length, so an index into it is an index into {@code sql}: what is found in it is found in code only.
   */
  static String codeOnly(String sql) {
    StringBuilder code = new StringBuilder(sql.length());
    int i = 0;
    while (i < sql.length()) {
      Part part = partAt(sql, i);
      int end = endOfPart(sql, i);
      if (part == Part.QUOTED || part == Part.COMMENT) {
        for (int blank = i; blank < end; blank++) {
          code.append(' ');
        }
      } else {
        code.append(sql, i, end);
      }
      i = end;
    }
    return code.toString();
  }

  /** What the text starting at {@code i} is. A hint ({@code /*+ BROADCAST(t) * /}) is a comment Spark reads: code. */
  private static Part partAt(String sql, int i) {
    char c = sql.charAt(i);
    if (c == '\'' || c == '"' || c == '`') {
      return Part.QUOTED;
    } else if (sql.startsWith("--", i) || (sql.startsWith("/*", i) && !sql.startsWith("/*+", i))) {
      return Part.COMMENT;
    } else {
      return c == ';' ? Part.SEPARATOR : Part.CODE;
    }
  }

  /** Index after the part that starts at {@code i}: a quoted text, a comment or hint, or one character. */
  private static int endOfPart(String sql, int i) {
    char c = sql.charAt(i);
    if (c == '\'' || c == '"' || c == '`') {
      return endOfQuoted(sql, i, c);
    } else if (sql.startsWith("--", i)) {
      return endOf(sql, i, "\n");
    } else if (sql.startsWith("/*", i)) {
      return endOf(sql, i + 2, "*/");
    } else {
      return i + 1;
    }
  }

  /** Index after the closing quote; a backslash escapes the next character, as in Spark SQL string literals. */
  private static int endOfQuoted(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == '\\' && quote != '`') {
        i += 2;
      } else if (c == quote) {
        return i + 1;
      } else {
        i++;
      }
    }
    return sql.length();
  }

  private static int endOf(String sql, int from, String terminator) {
    int found = sql.indexOf(terminator, from);
    return found < 0 ? sql.length() : found + terminator.length();
  }
}
