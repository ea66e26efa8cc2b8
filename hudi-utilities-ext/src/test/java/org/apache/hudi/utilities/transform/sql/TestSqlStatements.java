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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Specification of how a SQL file is cut into statements: each case is a rule, a file and the statements it holds.
 */
class TestSqlStatements {

  static Stream<Arguments> rules() {
    return Stream.of(
        arguments("splits on semicolons",
            "SELECT 1; SELECT 2;SELECT 3",
            List.of("SELECT 1", "SELECT 2", "SELECT 3")),
        arguments("trims each statement",
            "\n  SELECT 1  ;\n\t SELECT 2 \n",
            List.of("SELECT 1", "SELECT 2")),
        arguments("keeps the last statement without a trailing semicolon",
            "SELECT 1;\nSELECT 2",
            List.of("SELECT 1", "SELECT 2")),
        arguments("ignores a trailing semicolon",
            "SELECT 1;\nSELECT 2;\n",
            List.of("SELECT 1", "SELECT 2")),
        arguments("returns the single statement of a file without semicolon",
            "SELECT * FROM t",
            List.of("SELECT * FROM t")),
        arguments("returns no statement for an empty file",
            "",
            List.of()),
        arguments("returns no statement for a blank file",
            "  \n\t ",
            List.of()),
        arguments("returns no statement for a file of semicolons",
            ";;\n;",
            List.of()),
        arguments("does not split on a semicolon inside single quotes",
            "SELECT 'a;b' AS x FROM t; SELECT 2",
            List.of("SELECT 'a;b' AS x FROM t", "SELECT 2")),
        arguments("does not split on a semicolon inside double quotes",
            "SELECT \"a;b\" AS x FROM t; SELECT 2",
            List.of("SELECT \"a;b\" AS x FROM t", "SELECT 2")),
        arguments("does not split on a semicolon inside backquotes",
            "SELECT `weird;column` FROM t; SELECT 2",
            List.of("SELECT `weird;column` FROM t", "SELECT 2")),
        arguments("does not split on a semicolon inside backquotes with a doubled backquote",
            "SELECT `a``;b` FROM t; SELECT 2",
            List.of("SELECT `a``;b` FROM t", "SELECT 2")),
        arguments("does not split on a semicolon inside a line comment",
            "SELECT 1 -- first; not a separator\nFROM t; SELECT 2",
            List.of("SELECT 1  FROM t", "SELECT 2")),
        arguments("does not split on a semicolon inside a block comment",
            "SELECT 1 /* one; two;\n three */ FROM t; SELECT 2",
            List.of("SELECT 1   FROM t", "SELECT 2")),
        arguments("does not split on a semicolon inside a string with an escaped quote",
            "SELECT 'it\\'s; fine' AS x; SELECT 2",
            List.of("SELECT 'it\\'s; fine' AS x", "SELECT 2")),
        arguments("does not split on a semicolon inside a double-quoted string with an escaped quote",
            "SELECT \"say \\\"hi; there\\\"\" AS x; SELECT 2",
            List.of("SELECT \"say \\\"hi; there\\\"\" AS x", "SELECT 2")),
        arguments("treats quotes inside comments as comment",
            "-- don't stop here\nSELECT 1; SELECT 2",
            List.of("SELECT 1", "SELECT 2")),
        arguments("drops comments, so that placeholders mentioned in them are not bound",
            "-- <SRC_7> is not a table here\nSELECT * FROM <SRC:orders> /* nor <SNAP:x> */",
            List.of("SELECT * FROM <SRC:orders>")),
        arguments("treats comment markers inside strings as text",
            "SELECT '--;' AS a, '/*;*/' AS b; SELECT 2",
            List.of("SELECT '--;' AS a, '/*;*/' AS b", "SELECT 2")),
        arguments("drops blank statements",
            "SELECT 1;;  ;\n\n;SELECT 2;",
            List.of("SELECT 1", "SELECT 2")),
        arguments("drops statements made of comments only",
            "-- header comment\n;\n/* block; comment */;\nSELECT 1;\n-- trailing comment\n",
            List.of("SELECT 1")),
        // A line comment that quotes an unclosed "/*", followed by a statement with a Spark hint: the statement is real
        // SQL and must not be mistaken for a comment.
        arguments("keeps a statement whose line comment mentions a block comment opener",
            "-- broadcast with /*+ BROADCAST(u)\nSELECT /*+ BROADCAST(u) */ * FROM t JOIN u;",
            List.of("SELECT /*+ BROADCAST(u) */ * FROM t JOIN u")),
        arguments("keeps an unterminated quote to the end",
            "SELECT 'unterminated; still text",
            List.of("SELECT 'unterminated; still text")),
        arguments("splits a simple file",
            "CACHE TABLE t AS SELECT * FROM <SRC>;\nSELECT * FROM t;",
            List.of("CACHE TABLE t AS SELECT * FROM <SRC>", "SELECT * FROM t")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void cutsTheFileIntoItsStatements(String rule, String sql, List<String> statements) {
    assertEquals(statements, SqlStatements.split(sql), rule);
  }

  /** Whether the comments stay in the statement is left open: the statement is kept, not dropped as a comment. */
  @Test
  void keepsCommentsThatPrecedeAStatement() {
    List<String> statements = SqlStatements.split("/* licence */\n-- the result\nSELECT 1;");

    assertEquals(1, statements.size());
    assertTrue(statements.get(0).endsWith("SELECT 1"), statements.get(0));
  }

  /** Files without quotes or comments: cut as the stock SqlFileBasedTransformer cuts them. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("simpleFiles")
  void splitsSimpleFilesLikeTheNaiveSplit(String sql) {
    assertEquals(naiveSplit(sql), SqlStatements.split(sql));
  }

  static Stream<String> simpleFiles() {
    return Stream.of(
        "CACHE TABLE t AS SELECT * FROM <SRC>;\nSELECT * FROM t;",
        "SELECT a, b FROM <SRC> WHERE a > 1",
        "SELECT * FROM <SRC_0> o JOIN <SRC_1> u ON o.user_id = u.id;",
        "CREATE OR REPLACE TEMPORARY VIEW v AS SELECT * FROM <SRC>;\n\nSELECT count(*) AS n FROM v\n;\n",
        "  SELECT 1  ;  SELECT 'x' AS y ; SELECT \"z\" AS w;;");
  }

  /** The split of the stock SqlFileBasedTransformer: every ';' separates, blank pieces are skipped. */
  private static List<String> naiveSplit(String sql) {
    return Arrays.stream(sql.split(";")).map(String::trim).filter(statement -> !statement.isEmpty())
        .collect(Collectors.toList());
  }
}
