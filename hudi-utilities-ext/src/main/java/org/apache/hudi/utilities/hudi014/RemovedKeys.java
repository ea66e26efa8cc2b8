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

import org.apache.hudi.DataSourceReadOptions;
import org.apache.hudi.HoodieBaseRelation;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieFileGroupId;
import org.apache.hudi.common.model.HoodieReplaceCommitMetadata;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.transform.view.ViewCost;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.apache.spark.sql.functions.col;
import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * The record keys that a window of commits removed from a table read as its latest state (whose incremental read
 * returns no deleted record), found from what the window's commits wrote rather than from the whole table.
 *
 * <p>The file groups whose write stats count deletes ({@link RemovedKeyScope}) are read as of the window's start and
 * as of its end, their record key columns only, and the keys only the start holds are the removed ones. A
 * copy-on-write group is read from its base file at each position, as a Spark file scan. A merge-on-read group is read
 * through Hudi's snapshot relation, as of each position, over the files of the group's slice there (its base file and
 * log files, delete blocks included): the same merge of the same files as the table's snapshot, for those groups only.
 * A key that the window deleted and wrote again into another group is reported removed too; its rows are re-read at
 * both states and change nothing.
 *
 * <p>Where the removals cannot be placed in file groups, or the groups cannot be read as Hudi reads them, the keys are
 * found by comparing the table's keys at both positions, and the log says why: a replace commit other than clustering
 * in the window (insert overwrite, delete partition), a bootstrapped table, partition columns dropped from the files,
 * a copy-on-write table whose files a Spark file scan would read otherwise than Hudi
 * ({@link ParquetFileScan#whyNotLikeHudisRead}); for a merge-on-read table, a compaction pending (Hudi's read of named
 * files skips the logs written since the compaction was scheduled, which the table's snapshot reads) or a group read
 * that a replace commit after the window's start replaced, a clustering in or after the window (Hudi's read of named
 * files then skips the group's partition).
 */
final class RemovedKeys {

  private static final Logger LOG = LoggerFactory.getLogger(RemovedKeys.class);

  private static final RemovedKeys NONE = new RemovedKeys(Option.empty(), ViewCost.RemovedKeysRead.none());

  private final Option<Dataset<Row>> keys;
  private final ViewCost.RemovedKeysRead read;

  private RemovedKeys(Option<Dataset<Row>> keys, ViewCost.RemovedKeysRead read) {
    this.keys = keys;
    this.read = read;
  }

  /**
   * @param window         the window's commits, oldest first, with their metadata
   * @param previous       the position before the window; empty, or before the first instant, if the table had no
   *                       state before it
   * @param next           the window's last instant
   * @param before         the table as of {@code previous}, lazily read
   * @param after          the table as of {@code next}, lazily read
   * @param recordsPerByte the records per byte of the table's files, to count the rows of the files read
   */
  static RemovedKeys find(SparkSession spark, String table, SourceTimeline timeline,
                          Map<HoodieInstant, HoodieCommitMetadata> window, Option<String> previous, String next,
                          Dataset<Row> before, Dataset<Row> after, List<String> recordKey, double recordsPerByte) {
    RemovedKeyScope scope = RemovedKeyScope.of(window);
    if (!TableSnapshot.isState(previous) || scope.isEmpty()) {
      return NONE;
    }
    Column[] keyColumns = recordKey.stream().map(RemovedKeys::column).toArray(Column[]::new);
    HoodieTableMetaClient metaClient = timeline.metaClient();
    Option<String> wholeTable = scope.wholeTableBecause().or(() -> whyNotByFileGroups(spark, metaClient));
    if (wholeTable.isPresent()) {
      return wholeTable(table, before, after, keyColumns, wholeTable.get());
    }
    return fromFileGroups(spark, table, timeline, scope, previous.get(), next, before, after, keyColumns,
        recordsPerByte);
  }

  /** The removed keys of the scope's file groups, read at both positions; or of the whole table, where they cannot be. */
  private static RemovedKeys fromFileGroups(SparkSession spark, String table, SourceTimeline timeline,
                                            RemovedKeyScope scope, String previous, String next, Dataset<Row> before,
                                            Dataset<Row> after, Column[] keyColumns, double recordsPerByte) {
    HoodieTableMetaClient metaClient = timeline.metaClient();
    List<FileSlice> atStart;
    List<FileSlice> atEnd;
    HoodieTableFileSystemView view = new HoodieTableFileSystemView(metaClient,
        timeline.completedCommits().findInstantsBeforeOrEquals(next));
    try {
      atStart = slices(view, scope.atStart(), previous);
      atEnd = slices(view, scope.atEnd(), next);
    } finally {
      view.close();
    }
    Set<HoodieFileGroupId> fileGroups = new TreeSet<>(scope.atStart());
    fileGroups.addAll(scope.atEnd());
    ViewCost.RemovedKeysRead read = ViewCost.RemovedKeysRead.fromFileGroups(fileGroups.size(),
        (long) Math.ceil((bytes(atStart) + bytes(atEnd)) * recordsPerByte));
    if (atStart.isEmpty()) {
      // The groups were written within the window: none of their keys was in the table before it.
      return new RemovedKeys(Option.empty(), read);
    }
    StructType keyTypes = after.select(keyColumns).schema();
    Dataset<Row> removed;
    if (metaClient.getTableType() == HoodieTableType.COPY_ON_WRITE) {
      // A copy-on-write slice is its base file, which the snapshot reads as it is.
      removed = ParquetFileScan.of(spark, baseFiles(atStart), keyTypes, Option.empty());
      if (!atEnd.isEmpty()) {
        removed = removed.except(ParquetFileScan.of(spark, baseFiles(atEnd), keyTypes, Option.empty()));
      }
    } else {
      Option<String> unnamable = commaInPath(atStart).or(() -> commaInPath(atEnd));
      if (unnamable.isPresent()) {
        return wholeTable(table, before, after, keyColumns, unnamable.get());
      }
      List<Dataset<Row>> reads = new ArrayList<>();
      reads.add(mergedKeys(spark, atStart, previous, keyColumns));
      if (!atEnd.isEmpty()) {
        reads.add(mergedKeys(spark, atEnd, next, keyColumns));
      }
      Option<String> replaced = replacedSince(reads, fileGroups, previous);
      if (replaced.isPresent()) {
        return wholeTable(table, before, after, keyColumns, replaced.get());
      }
      removed = reads.size() == 1 ? reads.get(0) : reads.get(0).except(reads.get(1));
    }
    LOG.info("Table {}: the keys its window ({}, {}] removed, from the {} file group(s) it deleted from: {} file "
        + "slice(s) as of {}, {} as of {}", table, previous, next, fileGroups.size(), atStart.size(), previous,
        atEnd.size(), next);
    return new RemovedKeys(Option.of(removed), read);
  }

  /** No key removed, nothing read. */
  static RemovedKeys none() {
    return NONE;
  }

  /** The removed keys, the table's record key columns; empty if the window removed none. */
  Option<Dataset<Row>> keys() {
    return keys;
  }

  /** What finding them reads, for the cost model. */
  ViewCost.RemovedKeysRead read() {
    return read;
  }

  private static RemovedKeys wholeTable(String table, Dataset<Row> before, Dataset<Row> after, Column[] keyColumns,
                                        String because) {
    LOG.info("Table {}: the keys its window removed, from its keys at both positions: {}", table, because);
    return new RemovedKeys(Option.of(before.select(keyColumns).except(after.select(keyColumns))),
        ViewCost.RemovedKeysRead.wholeTable());
  }

  /** Why the table's file groups cannot be read as its snapshot reads them; empty if they can. */
  private static Option<String> whyNotByFileGroups(SparkSession spark, HoodieTableMetaClient metaClient) {
    HoodieTableConfig config = metaClient.getTableConfig();
    if (config.getBootstrapBasePath().isPresent()) {
      return Option.of("a bootstrapped table (its base files are read with the source files they point to)");
    }
    if (config.shouldDropPartitionColumns()) {
      return Option.of("partition columns are not in its files (" + HoodieTableConfig.DROP_PARTITION_COLUMNS.key() + ")");
    }
    if (config.getTableType() == HoodieTableType.COPY_ON_WRITE) {
      return ParquetFileScan.whyNotLikeHudisRead(spark, config);
    }
    Option<HoodieInstant> pending = Option.fromJavaOptional(metaClient.getActiveTimeline()
        .filterPendingMajorOrMinorCompactionTimeline().getInstantsAsStream().findFirst());
    return pending.map(compaction -> "compaction " + compaction + " is pending: a read of named files would skip the "
        + "logs written since it was scheduled");
  }

  /** The slices, as of an instant, of those of the file groups that exist then. */
  private static List<FileSlice> slices(HoodieTableFileSystemView view, Set<HoodieFileGroupId> fileGroups,
                                        String instant) {
    Set<String> partitions = fileGroups.stream().map(HoodieFileGroupId::getPartitionPath)
        .collect(Collectors.toCollection(LinkedHashSet::new));
    List<FileSlice> slices = new ArrayList<>();
    for (String partition : partitions) {
      view.getLatestMergedFileSlicesBeforeOrOn(partition, instant)
          .filter(slice -> fileGroups.contains(slice.getFileGroupId()))
          .forEach(slices::add);
    }
    return slices;
  }

  private static List<String> baseFiles(List<FileSlice> slices) {
    return slices.stream().map(slice -> slice.getBaseFile().get().getPath()).collect(Collectors.toList());
  }

  /**
   * The record keys merge-on-read slices hold as of an instant: Hudi's snapshot relation, as of the instant, over the
   * slices' files named, which merges each base file with its logs as the table's snapshot does.
   */
  private static Dataset<Row> mergedKeys(SparkSession spark, List<FileSlice> slices, String instant,
                                         Column[] keyColumns) {
    return spark.read().format("hudi")
        .option(DataSourceReadOptions.TIME_TRAVEL_AS_OF_INSTANT().key(), instant)
        .option(DataSourceReadOptions.READ_PATHS().key(), String.join(",", files(slices)))
        .load()
        .select(keyColumns);
  }

  /**
   * Why reads of named files would miss some of the file groups: Hudi 0.14's relation over named files lists the
   * partitions of those of their groups that no completed replace commit replaced, whatever the read's instant, so a
   * partition whose groups read were all replaced since (by a clustering in or after the window) reads nothing. The
   * replace commits are those of each relation's own timeline, which its listing used; empty if none replaced a group
   * read.
   */
  private static Option<String> replacedSince(List<Dataset<Row>> reads, Set<HoodieFileGroupId> fileGroups,
                                              String previous) {
    for (Dataset<Row> read : reads) {
      for (LogicalPlan leaf : seqAsJavaList(read.queryExecution().analyzed().collectLeaves())) {
        if (!(leaf instanceof LogicalRelation) || !(((LogicalRelation) leaf).relation() instanceof HoodieBaseRelation)) {
          continue;
        }
        HoodieTableMetaClient metaClient = ((HoodieBaseRelation) ((LogicalRelation) leaf).relation()).metaClient();
        HoodieTimeline replaces = metaClient.getActiveTimeline().getCompletedReplaceTimeline()
            .findInstantsAfter(previous);
        for (HoodieInstant replace : replaces.getInstants()) {
          Option<HoodieReplaceCommitMetadata> metadata = CompletedInstantReader.read(replaces, replace,
              metaClient.getBasePath(), bytes -> HoodieReplaceCommitMetadata.fromBytes(bytes,
                  HoodieReplaceCommitMetadata.class));
          if (!metadata.isPresent()) {
            return Option.of("replace commit " + replace.getTimestamp() + " is being completed");
          }
          for (Map.Entry<String, List<String>> partition : metadata.get().getPartitionToReplaceFileIds().entrySet()) {
            for (String fileId : partition.getValue()) {
              if (fileGroups.contains(new HoodieFileGroupId(partition.getKey(), fileId))) {
                return Option.of(String.format("replace commit %s replaced file group %s of partition '%s', which "
                    + "Hudi 0.14's read of named files then skips at every instant", replace.getTimestamp(), fileId,
                    partition.getKey()));
              }
            }
          }
        }
      }
    }
    return Option.empty();
  }

  private static List<String> files(List<FileSlice> slices) {
    List<String> files = new ArrayList<>();
    for (FileSlice slice : slices) {
      slice.getBaseFile().ifPresent(file -> files.add(file.getPath()));
      slice.getLogFiles().forEach(file -> files.add(file.getPath().toString()));
    }
    return files;
  }

  /** Why the slices' files cannot be named to Hudi's reader, which takes them as one comma-separated list. */
  private static Option<String> commaInPath(List<FileSlice> slices) {
    return Option.fromJavaOptional(files(slices).stream().filter(file -> file.contains(",")).findFirst())
        .map(file -> "the path of file " + file + " holds a comma");
  }

  private static long bytes(List<FileSlice> slices) {
    long bytes = 0;
    for (FileSlice slice : slices) {
      bytes += slice.getBaseFile().map(file -> Math.max(0, file.getFileSize())).orElse(0L);
      bytes += slice.getLogFiles().mapToLong(file -> Math.max(0, file.getFileSize())).sum();
    }
    return bytes;
  }

  private static Column column(String name) {
    return col("`" + name.replace("`", "``") + "`");
  }
}
