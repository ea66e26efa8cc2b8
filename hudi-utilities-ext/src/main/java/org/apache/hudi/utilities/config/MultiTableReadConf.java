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

package org.apache.hudi.utilities.config;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpointManager;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.ALIGNMENT;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.ALIGNMENT_IDLE_TIMEOUT_MS;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.CHECKPOINT_ENABLE;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.CHECKPOINT_LEGACY_TABLE;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.CHECKPOINT_LENIENT;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.READ_PARALLELISM;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.RETENTION_FAIL_FAST;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.RETENTION_WARN_HEADROOM_COMMITS;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.SNAPSHOT_PUSHDOWN_KEYS_LIMIT;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.SNAPSHOT_PUSHDOWN_KEY_RANGE;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.SNAPSHOT_PUSHDOWN_MAX_KEYS;
import static org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig.TABLES;
import static org.apache.hudi.utilities.sources.SnapshotLoadQuerySplitter.Config.SNAPSHOT_LOAD_QUERY_SPLITTER_CLASS_NAME;

/**
 * The settings of one multi-table job ({@link HoodieIncrMultiSourceConfig}), parsed and checked once, with one
 * accessor per setting: the source, its readers and freshness all read them from here.
 */
public final class MultiTableReadConf {

  private static final Logger LOG = LoggerFactory.getLogger(MultiTableReadConf.class);

  private final List<SourceTable> tables;
  private final int readParallelism;
  private final AlignmentMode alignment;
  private final Duration alignmentIdleTimeout;
  private final MultiTableCheckpointManager checkpoints;
  private final int retentionWarnHeadroomCommits;
  private final boolean retentionFailFast;
  private final int snapshotPushdownMaxKeys;
  private final boolean snapshotPushdownKeyRange;

  private MultiTableReadConf(List<SourceTable> tables, int readParallelism, AlignmentMode alignment,
                             Duration alignmentIdleTimeout, MultiTableCheckpointManager checkpoints,
                             int retentionWarnHeadroomCommits, boolean retentionFailFast, int snapshotPushdownMaxKeys,
                             boolean snapshotPushdownKeyRange) {
    this.tables = Collections.unmodifiableList(tables);
    this.readParallelism = readParallelism;
    this.alignment = alignment;
    this.alignmentIdleTimeout = alignmentIdleTimeout;
    this.checkpoints = checkpoints;
    this.retentionWarnHeadroomCommits = retentionWarnHeadroomCommits;
    this.retentionFailFast = retentionFailFast;
    this.snapshotPushdownMaxKeys = snapshotPushdownMaxKeys;
    this.snapshotPushdownKeyRange = snapshotPushdownKeyRange;
  }

