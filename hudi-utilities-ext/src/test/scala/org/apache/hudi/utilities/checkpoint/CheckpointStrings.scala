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

package org.apache.hudi.utilities.checkpoint

import org.scalacheck.Gen

import scala.collection.JavaConverters._

/**
 * Generators of checkpoint strings: the valid forms the manager writes and an operator types, and mutations of them
 * (truncated, duplicated tables, empty entries, stray separators, unicode and separators in names, very long,
 * {@code @order} variants, legacy bare instants), plus arbitrary text.
 */
object CheckpointStrings {

  /** The longest string a repetition makes: about 600 entries, far beyond any real checkpoint. */
  private val MaxLength = 20000

  /** Names a job may configure: letters, digits, '_', '-' and '.' (HoodieIncrMultiSourceConfig.TABLES). */
  val configuredName: Gen[String] = for {
    length <- Gen.choose(1, 12)
    chars <- Gen.listOfN(length, Gen.oneOf(('a' to 'z') ++ ('A' to 'Z') ++ ('0' to '9') ++ Seq('_', '-', '.')))
  } yield chars.mkString

  /** A job's tables in declaration order: distinct, in any order. */
  val configuredTables: Gen[List[String]] =
    Gen.choose(1, 6).flatMap(Gen.listOfN(_, configuredName)).map(_.distinct)

  val instant: Gen[String] = Gen.frequency(
    8 -> Gen.listOfN(17, Gen.numChar).map(_.mkString),
    1 -> Gen.const(MultiTableCheckpoint.BEFORE_FIRST_INSTANT),
    1 -> Gen.choose(1, 400).flatMap(Gen.listOfN(_, Gen.numChar)).map(_.mkString))

  /** Names no job configures but a checkpoint string may hold: unicode, separators, blanks, the order key. */
  val oddName: Gen[String] = Gen.oneOf(
    Gen.oneOf("\u8868", "\u00fcn\u00efc\u00f6d\u00e9", "\ud835\udd18\ud835\udd2b", "a b", "a|b", "@order", "@order ",
      " @order", "\u00a0", "", " ", "LATEST", "12345"),
    Gen.choose(200, 2000).map("t" * _),
    Gen.asciiPrintableStr,
    Gen.alphaStr.map(_ + "\u0301"))

  /** Values where an instant belongs: resets in any case, blanks, signs, non-ASCII digits, spaces inside. */
  val oddValue: Gen[String] = Gen.oneOf(
    Gen.oneOf("LATEST", "EARLIEST", "latest", "Earliest", "", " ", "12a", "-1", "+1", "1 2", "\uff11\uff12\uff13",
      "\u0661\u0662", "1.5", "0x10", "1e5", "NaN", "=", "1=2"),
    Gen.asciiPrintableStr)

  /** Valid multi-table strings for the given tables, in any entry order, with optional blanks and order entry. */
  def validFor(tables: List[String]): Gen[String] = for {
    named <- Gen.someOf(tables)
    instants <- Gen.listOfN(named.size, instant)
    shuffled <- Gen.pick(named.size, named.zip(instants)).map(_.toList)
    blank <- Gen.oneOf("", " ", "  ")
    order <- Gen.oneOf(None, Some(named.toList.reverse), Some(tables))
  } yield {
    val entries = shuffled.map { case (table, position) => s"$blank$table$blank=$blank$position$blank" }
    (entries ++ order.map(o => "@order=" + o.mkString("|"))).mkString(",")
  }

  /** The legacy form: one instant, as HoodieIncrSource writes it, perhaps padded. */
  val bareInstant: Gen[String] = for {
    position <- instant
    pad <- Gen.oneOf("", " ", "\t", "\n")
  } yield pad + position + pad

  private def entriesOf(text: String): List[String] = text.split(",", -1).toList

  /** One mutation of a string, chosen at random. */
  def mutate(text: String): Gen[String] = {
    val entries = entriesOf(text)
    Gen.oneOf(
      Gen.choose(0, text.length).map(text.take),
      Gen.choose(0, entries.size - 1).map(i => (entries :+ entries(i)).mkString(",")),
      Gen.choose(0, entries.size).map(i => (entries.take(i) ++ List("") ++ entries.drop(i)).mkString(",")),
      for {
        at <- Gen.choose(0, text.length)
        separator <- Gen.oneOf(",", "=", "|", "@", " ", "\u00a0", "\n", ",,", "==", "@order=")
      } yield text.take(at) + separator + text.drop(at),
      for {
        i <- Gen.choose(0, entries.size - 1)
        value <- oddValue
      } yield entries.updated(i, entries(i).takeWhile(_ != '=') + "=" + value).mkString(","),
      for {
        i <- Gen.choose(0, entries.size - 1)
        name <- oddName
      } yield entries.updated(i, name + "=" + entries(i).dropWhile(_ != '=').drop(1)).mkString(","),
      bareInstant.map(bare => (bare :: entries).mkString(",")),
      Gen.choose(50, 1500).map(times => List.fill(math.min(times, MaxLength / (text.length + 1)))(text).mkString(",")),
      Gen.oneOf("@order=", "@order=a||b", "@order=|", "@order=x|x", "@order", "@order=a=b", " @order = b|a ")
        .flatMap(order => Gen.oneOf((entries :+ order).mkString(","), (order :: entries).mkString(","),
          (entries :+ order :+ order).mkString(","))))
  }

  /** Any checkpoint string a job may meet, for the given tables: valid, mutated once or twice, or arbitrary. */
  def anyFor(tables: List[String]): Gen[String] = Gen.frequency(
    3 -> Gen.oneOf(validFor(tables), bareInstant),
    5 -> Gen.oneOf(validFor(tables), bareInstant).flatMap(mutate),
    2 -> Gen.oneOf(validFor(tables), bareInstant).flatMap(mutate).flatMap(mutate),
    1 -> Gen.oneOf(Gen.const(""), Gen.asciiPrintableStr, Gen.alphaNumStr, Gen.identifier,
      Gen.listOf(Gen.oneOf(Gen.const(','), Gen.const('='), Gen.const('|'), Gen.const('@'), Gen.numChar,
        Gen.alphaChar, Gen.const(' '))).map(_.mkString)))

  /** A job: its tables, the legacy table, and a string it may resume from. */
  case class Job(tables: List[String], legacyTable: String, text: String) {
    def manager(multiTableFormat: Boolean, lenient: Boolean): MultiTableCheckpointManager =
      new MultiTableCheckpointManager(tables.asJava, legacyTable, multiTableFormat, lenient)
  }

  val jobs: Gen[Job] = for {
    tables <- configuredTables
    legacy <- Gen.oneOf(tables)
    text <- anyFor(tables)
  } yield Job(tables, legacy, text)

  /** A job with one table, whose checkpoint may be the bare (checkpoint.enable=false) form. */
  val singleTableJobs: Gen[Job] = for {
    table <- configuredName
    text <- anyFor(List(table))
  } yield Job(List(table), table, text)
}
