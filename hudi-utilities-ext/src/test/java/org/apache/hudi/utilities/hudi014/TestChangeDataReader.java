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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.keygen.SimpleKeyGenerator;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper;
import org.apache.hudi.utilities.sources.multi.TableBatch;
import org.apache.hudi.utilities.sources.multi.TableWindow;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CDC deltas of windows whose commits Hudi 0.14 writes without a change log file, which its CDC query cannot read
 * ("There should be a cdc log file."): the reader computes their net changes from the table's states at both ends of
 * the window instead, and the later windows read as before.
 */
class TestChangeDataReader {

  /** orders, with Hudi's delete marker: an upsert deletes the rows that set it. */
  private static final StructType ORDERS_WITH_DELETES = ORDERS.add("_hoodie_is_deleted", DataTypes.BooleanType);
  private static final Map<String, String> CHANGE_DATA = Map.of("hoodie.table.cdc.enabled", "true",
      "hoodie.table.cdc.supplemental.logging.mode", "DATA_BEFORE_AFTER");

  @TempDir
  Path dir;

  private String path;
  private SourceTable table;
  private IncrementalTableReader reader;
  private WindowPlanner planner;

  @BeforeEach
  void changeDataTable() {
    path = dir.resolve("orders").toUri().toString();
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", path);
    props.setProperty("hoodie.streamer.source.hudi.orders.incr.format", "cdc");
    props.setProperty("hoodie.streamer.source.hudi.orders.num_instants", "1");
    table = MultiTableReadConf.from(props).tables().get(0);
    reader = new IncrementalTableReader(props, SharedSpark.jsc(), SharedSpark.session(),
        IncrSourceHelper.getHollowCommitHandleMode(props));
    planner = new WindowPlanner(SharedSpark.jsc(), IncrSourceHelper.getHollowCommitHandleMode(props));
  }

  @Test
  void upsertWhoseDeleteMarkersEmptyAFileGroupReadsAsDeletes() {
    String first = write(order("o1", "u1", 10.0, 1L, false), order("o2", "u1", 20.0, 1L, false));
    String second = write(order("o1", "u1", 10.0, 2L, true), order("o2", "u1", 20.0, 2L, true));
    assertTrue(ChangeDataReader.writeWithoutChangeLog(timeline(), window(first)).isPresent(),
        "the commit that empties the file group has no change log");

    TableBatch deletes = read(first);

    assertEquals(Option.of(second), deletes.advancedTo());
    assertEquals(List.of("d o1 [o1,u1,10.0,1] null", "d o2 [o2,u1,20.0,1] null"), changes(deletes));
  }

  @Test
  void deletesAndInsertsInOneFileGroupAndAKeyReinsertedUnderAnotherUserRead() {
    String first = write(order("o1", "u1", 10.0, 1L, false), order("o2", "u1", 20.0, 1L, false));
    String second = write(order("o1", "u1", 10.0, 2L, true), order("o2", "u1", 20.0, 2L, true),
        order("o3", "u2", 30.0, 2L, false));
    String third = write(order("o1", "u2", 11.0, 3L, false));

    TableBatch deletesAndInsert = read(first);
    TableBatch reinsert = read(second);

    assertEquals(Option.of(second), deletesAndInsert.advancedTo());
    assertEquals(List.of("d o1 [o1,u1,10.0,1] null", "d o2 [o2,u1,20.0,1] null", "i o3 null [o3,u2,30.0,2]"),
        changes(deletesAndInsert));
    assertEquals(Option.of(third), reinsert.advancedTo());
    assertEquals(List.of("i o1 null [o1,u2,11.0,3]"), changes(reinsert));
  }

  @Test
  void windowsWithChangeLogsReadThroughHudisCdcQuery() {
    String first = write(order("o1", "u1", 10.0, 1L, false), order("o2", "u1", 20.0, 1L, false));
    write(order("o1", "u2", 11.0, 2L, false), order("o2", "u1", 20.0, 2L, true));

    assertEquals(Option.empty(), ChangeDataReader.writeWithoutChangeLog(timeline(), window(first)));
    assertEquals(List.of("d o2 [o2,u1,20.0,1] null", "u o1 [o1,u1,10.0,1] [o1,u2,11.0,2]"), changes(read(first)));
  }

  /**
   * Under a global index, a row whose partition changes is written in one commit as a delete in its old file group and
   * an insert in its new one: two changes of one key at one instant, which fold into the one update they are.
   */
  @Test
  void rowMovedToAnotherPartitionUnderAGlobalIndexReadsAsOneUpdate() {
    Map<String, String> movingRows = new HashMap<>(CHANGE_DATA);
    movingRows.putAll(Map.of("hoodie.datasource.write.partitionpath.field", "user_id",
        "hoodie.datasource.write.keygenerator.class", SimpleKeyGenerator.class.getName(),
        "hoodie.index.type", "GLOBAL_SIMPLE", "hoodie.simple.index.update.partition.path", "true"));
    String first = HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS_WITH_DELETES, movingRows,
        order("o1", "u1", 10.0, 1L, false), order("o2", "u1", 20.0, 1L, false));
    HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS_WITH_DELETES, movingRows,
        order("o1", "u2", 11.0, 2L, false));

    assertEquals(Option.empty(), ChangeDataReader.writeWithoutChangeLog(timeline(), window(first)),
        "o2 stays in the old file group: the commit has change logs");
    assertEquals(List.of("u o1 [o1,u1,10.0,1] [o1,u2,11.0,2]"), changes(read(first)));
  }

  private String write(Row... rows) {
    return HudiTables.upsert(path, "orders", "COPY_ON_WRITE", "order_id", ORDERS_WITH_DELETES, CHANGE_DATA, rows);
  }

  private static Row order(String orderId, String userId, double amount, long ts, boolean deleted) {
    return RowFactory.create(orderId, userId, amount, ts, deleted);
  }

  private SourceTimeline timeline() {
    return SourceTimeline.load(path, SharedSpark.jsc().hadoopConfiguration()).get();
  }

  /** The window a batch plans from the position (num_instants=1: the next commit). */
  private TableWindow window(String position) {
    return planner.plan(table, Option.of(timeline()), Option.of(position));
  }

  /** The batch's read of that window, as a multi-table batch reads it. */
  private TableBatch read(String position) {
    return reader.read(table, Option.of(timeline()), window(position));
  }

  /** Each change as "op key before after", sorted; of each image its first four columns (not the delete marker). */
  private static List<String> changes(TableBatch batch) {
    return batch.rows().collectAsList().stream()
        .map(row -> row.getString(0) + " " + key(row) + " " + image(row.getStruct(2)) + " " + image(row.getStruct(3)))
        .sorted().collect(Collectors.toList());
  }

  private static String key(Row change) {
    return (change.isNullAt(3) ? change.getStruct(2) : change.getStruct(3)).getString(0);
  }

  private static String image(Row image) {
    return image == null ? "null" : "[" + image.get(0) + "," + image.get(1) + "," + image.get(2) + "," + image.get(3)
        + "]";
  }
}
