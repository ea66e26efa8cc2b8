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

import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieReplaceCommitMetadata;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.Option;

import org.apache.hadoop.fs.Path;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The files a window of copy-on-write commits leaves to read, from the commits' metadata as Hudi's incremental
 * relation takes them: per file group the last file the window wrote, unless a replace commit of the window
 * (clustering, insert overwrite) replaced the group, whose rows are then in the groups that replaced it.
 *
 * <p>Also how many bytes of those files the window's rows take, from the write stats: a copy-on-write update rewrites
 * a whole file, so a file holds its group's every row while the window wrote only some of them. Each file counts the
 * share of its rows that the window's commits inserted or updated in its group (at most all of them).
 */
final class WindowFiles {

  private final List<String> paths;
  private final boolean everyFileNamed;
  private final Option<Long> windowBytes;

  private WindowFiles(List<String> paths, boolean everyFileNamed, Option<Long> windowBytes) {
    this.paths = Collections.unmodifiableList(paths);
    this.everyFileNamed = everyFileNamed;
    this.windowBytes = windowBytes;
  }

  /**
   * @param window the window's commits, oldest first
   * @throws org.apache.hudi.exception.HoodieIOException if a commit's metadata cannot be read
   */
  static WindowFiles of(SourceTimeline timeline, List<HoodieInstant> window) {
    Path basePath = timeline.metaClient().getBasePathV2();
    List<HoodieCommitMetadata> commits = window.stream().map(timeline::commitMetadata).collect(Collectors.toList());
    Map<String, String> replacedInPartition = new HashMap<>();
    for (HoodieCommitMetadata commit : commits) {
      if (commit instanceof HoodieReplaceCommitMetadata) {
        ((HoodieReplaceCommitMetadata) commit).getPartitionToReplaceFileIds().forEach((partition, fileGroups) ->
            fileGroups.forEach(fileGroup ->
                replacedInPartition.put(fileGroup, FSUtils.getPartitionPath(basePath, partition).toString())));
      }
    }
    Map<String, HoodieWriteStat> lastWrite = new LinkedHashMap<>();
    Map<String, Long> rowsWritten = new HashMap<>();
    for (HoodieCommitMetadata commit : commits) {
      for (List<HoodieWriteStat> stats : commit.getPartitionToWriteStats().values()) {
        for (HoodieWriteStat stat : stats) {
          String file = stat.getPath() == null ? null : FSUtils.getPartitionPath(basePath, stat.getPath()).toString();
          String replacedPartition = replacedInPartition.get(stat.getFileId());
          if (replacedPartition == null || file == null || !file.startsWith(replacedPartition)) {
            lastWrite.put(stat.getFileId(), stat);
            rowsWritten.merge(stat.getFileId(), stat.getNumInserts() + stat.getNumUpdateWrites(), Long::sum);
          }
        }
      }
    }
    List<String> paths = new ArrayList<>();
    boolean everyFileNamed = true;
    long windowBytes = 0;
    boolean everySizeKnown = true;
    for (Map.Entry<String, HoodieWriteStat> group : lastWrite.entrySet()) {
      HoodieWriteStat stat = group.getValue();
      if (stat.getPath() == null) {
        everyFileNamed = false;
        continue;
      }
      paths.add(FSUtils.getPartitionPath(basePath, stat.getPath()).toString());
      everySizeKnown &= stat.getFileSizeInBytes() > 0;
      double share = stat.getNumWrites() > 0 ? Math.min(1.0, (double) rowsWritten.get(group.getKey()) / stat.getNumWrites()) : 1.0;
      windowBytes += (long) Math.ceil(stat.getFileSizeInBytes() * share);
    }
    return new WindowFiles(paths, everyFileNamed, everySizeKnown ? Option.of(windowBytes) : Option.empty());
  }

  /** The files to read, one per file group. */
  List<String> paths() {
    return paths;
  }

  /** Whether every file group the window wrote names its file (a commit's metadata may lack a path). */
  boolean everyFileNamed() {
    return everyFileNamed;
  }

  /** The bytes of the files that the window's rows take; empty if a write stat lacks its file's size. */
  Option<Long> windowBytes() {
    return windowBytes;
  }
}
