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

import org.apache.hudi.utilities.checkpoint.CheckpointStrings._

import org.apache.logging.log4j.{Level, LogManager}
import org.apache.logging.log4j.core.LoggerContext
import org.apache.logging.log4j.core.appender.WriterAppender
import org.apache.logging.log4j.core.layout.PatternLayout
import org.scalacheck.Gen
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite
import org.scalatestplus.scalacheck.ScalaCheckPropertyChecks

import java.io.StringWriter
import java.util.concurrent.atomic.AtomicInteger

import scala.collection.JavaConverters._
import scala.util.{Failure, Success, Try}

/**
 * Properties of the multi-table checkpoint grammar ([[MultiTableCheckpointManager]]) over generated and mutated
 * checkpoint strings ([[CheckpointStrings]]). Pure: no Spark, no table.
 */
class TestMultiTableCheckpointGrammar extends AnyFunSuite with ScalaCheckPropertyChecks with BeforeAndAfterAll {

  implicit override val generatorDrivenConfig: PropertyCheckConfiguration =
    PropertyCheckConfiguration(minSuccessful = 1000, maxDiscardedFactor = 0.1, sizeRange = 100)

  private val Cases = generatorDrivenConfig.minSuccessful.value

  private val warnings = new CheckpointWarnings

  override protected def afterAll(): Unit = warnings.close()

  private def checkAll(gen: Gen[Job])(property: Job => Unit): Unit = {
    val checked = new AtomicInteger
    forAll(gen) { job =>
      checked.incrementAndGet()
      warnings.clear()
      property(job)
    }
    info(s"$checked generated checkpoint strings")
    assert(checked.get >= Cases)
  }

  test("Parsing throws no exception but the documented IllegalArgumentException, and lenient parsing none at all") {
    checkAll(jobs) { job =>
      for (multiTableFormat <- Seq(true, false) if multiTableFormat || job.tables.size == 1) {
        val strict = job.manager(multiTableFormat, lenient = false)
        val lenient = job.manager(multiTableFormat, lenient = true)
        Try(strict.parseRequest(job.text)) match {
          case Failure(e) => assert(e.isInstanceOf[IllegalArgumentException], s"'${job.text}' threw $e")
          case Success(_) =>
        }
        // parse() refuses resets in both modes; that is its documented IllegalArgumentException.
        Seq(strict, lenient).foreach { manager =>
          Try(manager.parse(job.text)) match {
            case Failure(e) => assert(e.isInstanceOf[IllegalArgumentException], s"'${job.text}' threw $e")
            case Success(_) =>
          }
        }
        lenient.parseRequest(job.text)
      }
    }
  }

  test("Strict parsing fails exactly when lenient parsing skips an entry, naming that entry and the repair") {
    checkAll(jobs) { job =>
      val skipped = job.manager(multiTableFormat = true, lenient = true).parseRequest(job.text).malformedEntries.asScala
      Try(job.manager(multiTableFormat = true, lenient = false).parseRequest(job.text)) match {
        case Success(_) => assert(skipped.isEmpty, s"strict parsing accepted '${job.text}', lenient skipped $skipped")
        case Failure(e) =>
          assert(skipped.nonEmpty, s"strict parsing failed on '${job.text}', lenient skipped nothing: $e")
          assert(e.getMessage.contains(s"entry '${skipped.head}'"), e.getMessage)
          assert(e.getMessage.contains("--checkpoint '" + job.tables.map(_ + "=<instant>").mkString(",") + "'"),
            e.getMessage)
      }
    }
  }

