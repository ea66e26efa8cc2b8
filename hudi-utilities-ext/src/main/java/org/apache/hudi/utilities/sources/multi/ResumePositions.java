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

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpointManager;
import org.apache.hudi.utilities.checkpoint.RequestedCheckpoint;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * The positions a batch resumes its tables from, by the one rule that the source applies and explain shows: a resume
 * string (what the Streamer hands the source: the stored checkpoint, or a {@code --checkpoint} override) that names
 * every table with an instant decides alone; any other (a partial override, a legacy bare instant, a table added to the
 * list) applies on top of the target's stored positions, so that no table loses its place. Resets ({@code LATEST},
 * {@code EARLIEST}) resolve against the tables' timelines of the batch.
 */
public final class ResumePositions {

  private final MultiTableReadConf conf;
  private final RequestedCheckpoint requested;
  private final RequestedCheckpoint stored;
  private final MultiTableCheckpoint positions;

  private ResumePositions(MultiTableReadConf conf, RequestedCheckpoint requested, RequestedCheckpoint stored,
                          MultiTableCheckpoint positions) {
    this.conf = conf;
    this.requested = requested;
    this.stored = stored;
    this.positions = positions;
  }

  /**
   * @param resumeString     the resume string of the batch; empty if there is none
   * @param storedCheckpoint the target's stored checkpoint, read only if the resume string does not decide alone
   * @param latestInstant    a table's newest completed instant in this batch, empty if it has none
   * @throws IllegalArgumentException if a string cannot be parsed (strict parsing), or a reset names a table that is
   *     not configured
   */
  public static ResumePositions resolve(MultiTableReadConf conf, Option<String> resumeString,
                                        Supplier<Option<String>> storedCheckpoint,
                                        Function<String, Option<String>> latestInstant) {
    MultiTableCheckpointManager checkpoints = conf.checkpoints();
    RequestedCheckpoint requested = checkpoints.parseRequest(resumeString.orElse(null));
    RequestedCheckpoint stored = requested.isCompleteFor(conf.tableNames())
        ? requested
        : checkpoints.parseRequest(storedCheckpoint.get().orElse(null));
    MultiTableCheckpoint positions = checkpoints.resolve(stored.positions(), requested, name -> {
      checkArgument(conf.table(name).isPresent(), () -> String.format("Cannot reset table '%s': it is not one of the "
          + "configured tables %s", name, conf.tableNames()));
      return latestInstant.apply(name);
    });
    return new ResumePositions(conf, requested, stored, positions);
  }

  /** The inclusive position of each table that has one. */
  public MultiTableCheckpoint positions() {
    return positions;
  }

  /** The table order of the checkpoint the positions came from, as far as it tells. */
  public List<String> storedOrder() {
    return stored.tableOrder();
  }

  /**
   * The fingerprint of the view definition that wrote the checkpoint the positions came from; empty when it names none
   * (no view, a commit of an earlier version, an override without {@code @view}).
   */
  public Option<String> storedViewDefinition() {
    return stored.viewDefinition();
  }

  /** How many entries lenient parsing skipped, in the resume string and (if it was read) the stored checkpoint. */
  public int malformedEntries() {
    return requested.malformedEntries().size() + (stored == requested ? 0 : stored.malformedEntries().size());
  }

  /**
   * @throws IllegalArgumentException if lenient parsing skipped an entry that may have held the position of a table
   *     that now has none and no explicit missing-checkpoint strategy: it would silently start over
   */
  public void checkNoPositionLost() {
    if (malformedEntries() == 0) {
      return;
    }
    for (SourceTable table : conf.tables()) {
      boolean mayHaveLostPosition = requested.mayHaveLostPositionOf(table.name()) || stored.mayHaveLostPositionOf(table.name());
      checkArgument(positions.position(table.name()).isPresent() || !mayHaveLostPosition
          || table.missingCheckpointStrategyExplicit(), () -> String.format("Cannot resume table '%s': lenient parsing "
          + "skipped checkpoint entries %s that may have held its position, and it has no explicit %s, so it "
          + "would silently start from %s. Set that key, or repair the checkpoint with --checkpoint.",
          table.name(), requested.malformedEntries().isEmpty() ? stored.malformedEntries() : requested.malformedEntries(),
          HoodieIncrMultiSourceConfig.forTable(HoodieIncrMultiSourceConfig.TABLE_MISSING_CHECKPOINT_STRATEGY,
              table.name()).key(), table.missingCheckpointStrategy()));
    }
  }
}
