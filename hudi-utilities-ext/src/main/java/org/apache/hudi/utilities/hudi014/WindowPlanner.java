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

import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.timeline.TimelineUtils.HollowCommitHandling;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper;
import org.apache.hudi.utilities.sources.helpers.QueryInfo;
import org.apache.hudi.utilities.sources.multi.TableWindow;

import org.apache.spark.api.java.JavaSparkContext;

import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Plans what one table can read in this batch without reading it: the window that the stock
 * {@code HoodieIncrSource} would read from the table's position, planned by the same
 * {@link IncrSourceHelper#generateQueryInfo} call, with the same num_instants, missing-checkpoint strategy and
 * hollow-commit policy, so that a window read later with {@link IncrementalTableReader#read} is exactly that read,
 * or a prefix of it.
 */
final class WindowPlanner {

  private final JavaSparkContext jsc;
  private final HollowCommitHandling hollowCommits;

  WindowPlanner(JavaSparkContext jsc, HollowCommitHandling hollowCommits) {
    this.jsc = jsc;
    this.hollowCommits = hollowCommits;
  }

  /**
   * @param timeline the table's timeline, loaded for this batch before planning; empty if it is not a Hudi table
   * @param position the inclusive position the batch resumes the table from, or empty for its missing-checkpoint
   *                 strategy
   * @return the table's window; an empty one, holding no time to align to, for a path that is not a Hudi table
   */
  TableWindow plan(SourceTable table, Option<SourceTimeline> timeline, Option<String> position) {
    if (!timeline.isPresent()) {
      // The read reports it (or skips the table), as it does without alignment.
      return TableWindow.unreadable(table.name(), position);
    }
    QueryInfo query = IncrSourceHelper.generateQueryInfo(jsc, table.path(), table.numInstants(), position,
        table.missingCheckpointStrategy(), hollowCommits, HoodieRecord.COMMIT_TIME_METADATA_FIELD,
        HoodieRecord.RECORD_KEY_METADATA_FIELD, null, false, Option.empty());
    // The timeline was loaded before the plan: a commit the plan saw but the timeline did not is left to a later batch.
    HoodieTimeline readable = timeline.get().readableCommits(hollowCommits);
    List<HoodieInstant> planned = query.areStartAndEndInstantsEqual() ? Collections.emptyList()
        : readable.findInstantsInRange(query.getStartInstant(), query.getEndInstant()).getInstants();
    // The window ends before a commit whose file its writer is still writing: a later batch reads it.
    List<String> instants = planned.subList(0, timeline.get().writtenPrefix(planned)).stream()
        .map(HoodieInstant::getTimestamp).collect(Collectors.toList());
    Option<String> newestReadable = readable.lastInstant().map(HoodieInstant::getTimestamp);
    return new TableWindow(table.name(), position, query.getStartInstant(), instants, newestReadable,
        newestReadable.map(timeline.get()::timeOf), timeline.get().zone());
  }
}
