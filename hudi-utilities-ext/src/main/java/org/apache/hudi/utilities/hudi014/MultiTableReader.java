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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.common.config.HoodieCommonConfig;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.table.timeline.TimelineUtils.HollowCommitHandling;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.config.AlignmentMode;
import org.apache.hudi.utilities.config.DeltaFormat;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper;
import org.apache.hudi.utilities.sources.multi.CommitTimeCeiling;
import org.apache.hudi.utilities.sources.multi.ParallelTableTasks;
import org.apache.hudi.utilities.sources.multi.TableBatch;
import org.apache.hudi.utilities.sources.multi.TableWindow;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * Reads one batch of every table: first loads each table's timeline once ({@link #loadTimelines}); then, with
 * {@link AlignmentMode#NONE}, reads each table as far as its own limits allow; with
 * {@link AlignmentMode#COMMIT_TIME_CEILING}, plans every table's window, cuts the windows at the
 * {@link CommitTimeCeiling}, then reads exactly those windows. Loading, planning and reading run for up to
 * {@code read.parallelism} tables at a time.
 *
 * <p>A table's meta client is built once, in the first batch (for a CDC table at startup, where it is checked to keep
 * change data): later batches reload its timeline ({@link SourceTimeline#reload}).
 */
public final class MultiTableReader {

  private static final Logger LOG = LoggerFactory.getLogger(MultiTableReader.class);

  private final MultiTableReadConf conf;
  private final JavaSparkContext jsc;
  private final IncrementalTableReader reader;
  private final WindowPlanner planner;
  private final ParallelTableTasks tasks;
  private final Clock clock;
  /** Per table: its timeline of the last batch, reloaded by the next one. */
  private final Map<String, SourceTimeline> lastTimelines = new ConcurrentHashMap<>();

  /**
   * @param clock what "now" is for the idle timeout of {@link AlignmentMode#COMMIT_TIME_CEILING}
   */
  public MultiTableReader(TypedProperties props, MultiTableReadConf conf, JavaSparkContext jsc, SparkSession spark,
                          Clock clock) {
    HollowCommitHandling hollowCommits = IncrSourceHelper.getHollowCommitHandleMode(props);
    for (SourceTable table : conf.tables()) {
      if (table.deltaFormat() == DeltaFormat.CDC) {
        checkArgument(hollowCommits != HollowCommitHandling.USE_TRANSITION_TIME, () -> String.format("Cannot read table "
            + "'%s' as CDC with %s=%s: positions are then completion times, and Hudi's CDC query selects commits by "
            + "instant time (use %s or %s, or set %s=%s)", table.name(),
            HoodieCommonConfig.INCREMENTAL_READ_HANDLE_HOLLOW_COMMIT.key(), hollowCommits, HollowCommitHandling.BLOCK,
            HollowCommitHandling.FAIL, ChangeDataReader.formatKey(table), DeltaFormat.LATEST_STATE));
        // The meta client built for the check is the table's for good: its first batch reloads the timeline.
        SourceTimeline.load(table.path(), jsc.hadoopConfiguration()).ifPresent(timeline -> {
          ChangeDataReader.checkEnabled(table, timeline.metaClient().getTableConfig());
          lastTimelines.put(table.name(), timeline);
        });
      }
    }
    this.conf = conf;
    this.jsc = jsc;
    this.reader = new IncrementalTableReader(props, jsc, spark, hollowCommits);
    this.planner = new WindowPlanner(jsc, hollowCommits);
    this.tasks = new ParallelTableTasks(conf.readParallelism(), spark);
    this.clock = clock;
  }

  /** The timelines of one batch: each table's, listed once, in table order. */
  public static final class BatchTimelines {
    private final Map<String, Option<SourceTimeline>> byTable;

    private BatchTimelines(Map<String, Option<SourceTimeline>> byTable) {
      this.byTable = byTable;
    }

    /** A table's timeline; empty if its path holds no Hudi table. */
    public Option<SourceTimeline> of(String table) {
      checkArgument(byTable.containsKey(table), () -> "Cannot find the timeline of table '" + table + "' in this batch");
      return byTable.get(table);
    }

    /** The newest completed instant of a table; empty if it has none or is not a Hudi table. */
    public Option<String> latestCompletedInstant(String table) {
      return of(table).flatMap(SourceTimeline::latestCompletedInstant);
    }
  }

  /** Lists every table's timeline once for this batch; the timelines of the previous batch must not be read any more. */
  public BatchTimelines loadTimelines() {
    List<Option<SourceTimeline>> loaded = tasks.map(conf.tables(), this::loadTimeline);
    Map<String, Option<SourceTimeline>> byTable = new LinkedHashMap<>();
    for (int i = 0; i < loaded.size(); i++) {
      byTable.put(conf.tables().get(i).name(), loaded.get(i));
    }
    return new BatchTimelines(byTable);
  }

  private Option<SourceTimeline> loadTimeline(SourceTable table) {
    SourceTimeline last = lastTimelines.remove(table.name());
    Option<SourceTimeline> timeline = last == null ? SourceTimeline.load(table.path(), jsc.hadoopConfiguration())
        : last.reload();
    timeline.ifPresent(loaded -> lastTimelines.put(table.name(), loaded));
    return timeline;
  }

  /**
   * @param timelines the timelines of this batch, from {@link #loadTimelines()}
   * @param previous  the positions the batch resumes from
   * @return one batch per table, in table order
   * @throws RuntimeException the failure of the first table, in table order, that could not be read (after every
   *     other read of the batch has stopped)
   */
  public List<TableBatch> read(BatchTimelines timelines, MultiTableCheckpoint previous) {
    if (conf.alignment() == AlignmentMode.NONE) {
      // A CDC delta is read by its window, which the stock source that reads the latest state plans itself.
      return tasks.map(conf.tables(), table -> table.deltaFormat() == DeltaFormat.CDC
          ? reader.read(table, timelines.of(table.name()),
              planner.plan(table, timelines.of(table.name()), previous.position(table.name())))
          : reader.read(table, timelines.of(table.name()), previous.position(table.name())));
    }
    CommitTimeCeiling aligned = align(plan(timelines, previous));
    LOG.info("Aligned {} tables on commit time: {}", conf.tables().size(), aligned);
    return read(timelines, aligned);
  }

  /**
   * Plans each table's window as far as its own limits allow, without reading it (under {@link AlignmentMode#NONE},
   * what {@link #read(BatchTimelines, MultiTableCheckpoint)} reads, unless a commit lands in between).
   *
   * @return the windows, in table order
   */
  public List<TableWindow> plan(BatchTimelines timelines, MultiTableCheckpoint previous) {
    return tasks.map(conf.tables(),
        table -> planner.plan(table, timelines.of(table.name()), previous.position(table.name())));
  }

  /** The planned windows cut at their {@link CommitTimeCeiling}, as of this reader's clock. */
  public CommitTimeCeiling align(List<TableWindow> planned) {
    return CommitTimeCeiling.of(planned, conf.alignmentIdleTimeout(), clock);
  }

  /** Reads exactly the aligned windows, each table's up to the ceiling and no further. */
  public List<TableBatch> read(BatchTimelines timelines, CommitTimeCeiling aligned) {
    return tasks.map(conf.tables(), table -> reader.read(table, timelines.of(table.name()), aligned.window(table.name())));
  }
}