  /**
   * @throws IllegalArgumentException naming the key and the fix, for the first invalid setting
   */
  public static MultiTableReadConf from(TypedProperties props) {
    List<SourceTable> tables = HoodieIncrMultiSourceConfig.tables(props).stream()
        .map(table -> SourceTable.from(table, props))
        .collect(Collectors.toList());
    List<String> names = names(tables);
    List<String> unknown = HoodieIncrMultiSourceConfig.unknownKeys(props, names);
    checkArgument(unknown.isEmpty(), () -> String.format("Cannot read the tables: %s %s no setting of the multi-table "
        + "source (check the spelling against docs/configuration.md, or remove %s)", unknown,
        unknown.size() == 1 ? "is" : "are", unknown.size() == 1 ? "it" : "them"));
    List<String> otherTables = HoodieIncrMultiSourceConfig.keysOfOtherTables(props, names);
    if (!otherTables.isEmpty()) {
      LOG.warn("Ignoring {}: they name no table of {}={} (left from a removed table, or a misspelt table name)",
          otherTables, TABLES.key(), names);
    }
    int parallelism = ConfigValues.positiveInt(props, READ_PARALLELISM, "read the tables");
    AlignmentMode alignment = ConfigValues.enumValue(props, ALIGNMENT, AlignmentMode.class, "align the tables");
    long idleTimeoutMs = ConfigValues.atLeast(props, ALIGNMENT_IDLE_TIMEOUT_MS, 0, "align the tables");
    checkArgument(alignment == AlignmentMode.NONE || !props.containsKey(SNAPSHOT_LOAD_QUERY_SPLITTER_CLASS_NAME),
        () -> String.format("Cannot align the tables with %s=%s while %s is set: aligned snapshot reads end at the "
            + "ceiling, which that splitter would move. Remove the splitter, or set %s=%s.", ALIGNMENT.key(), alignment,
            SNAPSHOT_LOAD_QUERY_SPLITTER_CLASS_NAME, ALIGNMENT.key(), AlignmentMode.NONE));
    String checkpoint = "read the checkpoint";
    MultiTableCheckpointManager checkpoints = new MultiTableCheckpointManager(names,
        ConfigValues.raw(props, CHECKPOINT_LEGACY_TABLE).orElse(tables.get(0).name()),
        ConfigValues.booleanValue(props, CHECKPOINT_ENABLE, checkpoint),
        ConfigValues.booleanValue(props, CHECKPOINT_LENIENT, checkpoint));
    String guard = "guard the retention of the tables";
    int warnHeadroom = (int) Math.min(Integer.MAX_VALUE,
        ConfigValues.atLeast(props, RETENTION_WARN_HEADROOM_COMMITS, 0, guard));
    long pushdownMaxKeys = ConfigValues.atLeast(props, SNAPSHOT_PUSHDOWN_MAX_KEYS, 0, "push delta keys into snapshot reads");
    checkArgument(pushdownMaxKeys <= SNAPSHOT_PUSHDOWN_KEYS_LIMIT, () -> String.format("Cannot push delta keys into "
        + "snapshot reads: %s=%d is above %d, where Hudi 0.14's data skipping would overflow the stack (set at most %d; "
        + "a delta with more keys reads the snapshot in full)", SNAPSHOT_PUSHDOWN_MAX_KEYS.key(), pushdownMaxKeys,
        SNAPSHOT_PUSHDOWN_KEYS_LIMIT, SNAPSHOT_PUSHDOWN_KEYS_LIMIT));
    return new MultiTableReadConf(tables, parallelism, alignment, Duration.ofMillis(idleTimeoutMs), checkpoints,
        warnHeadroom, ConfigValues.booleanValue(props, RETENTION_FAIL_FAST, guard), (int) pushdownMaxKeys,
        ConfigValues.booleanValue(props, SNAPSHOT_PUSHDOWN_KEY_RANGE, "push delta key ranges into snapshot reads"));
  }

  /** The tables, in declaration order. */
  public List<SourceTable> tables() {
    return tables;
  }

  /** The table names, in declaration order. */
  public List<String> tableNames() {
    return names(tables);
  }

  /** A configured table by name; empty if it is not configured. */
  public Option<SourceTable> table(String name) {
    return Option.fromJavaOptional(tables.stream().filter(table -> table.name().equals(name)).findFirst());
  }

  /** Most tables planned and read at the same time. */
  public int readParallelism() {
    return readParallelism;
  }

  public AlignmentMode alignment() {
    return alignment;
  }

  /** How long a table without new commits holds the others under {@link AlignmentMode#COMMIT_TIME_CEILING}. */
  public Duration alignmentIdleTimeout() {
    return alignmentIdleTimeout;
  }

  /**
   * The checkpoint grammar of this job: its tables, the table a bare (legacy) instant belongs to, the multi-table or
   * bare format ({@code checkpoint.enable}) and strict or lenient parsing ({@code checkpoint.lenient}).
   */
  public MultiTableCheckpointManager checkpoints() {
    return checkpoints;
  }

  /** Below this headroom (in source commits) a table's position is warned about; 0 never warns. */
  public int retentionWarnHeadroomCommits() {
    return retentionWarnHeadroomCommits;
  }

  /** Whether a headroom below {@link #retentionWarnHeadroomCommits()} fails the batch instead of warning. */
  public boolean retentionFailFast() {
    return retentionFailFast;
  }

  /** Most distinct delta keys pushed into a snapshot read joined with the delta; 0 for no pushdown. */
  public int snapshotPushdownMaxKeys() {
    return snapshotPushdownMaxKeys;
  }

  /** Whether a delta with more than {@link #snapshotPushdownMaxKeys()} keys restricts snapshot reads to their range. */
  public boolean snapshotPushdownKeyRange() {
    return snapshotPushdownKeyRange;
  }

  private static List<String> names(List<SourceTable> tables) {
    return tables.stream().map(SourceTable::name).collect(Collectors.toList());
  }

  @Override
  public String toString() {
    return "MultiTableReadConf{tables=" + tableNames() + ", readParallelism=" + readParallelism + ", alignment="
        + alignment + ", idleTimeout=" + alignmentIdleTimeout + ", checkpoints=" + checkpoints
        + ", retentionWarnHeadroomCommits=" + retentionWarnHeadroomCommits + ", retentionFailFast=" + retentionFailFast
        + ", snapshotPushdownMaxKeys=" + snapshotPushdownMaxKeys + "}";
  }
}
