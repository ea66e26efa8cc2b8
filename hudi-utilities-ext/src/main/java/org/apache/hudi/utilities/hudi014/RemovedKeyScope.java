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

import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieFileGroupId;
import org.apache.hudi.common.model.HoodieReplaceCommitMetadata;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The file groups that can hold the record keys a window of commits removed, from the commits' metadata, as Hudi 0.14
 * writes it: each write stat names its file group and counts the records its write deleted.
 *
 * <p>A key the window removed was, at the window's start, in a file group that a commit of the window wrote with
 * deletes counted: a copy-on-write merge, or a merge-on-read merge of a small base file, leaves it out of the group's
 * new base file; a merge-on-read append writes it to a delete block of the group's log; either counts it in the stat's
 * deletes. Those groups read at the window's start hold every removed key, and read at its end, the keys that are
 * still there. Two kinds of commit move records between file groups:
 * <ul>
 *   <li>clustering moves them into new groups without removing any; when a group the window deleted from is one a
 *   clustering of the window wrote, its keys were, at the window's start, in the groups the window's clusterings
 *   replaced: those are read at the start, and the clusterings' groups at the end;</li>
 *   <li>any other replace commit (insert overwrite, delete partition) drops whole groups without counting their
 *   records as deleted: the window's removed keys are then found by comparing the table's keys at both ends.</li>
 * </ul>
 * Compaction and log compaction rewrite a group's records without changing what the table holds: their stats'
 * deletes apply delete blocks written earlier, and name no group of their own here.
 */
final class RemovedKeyScope {

  /** Operations that rewrite records without removing any from the table. */
  private static final Set<WriteOperationType> REWRITES = EnumSet.of(WriteOperationType.COMPACT,
      WriteOperationType.LOG_COMPACT, WriteOperationType.CLUSTER);

  private final Option<String> wholeTableBecause;
  private final Set<HoodieFileGroupId> atStart;
  private final Set<HoodieFileGroupId> atEnd;

  private RemovedKeyScope(Option<String> wholeTableBecause, Set<HoodieFileGroupId> atStart,
                          Set<HoodieFileGroupId> atEnd) {
    this.wholeTableBecause = wholeTableBecause;
    this.atStart = Collections.unmodifiableSet(atStart);
    this.atEnd = Collections.unmodifiableSet(atEnd);
  }

  /**
   * @param window the window's commits, oldest first, with their metadata (a {@link HoodieReplaceCommitMetadata} for
   *               a replace commit)
   */
  static RemovedKeyScope of(Map<HoodieInstant, HoodieCommitMetadata> window) {
    Set<HoodieFileGroupId> deletedFrom = new LinkedHashSet<>();
    Set<HoodieFileGroupId> clusteredFrom = new LinkedHashSet<>();
    Set<HoodieFileGroupId> clusteredInto = new LinkedHashSet<>();
    for (Map.Entry<HoodieInstant, HoodieCommitMetadata> commit : window.entrySet()) {
      HoodieInstant instant = commit.getKey();
      HoodieCommitMetadata metadata = commit.getValue();
      WriteOperationType operation = metadata.getOperationType();
      if (instant.getTimestamp().equals(HoodieTimeline.METADATA_BOOTSTRAP_INSTANT_TS)
          || instant.getTimestamp().equals(HoodieTimeline.FULL_BOOTSTRAP_INSTANT_TS)) {
        return wholeTable("the window holds the bootstrap commit " + instant.getTimestamp());
      }
      boolean replace = instant.getAction().equals(HoodieTimeline.REPLACE_COMMIT_ACTION);
      if (replace && operation != WriteOperationType.CLUSTER) {
        return wholeTable(String.format("replace commit %s (%s) replaced file groups without counting their records "
            + "as deleted", instant.getTimestamp(), operation));
      }
      if (replace) {
        if (metadata instanceof HoodieReplaceCommitMetadata) {
          ((HoodieReplaceCommitMetadata) metadata).getPartitionToReplaceFileIds().forEach((partition, fileIds) ->
              fileIds.forEach(fileId -> clusteredFrom.add(new HoodieFileGroupId(partition, fileId))));
        }
        metadata.getWriteStats().forEach(stat -> clusteredInto.add(fileGroup(stat)));
        continue;
      }
      if (REWRITES.contains(operation)) {
        continue;
      }
      for (HoodieWriteStat stat : metadata.getWriteStats()) {
        if (stat.getNumDeletes() > 0) {
          if (stat.getFileId() == null || stat.getPartitionPath() == null) {
            return wholeTable(String.format("commit %s counts deletes in a write stat that names no file group",
                instant.getTimestamp()));
          }
          deletedFrom.add(fileGroup(stat));
        }
      }
    }
    Set<HoodieFileGroupId> atStart = new LinkedHashSet<>(deletedFrom);
    Set<HoodieFileGroupId> atEnd = new LinkedHashSet<>(deletedFrom);
    if (deletedFrom.stream().anyMatch(clusteredInto::contains)) {
      atStart.addAll(clusteredFrom);
      atEnd.addAll(clusteredInto);
    }
    return new RemovedKeyScope(Option.empty(), atStart, atEnd);
  }

  private static RemovedKeyScope wholeTable(String because) {
    return new RemovedKeyScope(Option.of(because), Collections.emptySet(), Collections.emptySet());
  }

  private static HoodieFileGroupId fileGroup(HoodieWriteStat stat) {
    return new HoodieFileGroupId(stat.getPartitionPath(), stat.getFileId());
  }

  /** Why the window's removals cannot be placed in file groups; empty if they can. */
  Option<String> wholeTableBecause() {
    return wholeTableBecause;
  }

  /** The file groups to read as of the window's start: every key the window removed is in one of them then. */
  Set<HoodieFileGroupId> atStart() {
    return atStart;
  }

  /**
   * The file groups to read as of the window's end: the keys they hold then are not removed. A removed key is in
   * none of them; a key still in the table but elsewhere (re-inserted into another group) is reported removed too,
   * which costs its re-read and changes nothing.
   */
  Set<HoodieFileGroupId> atEnd() {
    return atEnd;
  }

  /** Whether no key can have been removed: no file group counts a delete. */
  boolean isEmpty() {
    return !wholeTableBecause.isPresent() && atStart.isEmpty();
  }
}
