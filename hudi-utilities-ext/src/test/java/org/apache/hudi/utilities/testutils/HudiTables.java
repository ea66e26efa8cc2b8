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

package org.apache.hudi.utilities.testutils;

import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.keygen.NonpartitionedKeyGenerator;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Real Hudi tables on local disk for tests: writes source rows, reads timelines and checkpoints.
 */
public final class HudiTables {

  public static final String CHECKPOINT_KEY = "deltastreamer.checkpoint.key";

  public static final StructType ORDERS = new StructType()
      .add("order_id", DataTypes.StringType, false)
      .add("user_id", DataTypes.StringType)
      .add("amount", DataTypes.DoubleType)
      .add("ts", DataTypes.LongType);

  public static final StructType USERS = new StructType()
      .add("user_id", DataTypes.StringType, false)
      .add("user_name", DataTypes.StringType)
      .add("ts", DataTypes.LongType);

  private HudiTables() {
  }

  public static Row order(String orderId, String userId, double amount, long ts) {
    return RowFactory.create(orderId, userId, amount, ts);
  }

  public static Row user(String userId, String name, long ts) {
    return RowFactory.create(userId, name, ts);
  }

  /**
   * Upserts rows into a non-partitioned table, creating it on first use.
   *
   * @return the instant of the commit just written
   */
  public static String upsert(String path, String tableName, String tableType, String recordKey, StructType schema,
                              Row... rows) {
    return upsert(path, tableName, tableType, recordKey, schema, Map.of(), rows);
  }

  /** As {@link #upsert(String, String, String, String, StructType, Row...)}, with more write options. */
  public static String upsert(String path, String tableName, String tableType, String recordKey, StructType schema,
                              Map<String, String> writeOptions, Row... rows) {
    Dataset<Row> data = SharedSpark.session().createDataFrame(Arrays.asList(rows), schema);
    data.write().format("hudi")
        .option("hoodie.table.name", tableName)
        .option("hoodie.datasource.write.table.type", tableType)
        .option("hoodie.datasource.write.operation", "upsert")
        .option("hoodie.datasource.write.recordkey.field", recordKey)
        .option("hoodie.datasource.write.precombine.field", "ts")
        .option("hoodie.datasource.write.partitionpath.field", "")
        .option("hoodie.datasource.write.keygenerator.class", NonpartitionedKeyGenerator.class.getName())
        .option("hoodie.upsert.shuffle.parallelism", "2")
        .option("hoodie.insert.shuffle.parallelism", "2")
        .options(writeOptions)
        .mode(SaveMode.Append)
        .save(path);
    return lastCompletedInstant(path).orElseThrow(() -> new IllegalStateException("no commit in " + path));
  }

  /**
   * Deletes the rows with the given keys.
   *
   * @return the instant of the commit just written
   */
  public static String delete(String path, String tableName, String tableType, String recordKey, StructType schema,
                              Row... rows) {
    return upsert(path, tableName, tableType, recordKey, schema, Map.of("hoodie.datasource.write.operation", "delete"),
        rows);
  }

  public static Option<String> lastCompletedInstant(String path) {
    return metaClient(path).getCommitsTimeline().filterCompletedInstants().lastInstant()
        .map(HoodieInstant::getTimestamp);
  }

  /** The commits of a table in state INFLIGHT (its data files are being written), oldest first. */
  public static List<String> inflightCommits(String path) {
    return metaClient(path).getCommitsTimeline().filterInflights().getInstantsAsStream().map(HoodieInstant::getTimestamp).collect(Collectors.toList());
  }

  /** The completed instants of one action (e.g. {@code deltacommit}), oldest first. */
  public static List<String> completedInstants(String path, String action) {
    return metaClient(path).getActiveTimeline().filterCompletedInstants().getInstantsAsStream()
        .filter(instant -> instant.getAction().equals(action)).map(HoodieInstant::getTimestamp)
        .collect(Collectors.toList());
  }

  /** The instants of the active timeline not completed (requested or inflight), of every action. */
  public static List<String> pendingInstants(String path) {
    return metaClient(path).getActiveTimeline().filterInflightsAndRequested().getInstantsAsStream()
        .map(HoodieInstant::toString).collect(Collectors.toList());
  }

  /** The instants of one action (e.g. {@code replacecommit}) not completed, requested or inflight, oldest first. */
  public static List<String> pendingInstants(String path, String action) {
    return metaClient(path).getActiveTimeline().filterInflightsAndRequested().getInstantsAsStream()
        .filter(instant -> instant.getAction().equals(action)).map(HoodieInstant::getTimestamp)
        .collect(Collectors.toList());
  }

  /** Every instant on the active timeline, in any state: proves that a failed run started nothing. */
  public static List<String> allInstants(String path) {
    return metaClient(path).getActiveTimeline().getInstantsAsStream()
        .map(HoodieInstant::toString).collect(Collectors.toList());
  }

