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
import org.apache.hudi.common.model.HoodieDeltaWriteStat;
import org.apache.hudi.common.model.HoodieFileGroupId;
import org.apache.hudi.common.model.HoodieReplaceCommitMetadata;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which file groups a window's removed keys are read from, given the window's commit metadata as Hudi 0.14 writes it:
 * the groups whose write stats count deletes, those a clustering of the window replaced when a group it wrote is one
 * of them, none for compactions, and the whole table for a replace commit that drops groups without counting deletes.
 */
class TestRemovedKeyScope {

  private static final HoodieFileGroupId EU_1 = new HoodieFileGroupId("eu", "f1");
  private static final HoodieFileGroupId EU_2 = new HoodieFileGroupId("eu", "f2");
  private static final HoodieFileGroupId US_3 = new HoodieFileGroupId("us", "f3");
  private static final HoodieFileGroupId EU_CLUSTERED = new HoodieFileGroupId("eu", "c1");

  @Test
  void theGroupsWhoseStatsCountDeletesAreReadAtBothEnds() {
    Map<HoodieInstant, HoodieCommitMetadata> window = new LinkedHashMap<>();
    window.put(commit("001"), metadata(WriteOperationType.UPSERT, stat(EU_1, 0), stat(EU_2, 2)));
    window.put(deltaCommit("002"), metadata(WriteOperationType.DELETE, deltaStat(US_3, 1)));

    RemovedKeyScope scope = RemovedKeyScope.of(window);

    assertFalse(scope.wholeTableBecause().isPresent());
    assertEquals(groups(EU_2, US_3), scope.atStart());
    assertEquals(groups(EU_2, US_3), scope.atEnd());
  }

  @Test
  void compactionAppliesDeletesWrittenBeforeAndRemovesNothing() {
    Map<HoodieInstant, HoodieCommitMetadata> window = new LinkedHashMap<>();
    window.put(commit("001"), metadata(WriteOperationType.COMPACT, stat(EU_1, 3)));
    window.put(deltaCommit("002"), metadata(WriteOperationType.UPSERT, deltaStat(EU_2, 0)));

    RemovedKeyScope scope = RemovedKeyScope.of(window);

    assertTrue(scope.isEmpty());
  }

  /** A key deleted from a group a clustering wrote was, at the window's start, in a group the clustering replaced. */
  @Test
  void deletesFromAClusteredGroupReadTheGroupsItReplacedAtTheStart() {
    Map<HoodieInstant, HoodieCommitMetadata> window = new LinkedHashMap<>();
    window.put(replaceCommit("001"), replace(WriteOperationType.CLUSTER, Map.of("eu", Arrays.asList("f1", "f2")),
        stat(EU_CLUSTERED, 0)));
    window.put(commit("002"), metadata(WriteOperationType.DELETE, stat(EU_CLUSTERED, 1)));

    RemovedKeyScope scope = RemovedKeyScope.of(window);

    assertEquals(groups(EU_CLUSTERED, EU_1, EU_2), scope.atStart());
    assertEquals(groups(EU_CLUSTERED), scope.atEnd());
  }

  @Test
  void clusteringOfGroupsNotDeletedFromAddsNoGroup() {
    Map<HoodieInstant, HoodieCommitMetadata> window = new LinkedHashMap<>();
    window.put(replaceCommit("001"), replace(WriteOperationType.CLUSTER, Map.of("eu", Arrays.asList("f1", "f2")),
        stat(EU_CLUSTERED, 0)));
    window.put(commit("002"), metadata(WriteOperationType.DELETE, stat(US_3, 1)));

    RemovedKeyScope scope = RemovedKeyScope.of(window);

    assertEquals(groups(US_3), scope.atStart());
    assertEquals(groups(US_3), scope.atEnd());
  }

  @Test
  void insertOverwriteDropsGroupsWithoutCountingDeletes() {
    Map<HoodieInstant, HoodieCommitMetadata> window = new LinkedHashMap<>();
    window.put(commit("001"), metadata(WriteOperationType.DELETE, stat(EU_1, 1)));
    window.put(replaceCommit("002"), replace(WriteOperationType.INSERT_OVERWRITE, Map.of("us", Arrays.asList("f3")),
        stat(new HoodieFileGroupId("us", "f4"), 0)));

    RemovedKeyScope scope = RemovedKeyScope.of(window);

    assertEquals("replace commit 002 (INSERT_OVERWRITE) replaced file groups without counting their records as "
        + "deleted", scope.wholeTableBecause().get());
    assertFalse(scope.isEmpty());
  }

  private static HoodieInstant commit(String instant) {
    return new HoodieInstant(HoodieInstant.State.COMPLETED, HoodieTimeline.COMMIT_ACTION, instant);
  }

  private static HoodieInstant deltaCommit(String instant) {
    return new HoodieInstant(HoodieInstant.State.COMPLETED, HoodieTimeline.DELTA_COMMIT_ACTION, instant);
  }

  private static HoodieInstant replaceCommit(String instant) {
    return new HoodieInstant(HoodieInstant.State.COMPLETED, HoodieTimeline.REPLACE_COMMIT_ACTION, instant);
  }

  private static HoodieCommitMetadata metadata(WriteOperationType operation, HoodieWriteStat... stats) {
    HoodieCommitMetadata metadata = new HoodieCommitMetadata();
    metadata.setOperationType(operation);
    Arrays.stream(stats).forEach(stat -> metadata.addWriteStat(stat.getPartitionPath(), stat));
    return metadata;
  }

  private static HoodieReplaceCommitMetadata replace(WriteOperationType operation, Map<String, List<String>> replaced,
                                                     HoodieWriteStat... stats) {
    HoodieReplaceCommitMetadata metadata = new HoodieReplaceCommitMetadata();
    metadata.setOperationType(operation);
    replaced.forEach((partition, fileIds) -> fileIds.forEach(fileId -> metadata.addReplaceFileId(partition, fileId)));
    Arrays.stream(stats).forEach(stat -> metadata.addWriteStat(stat.getPartitionPath(), stat));
    return metadata;
  }

  private static HoodieWriteStat stat(HoodieFileGroupId group, long deletes) {
    return fill(new HoodieWriteStat(), group, deletes);
  }

  private static HoodieWriteStat deltaStat(HoodieFileGroupId group, long deletes) {
    return fill(new HoodieDeltaWriteStat(), group, deletes);
  }

  private static HoodieWriteStat fill(HoodieWriteStat stat, HoodieFileGroupId group, long deletes) {
    stat.setPartitionPath(group.getPartitionPath());
    stat.setFileId(group.getFileId());
    stat.setNumDeletes(deletes);
    return stat;
  }

  private static Set<HoodieFileGroupId> groups(HoodieFileGroupId... groups) {
    return new LinkedHashSet<>(Arrays.asList(groups));
  }
}