  test("Lenient parsing keeps, resets or skips every entry, and every skip is in the WARN and the metric's count") {
    checkAll(jobs) { job =>
      val request = job.manager(multiTableFormat = true, lenient = true).parseRequest(job.text)
      val trimmed = job.text.trim
      val entries =
        if (trimmed.isEmpty) Nil
        else if (!trimmed.contains("=")) List(trimmed)
        else trimmed.split(",", -1).map(_.trim).filterNot(isOrderEntry).toList
      val skipped = request.malformedEntries.asScala
      // HoodieIncrMultiSource adds malformedEntries().size() to multi_table_checkpoint_malformed_entries.
      assertResult(entries.size, s"entries of '${job.text}'")(
        request.positions.tables.size + request.resets.size + skipped.size)
      entries.filter(entry => entry.indexOf('=') > 0).map(entry => entry.substring(0, entry.indexOf('=')).trim)
        .filterNot(table => request.positions.tables.contains(table) || request.resets.containsKey(table))
        .foreach(table => assert(request.mayHaveLostPositionOf(table), s"'$table' of '${job.text}' dropped silently"))
      val warned = warnings.text
      if (skipped.isEmpty) {
        assert(warned.isEmpty, warned)
      } else {
        assert(warned.startsWith(s"WARN Skipped ${skipped.size} malformed entries"), warned)
        skipped.foreach(entry => assert(warned.contains(entry), s"'$entry' is not in the WARN: $warned"))
      }
    }
  }

  test("format(parse(s)) is a fixed point, and strictly parses back to the same positions") {
    checkAll(Gen.oneOf(jobs, singleTableJobs)) { job =>
      for (multiTableFormat <- Seq(true, false) if multiTableFormat || job.tables.size == 1) {
        val manager = job.manager(multiTableFormat, lenient = true)
        val formatted = manager.format(manager.parseRequest(job.text).positions)
        val reparsed = job.manager(multiTableFormat, lenient = false).parseRequest(formatted)
        assertResult(formatted, s"format(parse('$formatted')), from '${job.text}'")(manager.format(reparsed.positions))
        if (multiTableFormat) {
          assertResult(manager.parseRequest(job.text).positions, s"positions of '$formatted'")(reparsed.positions)
        }
      }
    }
  }

  test("The order entry records the declared order of the tables a checkpoint holds, and only when it differs") {
    val checkpoints = for {
      tables <- configuredTables
      held <- Gen.someOf(tables)
      instants <- Gen.listOfN(held.size, instant)
    } yield (tables, MultiTableCheckpoint.of(held.zip(instants).toMap.asJava))
    val checked = new AtomicInteger
    forAll(checkpoints) { case (tables, checkpoint) =>
      checked.incrementAndGet()
      val manager = new MultiTableCheckpointManager(tables.asJava, tables.head, true, false)
      val formatted = manager.format(checkpoint)
      val declared = tables.filter(checkpoint.tables.contains)
      val request = manager.parseRequest(formatted)
      assertResult(checkpoint)(request.positions)
      assertResult(declared)(request.tableOrder.asScala.toList)
      assertResult(declared != declared.sorted, formatted)(formatted.contains("@order="))
    }
    info(s"$checked generated checkpoints")
    assert(checked.get >= Cases)
  }

  private def isOrderEntry(entry: String): Boolean = entry.indexOf('=') > 0 && entry.takeWhile(_ != '=').trim == "@order"
}

/**
 * The WARN lines of the checkpoint package while the suite runs, kept off the console (thousands of generated
 * malformed entries would bury the build log).
 */
private class CheckpointWarnings extends AutoCloseable {

  private val loggerName = classOf[MultiTableCheckpointManager].getPackage.getName
  private val buffer = new StringWriter
  private val context = LogManager.getContext(false).asInstanceOf[LoggerContext]
  private val loggerConfig = context.getConfiguration.getLoggerConfig(loggerName)
  private val additive = loggerConfig.isAdditive
  private val appender = WriterAppender.createAppender(PatternLayout.newBuilder().withPattern("%p %m%n").build(), null,
    buffer, "checkpoint-grammar-warnings", false, false)

  require(loggerConfig.getName == loggerName, s"src/test/resources/log4j2.properties configures no logger $loggerName")
  appender.start()
  loggerConfig.addAppender(appender, Level.WARN, null)
  loggerConfig.setAdditive(false)
  context.updateLoggers()

  def text: String = buffer.toString

  def clear(): Unit = buffer.getBuffer.setLength(0)

  override def close(): Unit = {
    loggerConfig.removeAppender(appender.getName)
    loggerConfig.setAdditive(additive)
    context.updateLoggers()
    appender.stop()
  }
}