  /** How many records the newest completed commit of a table inserted or updated (not the untouched ones rewritten). */
  public static long recordsWrittenByLastCommit(String path) {
    HoodieTimeline commits = metaClient(path).getCommitsTimeline().filterCompletedInstants();
    HoodieCommitMetadata metadata = commitMetadata(commits, commits.lastInstant().get());
    return metadata.fetchTotalInsertRecordsWritten() + metadata.fetchTotalUpdateRecordsWritten();
  }

  /** How many records the newest completed commit of a table counted as deleted. */
  public static long recordsDeletedByLastCommit(String path) {
    HoodieTimeline commits = metaClient(path).getCommitsTimeline().filterCompletedInstants();
    return commitMetadata(commits, commits.lastInstant().get()).getWriteStats().stream()
        .mapToLong(stat -> stat.getNumDeletes()).sum();
  }

  /** The completed commits, delta commits and compactions, oldest first: the instants an incremental read counts. */
  public static List<String> completedCommitInstants(String path) {
    return metaClient(path).getCommitsTimeline().filterCompletedInstants().getInstantsAsStream()
        .map(HoodieInstant::getTimestamp).collect(Collectors.toList());
  }

  /** The newest completed instant of an action: a write's data commit, not a compaction or clustering it triggered. */
  public static String lastCompleted(String path, String action) {
    List<String> instants = completedInstants(path, action);
    if (instants.isEmpty()) {
      throw new IllegalStateException("no " + action + " in " + path);
    }
    return instants.get(instants.size() - 1);
  }

  public static int completedCommits(String path) {
    return metaClient(path).getCommitsTimeline().filterCompletedInstants().countInstants();
  }

  /**
   * The checkpoint stored by the newest completed commit of a Streamer target that stores one (a compaction or
   * clustering commit stores none); null if none does.
   */
  public static String lastCheckpoint(String targetPath) {
    return lastCheckpoint(metaClient(targetPath));
  }

  /** As {@link #lastCheckpoint(String)}, on a timeline already loaded. */
  public static String lastCheckpoint(HoodieTableMetaClient target) {
    HoodieTimeline commits = target.getCommitsTimeline().filterCompletedInstants();
    List<HoodieInstant> newestFirst = new ArrayList<>(commits.getInstants());
    Collections.reverse(newestFirst);
    for (HoodieInstant commit : newestFirst) {
      String checkpoint = commitMetadata(commits, commit).getMetadata(CHECKPOINT_KEY);
      if (checkpoint != null) {
        return checkpoint;
      }
    }
    return null;
  }

  /** The files (relative to the table's base path) that the write stats of the table's completed commits name. */
  public static Set<String> filesWrittenByCompletedCommits(String path) {
    return filesWrittenByCompletedCommits(metaClient(path));
  }

  /** As {@link #filesWrittenByCompletedCommits(String)}, on a timeline already loaded. */
  public static Set<String> filesWrittenByCompletedCommits(HoodieTableMetaClient table) {
    HoodieTimeline commits = table.getCommitsTimeline().filterCompletedInstants();
    Set<String> files = new TreeSet<>();
    for (HoodieInstant commit : commits.getInstants()) {
      commitMetadata(commits, commit).getPartitionToWriteStats().values()
          .forEach(stats -> stats.forEach(stat -> files.add(stat.getPath())));
    }
    return files;
  }

  /**
   * The base and log files of a table (local or on S3), relative to its base path: every file outside {@code .hoodie}
   * but partition metadata and a local file system's checksum files.
   */
  public static Set<String> dataFiles(String path) {
    Path base = new Path(path);
    try {
      FileSystem fs = base.getFileSystem(SharedSpark.jsc().hadoopConfiguration());
      Set<String> files = new TreeSet<>();
      if (!fs.exists(base)) {
        return files;
      }
      String basePath = fs.makeQualified(base).toUri().getPath();
      RemoteIterator<LocatedFileStatus> listing = fs.listFiles(base, true);
      while (listing.hasNext()) {
        Path file = listing.next().getPath();
        String relative = file.toUri().getPath().substring(basePath.length() + 1);
        if (!relative.startsWith(HoodieTableMetaClient.METAFOLDER_NAME + "/") && FSUtils.isDataFile(file)
            && !file.getName().endsWith(".crc")) {
          files.add(relative);
        }
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the data files of " + path, e);
    }
  }

  private static HoodieCommitMetadata commitMetadata(HoodieTimeline commits, HoodieInstant commit) {
    try {
      return HoodieCommitMetadata.fromBytes(commits.getInstantDetails(commit).get(), HoodieCommitMetadata.class);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the metadata of " + commit, e);
    }
  }

  private static HoodieTableMetaClient metaClient(String path) {
    return HoodieTableMetaClient.builder().setConf(SharedSpark.jsc().hadoopConfiguration()).setBasePath(path)
        .setLoadActiveTimelineOnLoad(true).build();
  }
}
