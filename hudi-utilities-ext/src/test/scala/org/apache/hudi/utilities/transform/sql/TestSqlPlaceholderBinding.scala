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

package org.apache.hudi.utilities.transform.sql

import org.apache.hudi.utilities.transform.sql.SourcePlaceholders.Reference

import org.scalacheck.Gen
import org.scalatest.funsuite.AnyFunSuite
import org.scalatestplus.scalacheck.ScalaCheckPropertyChecks

import java.util.concurrent.atomic.AtomicInteger

import scala.collection.JavaConverters._
import scala.util.{Failure, Success, Try}

/**
 * Properties of the SQL placeholder binder ([[SqlStatements]] + [[SourcePlaceholders]]) as
 * MultiDatasetSqlFileTransformer drives it: split the file, resolve every statement's placeholders, then bind.
 * Generated SQL mixes real placeholders with placeholders inside string literals, quoted identifiers and comments.
 * Pure: no Spark.
 */
class TestSqlPlaceholderBinding extends AnyFunSuite with ScalaCheckPropertyChecks {

  import TestSqlPlaceholderBinding._

  // Files of up to 30 tokens already pair every placeholder form with every context; longer ones add time, not cases.
  implicit override val generatorDrivenConfig: PropertyCheckConfiguration =
    PropertyCheckConfiguration(minSuccessful = 1000, maxDiscardedFactor = 0.1, sizeRange = 30)

  private val Cases = generatorDrivenConfig.minSuccessful.value

  private def checkAll(gen: Gen[Script])(property: Script => Unit): Unit = {
    val checked = new AtomicInteger
    forAll(gen) { script =>
      checked.incrementAndGet()
      property(script)
    }
    info(s"$checked generated SQL files")
    assert(checked.get >= Cases)
  }

  test("Every real placeholder is bound, and none inside a string literal, a quoted identifier or a comment") {
    checkAll(scripts(withUnknown = false)) { script =>
      val placeholders = new SourcePlaceholders(script.tables.asJava, script.tables.size)
      val statements = SqlStatements.split(script.sql).asScala
      val references = statements.flatMap(placeholders.referencesIn(_).asScala).toSet
      assertResult(script.realReferences.map(_.reference), script.sql)(references)
      val bound = statements.map(placeholders.bind(_, (reference: Reference) => viewOf(reference)))
      assertResult(SqlStatements.split(script.boundSql).asScala, script.sql)(bound)
      assertResult(script.realReferences.exists(_.positional), script.sql)(SourcePlaceholders.isPositional(script.sql))
    }
  }

  test("An unknown placeholder in code fails while resolving, before any statement is bound or run") {
    checkAll(scripts(withUnknown = true)) { script =>
      val placeholders = new SourcePlaceholders(script.tables.asJava, script.tables.size)
      // The transformer resolves every statement before it registers a view or runs a statement.
      Try(SqlStatements.split(script.sql).asScala.foreach(placeholders.referencesIn)) match {
        case Success(_) => fail(s"no failure for ${script.firstUnknown} in: ${script.sql}")
        case Failure(e: IllegalArgumentException) =>
          assert(e.getMessage.startsWith(s"Cannot bind SQL placeholder ${script.firstUnknown.get}:"), e.getMessage)
        case Failure(e) => fail(s"unexpected $e for: ${script.sql}")
      }
    }
  }
}

object TestSqlPlaceholderBinding {

  private def viewOf(reference: Reference): String = s"v_${reference.kind}_${reference.index}"

  /** A real placeholder: the text, what it references, and whether it binds by position. */
  case class Placeholder(text: String, reference: Reference, positional: Boolean)

  case class RealReference(reference: Reference, positional: Boolean)

  /** A piece of SQL text, and what it becomes once its real placeholders are bound. */
  sealed trait Token {
    def text: String
    def bound: String = text
  }

  case class Code(text: String) extends Token

  case class Real(placeholder: Placeholder) extends Token {
    def text: String = placeholder.text
    override def bound: String = viewOf(placeholder.reference)
  }

  case class Unknown(text: String) extends Token

