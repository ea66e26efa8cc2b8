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

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Specification of how a SQL file is cut into statements.
 */
class TestSqlStatements {

  @Test
  void splitsOnSemicolons() {
    assertEquals(List.of("SELECT 1", "SELECT 2", "SELECT 3"), SqlStatements.split("SELECT 1; SELECT 2;SELECT 3"));
  }

  @Test
  void trimsEachStatement() {
    assertEquals(List.of("SELECT 1", "SELECT 2"), SqlStatements.split("\n  SELECT 1  ;\n\t SELECT 2 \n"));
  }

  @Test
  void keepsLastStatementWithoutTrailingSemicolon() {
    assertEquals(List.of("SELECT 1", "SELECT 2"), SqlStatements.split("SELECT 1;\nSELECT 2"));
  }

  @Test
  void ignoresTrailingSemicolon() {
    assertEquals(List.of("SELECT 1", "SELECT 2"), SqlStatements.split("SELECT 1;\nSELECT 2;\n"));
  }

  @Test
  void returnsSingleStatementOfFileWithoutSemicolon() {
    assertEquals(List.of("SELECT * FROM t"), SqlStatements.split("SELECT * FROM t"));
  }

  @Test
  void returnsNoStatementForEmptyOrBlankFile() {
    assertEquals(List.of(), SqlStatements.split(""));
    assertEquals(List.of(), SqlStatements.split("  \n\t "));
    assertEquals(List.of(), SqlStatements.split(";;\n;"));
  }

  @Test
  void doesNotSplitOnSemicolonInsideSingleQuotes() {
    assertEquals(List.of("SELECT 'a;b' AS x FROM t", "SELECT 2"),
        SqlStatements.split("SELECT 'a;b' AS x FROM t; SELECT 2"));
  }

  @Test
  void doesNotSplitOnSemicolonInsideDoubleQuotes() {
    assertEquals(List.of("SELECT \"a;b\" AS x FROM t", "SELECT 2"),
        SqlStatements.split("SELECT \"a;b\" AS x FROM t; SELECT 2"));
  }

  @Test
  void doesNotSplitOnSemicolonInsideBackquotes() {
    assertEquals(List.of("SELECT `weird;column` FROM t", "SELECT 2"),
        SqlStatements.split("SELECT `weird;column` FROM t; SELECT 2"));
  }

  @Test
  void doesNotSplitOnSemicolonInsideBackquotesWithDoubledBackquote() {
    assertEquals(List.of("SELECT `a``;b` FROM t", "SELECT 2"),
        SqlStatements.split("SELECT `a``;b` FROM t; SELECT 2"));
  }

  @Test
  void doesNotSplitOnSemicolonInsideLineComment() {
    assertEquals(List.of("SELECT 1  FROM t", "SELECT 2"),
        SqlStatements.split("SELECT 1 -- first; not a separator\nFROM t; SELECT 2"));
  }

  @Test
  void doesNotSplitOnSemicolonInsideBlockComment() {
    assertEquals(List.of("SELECT 1   FROM t", "SELECT 2"),
        SqlStatements.split("SELECT 1 /* one; two;\n three */ FROM t; SELECT 2"));
  }

  @Test
  void doesNotSplitOnSemicolonInsideStringWithEscapedQuote() {
    assertEquals(List.of("SELECT 'it\\'s; fine' AS x", "SELECT 2"),
        SqlStatements.split("SELECT 'it\\'s; fine' AS x; SELECT 2"));
  }

  @Test
  void doesNotSplitOnSemicolonInsideDoubleQuotedStringWithEscapedQuote() {
    assertEquals(List.of("SELECT \"say \\\"hi; there\\\"\" AS x", "SELECT 2"),
        SqlStatements.split("SELECT \"say \\\"hi; there\\\"\" AS x; SELECT 2"));
  }

  @Test
  void treatsQuotesInsideCommentsAsComment() {
    assertEquals(List.of("SELECT 1", "SELECT 2"),
        SqlStatements.split("-- don't stop here\nSELECT 1; SELECT 2"));
  }

  @Test
  void dropsCommentsSoThatPlaceholdersMentionedInThemAreNotBound() {
    assertEquals(List.of("SELECT * FROM <SRC:orders>"),
        SqlStatements.split("-- <SRC_7> is not a table here\nSELECT * FROM <SRC:orders> /* nor <SNAP:x> */"));
  }

  @Test
  void treatsCommentMarkersInsideStringsAsText() {
    assertEquals(List.of("SELECT '--;' AS a, '/*;*/' AS b", "SELECT 2"),
        SqlStatements.split("SELECT '--;' AS a, '/*;*/' AS b; SELECT 2"));
  }

  @Test
  void dropsBlankStatements() {
    assertEquals(List.of("SELECT 1", "SELECT 2"), SqlStatements.split("SELECT 1;;  ;\n\n;SELECT 2;"));
  }

  @Test
  void dropsStatementsMadeOfCommentsOnly() {
    String sql = "-- header comment\n;\n/* block; comment */;\nSELECT 1;\n-- trailing comment\n";

    assertEquals(List.of("SELECT 1"), SqlStatements.split(sql));
  }

  @Test
  void keepsCommentsThatPrecedeAStatement() {
    List<String> statements = SqlStatements.split("/* licence */\n-- the result\nSELECT 1;");

    assertEquals(1, statements.size());
    assertTrue(statements.get(0).endsWith("SELECT 1"), statements.get(0));
  }

  @Test
  void keepsStatementWhoseLineCommentMentionsBlockCommentOpener() {
    // A line comment that quotes an unclosed "/*", followed by a statement with a Spark hint: the statement is real
    // SQL and must not be mistaken for a comment.
    String statement = "-- broadcast with /*+ BROADCAST(u)\nSELECT /*+ BROADCAST(u) */ * FROM t JOIN u";

    assertEquals(List.of("SELECT /*+ BROADCAST(u) */ * FROM t JOIN u"), SqlStatements.split(statement + ";"));
  }

  @Test
  void keepsUnterminatedQuoteToTheEnd() {
    assertEquals(List.of("SELECT 'unterminated; still text"), SqlStatements.split("SELECT 'unterminated; still text"));
  }

  @Test
  void splitsSimpleFileLikeTheNaiveSplit() {
    String sql = "CACHE TABLE t AS SELECT * FROM <SRC>;\nSELECT * FROM t;";

    assertEquals(List.of("CACHE TABLE t AS SELECT * FROM <SRC>", "SELECT * FROM t"), SqlStatements.split(sql));
    assertEquals(naiveSplit(sql), SqlStatements.split(sql));
  }

  @Test
  void splitsOtherSimpleFilesLikeTheNaiveSplit() {
    List<String> files = List.of(
        "SELECT a, b FROM <SRC> WHERE a > 1",
        "SELECT * FROM <SRC_0> o JOIN <SRC_1> u ON o.user_id = u.id;",
        "CREATE OR REPLACE TEMPORARY VIEW v AS SELECT * FROM <SRC>;\n\nSELECT count(*) AS n FROM v\n;\n",
        "  SELECT 1  ;  SELECT 'x' AS y ; SELECT \"z\" AS w;;");

    for (String sql : files) {
      assertEquals(naiveSplit(sql), SqlStatements.split(sql), sql);
    }
  }

  /** The split of the stock SqlFileBasedTransformer: every ';' separates, blank pieces are skipped. */
  private static List<String> naiveSplit(String sql) {
    return Arrays.stream(sql.split(";")).map(String::trim).filter(statement -> !statement.isEmpty())
        .collect(Collectors.toList());
  }
}
