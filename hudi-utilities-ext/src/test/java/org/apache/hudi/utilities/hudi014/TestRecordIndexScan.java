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
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.keygen.SimpleKeyGenerator;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.ScannedFiles.filesRead;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A snapshot read by keys through the record-level index has exactly the rows of the snapshot filtered by those keys,
 * and reads only the files that hold them. Given a partitioned copy-on-write table with a record-level index, written
 * with random inserts, updates and deletes and clustered inline (keys move to new file groups), when random sets of
 * present, deleted and never-written keys are read at the latest commit, then the rows equal the filtered snapshot's
 * and the files read are those the rows are in. Seeded ({@code -Drecord.index.seed}, printed). A snapshot the index
 * does not describe (an older instant, another column, a table without the index) is not read through it.
 */
class TestRecordIndexScan {

  private static final long SEED = Long.getLong("record.index.seed", 20261204L);
  private static final int COMMITS = 8;
  private static final int KEY_SETS = 8;

  private static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("region", DataTypes.StringType, false)
      .add("amount", DataTypes.LongType)
      .add("ts", DataTypes.LongType, false);

  @TempDir
  static Path dir;

  private static String path;
  private static List<String> commits;
  /** Every key ever written, deleted ones included. */
  private static final List<String> WRITTEN = new ArrayList<>();

  @BeforeAll
  static void tableWithARecordIndex() {
    System.out.println("TestRecordIndexScan seed " + SEED + " (-Drecord.index.seed)");
    path = dir.resolve("orders").toUri().toString();
    writeRandomCommits(path, new Random(SEED));
    commits = HudiTables.completedCommitInstants(path);
    assertFalse(HudiTables.completedInstants(path, HoodieTimeline.REPLACE_COMMIT_ACTION).isEmpty(),
        "the table was not clustered (seed " + SEED + ")");
  }

  @Test
  void keysReadThroughTheIndexGiveTheFilteredSnapshotFromOnlyTheFilesHoldingThem() {
    Random random = new Random(SEED);
    String latest = commits.get(commits.size() - 1);
    Dataset<Row> snapshot = snapshotAt(latest);
    long tableFiles = snapshot.select(HoodieRecord.FILENAME_METADATA_FIELD).distinct().count();
    int setsReadingFewerFiles = 0;
    for (int set = 0; set < KEY_SETS; set++) {
      List<Object> keys = new ArrayList<>();
      for (int i = 0; i < 1 + random.nextInt(6); i++) {
        keys.add(WRITTEN.get(random.nextInt(WRITTEN.size())));
      }
      keys.add("never-written-" + set);
      Dataset<Row> expected = snapshot.filter(col("id").isin(keys.toArray()));
      Option<Dataset<Row>> read = RecordIndexScan.rowsWithKeys(SharedSpark.session(), "orders", path, latest, snapshot,
          "id", keys);
      assertTrue(read.isPresent(), "keys " + keys);
      assertEquals(sorted(expected), sorted(read.get()), "keys " + keys);
      Set<String> filesOfTheRows = expected.select(HoodieRecord.FILENAME_METADATA_FIELD).collectAsList().stream()
          .map(row -> row.getString(0)).collect(Collectors.toCollection(TreeSet::new));
      assertEquals(filesOfTheRows.size(), filesRead(read.get()), "keys " + keys);
      setsReadingFewerFiles += filesOfTheRows.size() < tableFiles ? 1 : 0;
    }
    assertTrue(setsReadingFewerFiles > 0, "every key set read all " + tableFiles + " files (seed " + SEED + ")");
  }

  @Test
  void snapshotsTheIndexDoesNotDescribeAreNotReadThroughIt() {
    String older = commits.get(commits.size() - 2);
    List<Object> keys = List.of(WRITTEN.get(0));
    assertFalse(RecordIndexScan.rowsWithKeys(SharedSpark.session(), "orders", path, older, snapshotAt(older), "id", keys)
        .isPresent(), "an instant before the latest commit");
    String latest = commits.get(commits.size() - 1);
    assertFalse(RecordIndexScan.rowsWithKeys(SharedSpark.session(), "orders", path, latest, snapshotAt(latest),
        "region", List.of("eu")).isPresent(), "a column that is not the record key");

    String withoutIndex = dir.resolve("users").toUri().toString();
    String instant = HudiTables.upsert(withoutIndex, "users", "COPY_ON_WRITE", "user_id", HudiTables.USERS,
        HudiTables.user("u1", "one", 1L));
    Dataset<Row> users = SharedSpark.session().read().format("hudi").load(withoutIndex);
    assertFalse(RecordIndexScan.rowsWithKeys(SharedSpark.session(), "users", withoutIndex, instant, users, "user_id",
        List.of("u1")).isPresent(), "a table without a record-level index");
  }

  private static Dataset<Row> snapshotAt(String instant) {
    return TableSnapshot.withMetaColumns(SharedSpark.session(), path, instant);
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }

  /** Random upserts and deletes of keys in two partitions, small files merged or not, clustered every third commit. */
  private static void writeRandomCommits(String path, Random random) {
    List<String> live = new ArrayList<>();
    for (int commit = 0; commit < COMMITS; commit++) {
      boolean delete = commit > 1 && random.nextInt(4) == 0;
      List<Row> rows = new ArrayList<>();
      if (delete) {
        for (int i = 0; i < 1 + random.nextInt(3) && !live.isEmpty(); i++) {
          rows.add(row(live.remove(random.nextInt(live.size())), commit));
        }
      } else {
        for (int i = 0; i < 3 + random.nextInt(8); i++) {
          boolean update = !live.isEmpty() && random.nextBoolean();
          String key = update ? live.get(random.nextInt(live.size())) : "k" + commit + "_" + i;
          if (!update) {
            live.add(key);
            WRITTEN.add(key);
          }
          rows.add(row(key, commit));
        }
      }
      SharedSpark.session().createDataFrame(rows, ROWS).write().format("hudi")
          .option("hoodie.table.name", "orders")
          .option("hoodie.datasource.write.operation", delete ? "delete" : "upsert")
          .option("hoodie.datasource.write.recordkey.field", "id")
          .option("hoodie.datasource.write.partitionpath.field", "region")
          .option("hoodie.datasource.write.precombine.field", "ts")
          .option("hoodie.datasource.write.keygenerator.class", SimpleKeyGenerator.class.getName())
          .option("hoodie.upsert.shuffle.parallelism", "2")
          .option("hoodie.insert.shuffle.parallelism", "2")
          .option("hoodie.delete.shuffle.parallelism", "2")
          // The last commits after a clustering add file groups of their own: a key set may then skip some.
          .option("hoodie.parquet.small.file.limit", commit >= COMMITS - 2 || random.nextBoolean() ? "0" : "104857600")
          .option("hoodie.metadata.enable", "true")
          .option("hoodie.metadata.record.index.enable", "true")
          .option("hoodie.index.type", "RECORD_INDEX")
          .option("hoodie.clustering.inline", "true")
          .option("hoodie.clustering.inline.max.commits", "3")
          // See TestTableServiceSchedule: Hudi 0.14's row-writer clustering intermittently reads a group as empty.
          .option("hoodie.datasource.write.row.writer.enable", "false")
          .mode(SaveMode.Append)
          .save(path);
    }
  }

  private static Row row(String key, int commit) {
    return RowFactory.create(key, Math.abs(key.hashCode()) % 2 == 0 ? "eu" : "us", (long) commit * 10, (long) commit);
  }
}
