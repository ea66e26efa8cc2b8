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

package org.apache.hudi.utilities.benchmarks;

import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the benchmarks read from a table's timeline: the completed commits' instants, and the files one commit wrote.
 */
final class CommitTimeline {

  private CommitTimeline() {
  }

  /** The instant of the table's oldest completed commit. */
  static String firstCompletedInstant(Configuration conf, String basePath) {
    return completedCommits(conf, basePath).firstInstant().get().getTimestamp();
  }

  /** The instant of the table's newest completed commit. */
  static String lastCompletedInstant(Configuration conf, String basePath) {
    return completedCommits(conf, basePath).lastInstant().get().getTimestamp();
  }

  /**
   * The full paths of the files written by the completed commit at {@code instant}, from the write stats of its commit
   * metadata (every partition; on a COPY_ON_WRITE table, the base files holding the rows the commit inserted or
   * rewrote).
   */
  static List<String> filesWrittenBy(Configuration conf, String basePath, String instant) {
    HoodieTimeline commits = completedCommits(conf, basePath);
    HoodieInstant commit = commits.filter(candidate -> candidate.getTimestamp().equals(instant)).firstInstant()
        .orElseThrow(() -> new IllegalArgumentException("Cannot list the files written by commit " + instant + " of "
            + basePath + ": no completed commit at that instant"));
    HoodieCommitMetadata metadata;
    try {
      metadata = HoodieCommitMetadata.fromBytes(commits.getInstantDetails(commit).get(), HoodieCommitMetadata.class);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the metadata of commit " + instant + " of " + basePath, e);
    }
    List<String> files = new ArrayList<>();
    for (List<HoodieWriteStat> stats : metadata.getPartitionToWriteStats().values()) {
      for (HoodieWriteStat stat : stats) {
        files.add(new Path(basePath, stat.getPath()).toString());
      }
    }
    return files;
  }

  private static HoodieTimeline completedCommits(Configuration conf, String basePath) {
    return HoodieTableMetaClient.builder().setConf(conf).setBasePath(basePath).setLoadActiveTimelineOnLoad(true).build()
        .getCommitsTimeline().filterCompletedInstants();
  }
}
