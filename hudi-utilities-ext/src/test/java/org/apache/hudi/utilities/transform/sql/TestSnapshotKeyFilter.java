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

package org.apache.hudi.utilities.transform.sql;

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.hudi014.TableSnapshot;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.transform.sql.SnapshotKeyFilter.KeyIndex;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.apache.hudi.utilities.testutils.HudiTables.user;
import static org.apache.hudi.utilities.testutils.ScannedFiles.filesRead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Snapshot reads restricted by a delta's keys skip the files of a table laid out by the key: with the key list, and,
 * for a delta with more keys than the list may hold, with their range; the join is the same as over the whole snapshot.
 */
class TestSnapshotKeyFilter {

  /** A CDC-shaped delta of users: the key is a field of the after image. */
  private static final StructType DELTA = new StructType().add("op", DataTypes.StringType)
      .add("after", HudiTables.USERS);
  private static final DeltaKeyJoins.KeyJoin JOIN =
      new DeltaKeyJoins.KeyJoin("snap_users", "USER_ID", "src_users", List.of("After", "user_id"));
  private static final int FILES = 5;
  private static final int USERS_PER_FILE = 20;

  @TempDir
  static Path dir;

  private static Dataset<Row> snapshot;

  /** Users u000 to u099 in 5 files of 20 consecutive keys each (one commit each), with column stats. */
  @BeforeAll
  static void usersInFilesByKeyRange() {
    String path = dir.resolve("users").toString();
    String instant = null;
    for (int file = 0; file < FILES; file++) {
      Row[] rows = IntStream.range(file * USERS_PER_FILE, (file + 1) * USERS_PER_FILE)
          .mapToObj(id -> user(key(id), "name" + id, 1L)).toArray(Row[]::new);
      instant = HudiTables.upsert(path, "users", "COPY_ON_WRITE", "user_id", HudiTables.USERS,
          Map.of("hoodie.metadata.enable", "true", "hoodie.metadata.index.column.stats.enable", "true",
              "hoodie.parquet.small.file.limit", "0"), rows);
    }
    SparkSession spark = SharedSpark.session();
    snapshot = TableSnapshot.asOf(spark, "users", path, Option.of(instant), spark.read().format("hudi").load(path));
  }

  @Test
  void deltaWithMoreKeysThanTheListHoldsReadsOnlyTheFilesOfItsKeyRange() {
    // 12 keys, all in the second file, and a deleted row, whose after image is null.
    Dataset<Row> delta = delta(IntStream.range(23, 35));
    assertEquals(FILES, filesRead(joined(delta, snapshot)));

    Dataset<Row> byRange = new SnapshotKeyFilter(SharedSpark.session(), 5, true)
        .restrict(snapshot, JOIN, delta, KeyIndex.NONE).get();
    assertEquals(1, filesRead(joined(delta, byRange)));
    assertEquals(rows(joined(delta, snapshot)), rows(joined(delta, byRange)));
    assertEquals(12, rows(joined(delta, byRange)).size());

    Dataset<Row> byKeys = new SnapshotKeyFilter(SharedSpark.session(), 100, true)
        .restrict(snapshot, JOIN, delta, KeyIndex.NONE).get();
    assertEquals(1, filesRead(joined(delta, byKeys)));
    assertEquals(rows(joined(delta, snapshot)), rows(joined(delta, byKeys)));
  }

  @Test
  void keysSpreadOverTheTableReadTheFilesBetweenTheirLeastAndGreatest() {
    // u015 and u065: the first file to the fourth.
    Dataset<Row> delta = delta(IntStream.of(15, 65, 41, 22));
    Dataset<Row> byRange = new SnapshotKeyFilter(SharedSpark.session(), 1, true)
        .restrict(snapshot, JOIN, delta, KeyIndex.NONE).get();
    assertEquals(4, filesRead(joined(delta, byRange)));
    assertEquals(rows(joined(delta, snapshot)), rows(joined(delta, byRange)));
  }

  @Test
  void withoutTheRangeADeltaWithMoreKeysReadsTheSnapshotInFull() {
    assertFalse(new SnapshotKeyFilter(SharedSpark.session(), 5, false)
        .restrict(snapshot, JOIN, delta(IntStream.range(23, 35)), KeyIndex.NONE).isPresent());
    assertFalse(new SnapshotKeyFilter(SharedSpark.session(), 0, true)
        .restrict(snapshot, JOIN, delta(IntStream.range(23, 24)), KeyIndex.NONE).isPresent());
  }

  @Test
  void theDeltaIsReadFromItsFilesOnceForItsKeysAndTheJoinReadsItFromTheCache() {
    String deltaPath = dir.resolve("delta-in-files").toString();
    delta(IntStream.range(23, 35)).repartition(3).write().parquet(deltaPath);
    Dataset<Row> delta = SharedSpark.session().read().parquet(deltaPath);
    assertEquals(3 + FILES, filesRead(joined(delta, snapshot)));

    SnapshotKeyFilter filter = new SnapshotKeyFilter(SharedSpark.session(), 100, true);
    Dataset<Row> byKeys = filter.restrict(snapshot, JOIN, delta, KeyIndex.NONE).get();
    assertNotEquals(StorageLevel.NONE(), delta.storageLevel());
    assertEquals(1, filesRead(joined(delta, byKeys)));
    assertEquals(rows(joined(delta, snapshot)), rows(joined(delta, byKeys)));

    delta.unpersist();
    assertEquals(3 + 1, filesRead(joined(delta, byKeys)));
  }

  private static String key(int id) {
    return String.format("u%03d", id);
  }

  private static Dataset<Row> delta(IntStream ids) {
    List<Row> rows = Stream.concat(
        ids.mapToObj(id -> RowFactory.create("u", user(key(id), "renamed" + id, 2L))),
        Stream.of(RowFactory.create("d", null))).collect(Collectors.toList());
    return SharedSpark.session().createDataFrame(rows, DELTA);
  }

  private static Dataset<Row> joined(Dataset<Row> delta, Dataset<Row> snapshot) {
    return delta.join(snapshot, delta.col("after.user_id").equalTo(snapshot.col("user_id")))
        .select(delta.col("after.user_id"), snapshot.col("user_name"));
  }

  private static List<String> rows(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }
}