  /** A string literal, quoted identifier or comment: never bound, whatever it holds. */
  case class Inert(text: String) extends Token

  /** A hint is a comment Spark reads: its placeholders are real. */
  case class Hint(placeholder: Placeholder) extends Token {
    def text: String = s"/*+ BROADCAST(${placeholder.text}) */"
    override def bound: String = s"/*+ BROADCAST(${viewOf(placeholder.reference)}) */"
  }

  case class Script(tables: List[String], tokens: List[Token]) {
    def sql: String = tokens.map(_.text).mkString(" ")

    def boundSql: String = tokens.map(_.bound).mkString(" ")

    def realReferences: Set[RealReference] = tokens.collect {
      case Real(p) => RealReference(p.reference, p.positional)
      case Hint(p) => RealReference(p.reference, p.positional)
    }.toSet

    def firstUnknown: Option[String] = tokens.collectFirst { case Unknown(text) => text }
  }

  private val kinds = SourcePlaceholders.Kind.values.toSeq

  private val tableLists: Gen[List[String]] = Gen.choose(1, 4).flatMap(n =>
    Gen.listOfN(n, Gen.oneOf("orders", "users", "db.orders", "items", "t-1", "a_b"))).map(_.distinct)

  private def real(tables: List[String]): Gen[Placeholder] = Gen.oneOf(
    Gen.const(Placeholder("<SRC>", new Reference(SourcePlaceholders.Kind.SRC, 0), positional = true)),
    for {
      kind <- Gen.oneOf(kinds)
      index <- Gen.choose(0, tables.size - 1)
      zeros <- Gen.oneOf("", "0", "00")
    } yield Placeholder(s"<${kind}_$zeros$index>", new Reference(kind, index), positional = true),
    for {
      kind <- Gen.oneOf(kinds)
      index <- Gen.choose(0, tables.size - 1)
    } yield Placeholder(s"<$kind:${tables(index)}>", new Reference(kind, index), positional = false))

  private def unknown(tables: List[String]): Gen[String] = Gen.oneOf(
    Gen.oneOf(kinds).map(kind => s"<${kind}_${tables.size}>"),
    Gen.oneOf(kinds).map(kind => s"<$kind:nowhere>"),
    Gen.oneOf("<SNAP>", "<PREV>", "<SRC_>", "<SRC:>", "<SRC_a>", "<SRC-1>", "<SRC_99999999999>", "<SRCX>"))

  /** Any placeholder text, real or not: what a literal, quoted identifier or comment may hold. */
  private def anyPlaceholder(tables: List[String]): Gen[String] = Gen.oneOf(real(tables).map(_.text), unknown(tables))

  private val literalText: Gen[String] = Gen.oneOf("", " ", ";", "--", "/*", "*/", "x", "a b", "\u00e9", "<", ">")

  private def inert(tables: List[String]): Gen[Token] = for {
    inside <- Gen.listOf(Gen.oneOf(anyPlaceholder(tables), literalText)).map(_.mkString)
    form <- Gen.oneOf("'", "\"", "`", "esc'", "--", "/*")
  } yield Inert(form match {
    case "esc'" => s"'it\\'s $inside'"
    case "--" => s"-- $inside\n"
    case "/*" => s"/* ${inside.replace("*/", "* /")} */"
    case quote => quote + inside.replace(quote, "") + quote
  })

  private val code: Gen[Token] = Gen.oneOf("SELECT", "*", "FROM", "JOIN", "ON", "a.id", "=", "b.id", ";", "1", "WHERE",
    "(", ")", ",", "\n").map(Code)

  def scripts(withUnknown: Boolean): Gen[Script] = for {
    tables <- tableLists
    tokens <- Gen.listOf(Gen.frequency(
      4 -> code,
      3 -> real(tables).map(Real),
      3 -> inert(tables),
      1 -> real(tables).map(Hint)))
    unknownToken <- unknown(tables)
    at <- Gen.choose(0, tokens.size)
  } yield Script(tables, if (withUnknown) tokens.take(at) ++ List(Unknown(unknownToken)) ++ tokens.drop(at) else tokens)
}
