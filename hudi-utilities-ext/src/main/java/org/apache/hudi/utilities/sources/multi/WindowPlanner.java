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
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieTimelineTimeZone;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.timeline.TimelineUtils;
import org.apache.hudi.common.table.timeline.TimelineUtils.HollowCommitHandling;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.exception.TableNotFoundException;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper;
import org.apache.hudi.utilities.sources.helpers.QueryInfo;

import org.apache.spark.api.java.JavaSparkContext;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Plans what one table can read in this batch without reading it: the window that the stock
 * {@code HoodieIncrSource} would read from the table's position, planned by the same
 * {@link IncrSourceHelper#generateQueryInfo} call, with the same num_instants, missing-checkpoint strategy and
 * hollow-commit policy, so that a window read later with {@link IncrementalTableReader#read(SourceTable, TableWindow)}
 * is exactly that read, or a prefix of it.
 */
public final class WindowPlanner {

  private final TypedProperties jobProps;
  private final JavaSparkContext jsc;

  public WindowPlanner(TypedProperties jobProps, JavaSparkContext jsc) {
    this.jobProps = jobProps;
    this.jsc = jsc;
  }

  /**
   * @param position the inclusive position the batch resumes the table from, or empty for its missing-checkpoint
   *                 strategy
   * @return the table's window; an empty one, holding no time to align to, for a path that is not a Hudi table
   */
  public TableWindow plan(SourceTable table, Optional<String> position) {
    HollowCommitHandling hollowCommits = IncrSourceHelper.getHollowCommitHandleMode(jobProps);
    QueryInfo query;
    try {
      query = IncrSourceHelper.generateQueryInfo(jsc, table.path(), table.numInstants(),
          Option.fromJavaOptional(position), table.missingCheckpointStrategy(), hollowCommits,
          HoodieRecord.COMMIT_TIME_METADATA_FIELD, HoodieRecord.RECORD_KEY_METADATA_FIELD, null, false, Option.empty());
    } catch (TableNotFoundException e) {
      // The read reports it (or skips the table), as it does without alignment.
      return TableWindow.unreadable(table.name(), position);
    }
    // Loaded after the plan, so that it holds every instant the plan saw.
    HoodieTableMetaClient metaClient = HoodieTableMetaClient.builder().setConf(jsc.hadoopConfiguration())
        .setBasePath(table.path()).setLoadActiveTimelineOnLoad(true).build();
    HoodieTimeline readable = TimelineUtils.handleHollowCommitIfNeeded(
        metaClient.getCommitsAndCompactionTimeline().filterCompletedInstants(), metaClient, hollowCommits);
    List<String> instants = query.areStartAndEndInstantsEqual() ? Collections.emptyList()
        : readable.findInstantsInRange(query.getStartInstant(), query.getEndInstant()).getInstantsAsStream()
            .map(HoodieInstant::getTimestamp).collect(Collectors.toList());
    ZoneId zone = metaClient.getTableConfig().getTimelineTimezone() == HoodieTimelineTimeZone.UTC
        ? ZoneOffset.UTC : ZoneId.systemDefault();
    return new TableWindow(table.name(), position, query.getStartInstant(), instants,
        Optional.ofNullable(readable.lastInstant().isPresent() ? readable.lastInstant().get().getTimestamp() : null),
        zone);
  }
}
