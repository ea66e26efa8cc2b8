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

package org.apache.hudi.utilities.sources.multi;

import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.apache.hudi.common.util.ConfigUtils.getRawValueWithAltKeys;
import static org.apache.hudi.common.util.ValidationUtils.checkArgument;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.ALIGNMENT;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.ALIGNMENT_IDLE_TIMEOUT_MS;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.READ_PARALLELISM;
import static org.apache.hudi.utilities.sources.SnapshotLoadQuerySplitter.Config.SNAPSHOT_LOAD_QUERY_SPLITTER_CLASS_NAME;

/**
 * Reads one batch of every table: with {@link AlignmentMode#NONE}, each table as far as its own limits allow; with
 * {@link AlignmentMode#COMMIT_TIME_CEILING}, first plans every table's window, then cuts the windows at the
 * {@link CommitTimeCeiling}, then reads exactly those windows. Planning and reading run for up to
 * {@code read.parallelism} tables at a time.
 */
public final class MultiTableReader {

  private static final Logger LOG = LoggerFactory.getLogger(MultiTableReader.class);

  private final IncrementalTableReader reader;
  private final WindowPlanner planner;
  private final ParallelTableTasks tasks;
  private final AlignmentMode alignment;
  private final Duration idleTimeout;
  private final Clock clock;

  MultiTableReader(IncrementalTableReader reader, WindowPlanner planner, ParallelTableTasks tasks,
                   AlignmentMode alignment, Duration idleTimeout, Clock clock) {
    this.reader = reader;
    this.planner = planner;
    this.tasks = tasks;
    this.alignment = alignment;
    this.idleTimeout = idleTimeout;
    this.clock = clock;
  }

  /**
   * @param clock what "now" is for the idle timeout of {@link AlignmentMode#COMMIT_TIME_CEILING}
   * @throws IllegalArgumentException naming the key and the fix, for an invalid read.parallelism, alignment or
   *     alignment.idle.timeout.ms, or alignment combined with a snapshot load query splitter
   */
  public static MultiTableReader from(TypedProperties props, IncrementalTableReader reader, JavaSparkContext jsc,
                                      SparkSession spark, Clock clock) {
    long parallelism = wholeNumber(props, READ_PARALLELISM);
    checkArgument(parallelism > 0 && parallelism <= Integer.MAX_VALUE, String.format("Cannot read the tables with "
        + "%s=%s: it must be a positive whole number (1 reads one table at a time)", READ_PARALLELISM.key(), parallelism));
    String mode = getRawValueWithAltKeys(props, ALIGNMENT).orElse(ALIGNMENT.defaultValue()).toString().trim();
    checkArgument(Arrays.stream(AlignmentMode.values()).anyMatch(value -> value.name().equals(mode)), String.format(
        "Cannot align the tables with %s=%s: it is not one of %s", ALIGNMENT.key(), mode,
        Arrays.toString(AlignmentMode.values())));
    AlignmentMode alignment = AlignmentMode.valueOf(mode);
    long idleTimeoutMs = wholeNumber(props, ALIGNMENT_IDLE_TIMEOUT_MS);
    checkArgument(idleTimeoutMs >= 0, String.format("Cannot align the tables with %s=%s: it must be 0 or more "
        + "milliseconds (0: a table without new commits never holds the others)", ALIGNMENT_IDLE_TIMEOUT_MS.key(),
        idleTimeoutMs));
    checkArgument(alignment == AlignmentMode.NONE || !props.containsKey(SNAPSHOT_LOAD_QUERY_SPLITTER_CLASS_NAME),
        String.format("Cannot align the tables with %s=%s while %s is set: aligned snapshot reads end at the ceiling, "
            + "which that splitter would move. Remove the splitter, or set %s=%s.", ALIGNMENT.key(), alignment,
            SNAPSHOT_LOAD_QUERY_SPLITTER_CLASS_NAME, ALIGNMENT.key(), AlignmentMode.NONE));
    return new MultiTableReader(reader, new WindowPlanner(props, jsc), new ParallelTableTasks((int) parallelism, spark),
        alignment, Duration.ofMillis(idleTimeoutMs), clock);
  }

  private static long wholeNumber(TypedProperties props, ConfigProperty<?> property) {
    String value = getRawValueWithAltKeys(props, property).orElse(property.defaultValue()).toString().trim();
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(String.format("Cannot read the tables with %s=%s: it is not a whole number",
          property.key(), value), e);
    }
  }

  /**
   * @param tables   the configured tables, in declaration order
   * @param previous the positions the batch resumes from
   * @return one batch per table, in table order
   * @throws RuntimeException the failure of the first table, in table order, that could not be read (after every
   *     other read of the batch has stopped)
   */
  public List<TableBatch> read(List<SourceTable> tables, MultiTableCheckpoint previous) {
    if (alignment == AlignmentMode.NONE) {
      return tasks.map(tables, table -> reader.read(table, previous.position(table.name())));
    }
    CommitTimeCeiling aligned = CommitTimeCeiling.of(
        tasks.map(tables, table -> planner.plan(table, previous.position(table.name()))), idleTimeout, clock);
    LOG.info("Aligned {} tables on commit time: {}", tables.size(), aligned);
    return tasks.map(tables, table -> reader.read(table, aligned.window(table.name())));
  }
}
