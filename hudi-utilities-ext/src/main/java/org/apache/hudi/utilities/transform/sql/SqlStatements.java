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

  private SqlStatements() {
  }

  public static List<String> split(String sql) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean hasCode = false;
    int length = sql.length();
    int i = 0;
    while (i < length) {
      char c = sql.charAt(i);
      int end;
      boolean isCode = true;
      if (c == '\'' || c == '"' || c == '`') {
        end = endOfQuoted(sql, i, c);
      } else if (c == '-' && i + 1 < length && sql.charAt(i + 1) == '-') {
        end = endOf(sql, i, "\n");
        isCode = false;
      } else if (c == '/' && i + 1 < length && sql.charAt(i + 1) == '*') {
        end = endOf(sql, i + 2, "*/");
        // A hint (/*+ BROADCAST(t) */) is a block comment that Spark reads.
        isCode = i + 2 < length && sql.charAt(i + 2) == '+';
      } else if (c == ';') {
        if (hasCode) {
          statements.add(current.toString().trim());
        }
        current.setLength(0);
        hasCode = false;
        i++;
        continue;
      } else {
        end = i + 1;
        isCode = !Character.isWhitespace(c);
      }
      hasCode |= isCode;
      // Comments become a space: placeholders mentioned in them are neither bound nor checked.
      current.append(isCode || Character.isWhitespace(c) ? sql.substring(i, end) : " ");
      i = end;
    }
    if (hasCode) {
      statements.add(current.toString().trim());
    }
    return statements;
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
