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

package org.apache.hudi.utilities.transform.view;

import org.apache.hudi.DataSourceReadOptions;
import org.apache.hudi.keygen.NonpartitionedKeyGenerator;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.StreamerJob;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Views end to end: given Hudi source tables (COPY_ON_WRITE and MERGE_ON_READ, one read as CDC) changed by the seeded
 * workload of {@link TestViewDifferential}, when the stock HoodieStreamer runs a view's SQL file over
 * &lt;TABLE:name&gt; placeholders after each batch of changes, then the target equals the view's query run over the
 * tables read with time travel at the checkpoint the target committed, row for row.
 */
class TestViewsThroughStreamer {

  private static final long SEED = Long.getLong("view.differential.seed", 20261202L);

  @TempDir
  Path dir;

  @Test
  void joinViewWithLeftOuterJoinsIntoMergeOnReadTarget() throws Exception {
    run("SELECT o.order_id, o.amount, u.user_name, c.region FROM <TABLE:orders> o "
        + "LEFT JOIN <TABLE:users> u ON o.user_id = u.user_id LEFT JOIN <TABLE:countries> c ON u.country = c.code",
        "order_id", "MERGE_ON_READ", 12, Map.of());
  }

  /** Orders read one commit per batch ({@code num_instants=1}): the view follows the checkpoint, not the tables. */
  @Test
  void groupedViewIntoCopyOnWriteTarget() throws Exception {
    run("SELECT u.country, o.status, count(*) AS n, sum(o.amount) AS total, count(DISTINCT o.user_id) AS buyers "
        + "FROM <TABLE:orders> o JOIN <TABLE:users> u ON o.user_id = u.user_id GROUP BY u.country, o.status "
        + "HAVING count(*) > 1", "country,status", "COPY_ON_WRITE", 10,
        Map.of("hoodie.streamer.source.hudi.orders.num_instants", "1"));
  }

  @Test
  void unionViewIntoCopyOnWriteTarget() throws Exception {
    run("SELECT 'order' AS kind, order_id AS id, amount AS value FROM <TABLE:orders> UNION ALL "
        + "SELECT 'payment' AS kind, p.payment_id AS id, p.paid + o.amount AS value FROM <TABLE:payments> p "
        + "JOIN <TABLE:orders> o ON p.order_id = o.order_id", "kind,id", "COPY_ON_WRITE", 8, Map.of());
  }

  /**
   * Runs the view over rounds of the workload's changes. Besides them: in round 3 an order is inserted and deleted
   * before the batch (in two commits it reads together), and from round 4 payments are written with a column more.
   */
  private void run(String sql, String targetKey, String targetType, int rounds, Map<String, String> moreProperties)
      throws Exception {
    SparkSession spark = SharedSpark.session();
    ViewWorkload workload = new ViewWorkload(SEED);
    List<String> tables = new ArrayList<>(ViewWorkload.SCHEMAS.keySet());
    Map<String, String> paths = new LinkedHashMap<>();
    tables.forEach(table -> paths.put(table, dir.resolve(table).toUri().toString()));
    String target = dir.resolve("target").toUri().toString();
    StreamerJob job = new StreamerJob(dir, target)
        .property("hoodie.streamer.source.multi.hudi.tables", String.join(",", tables))
        .property("hoodie.datasource.write.recordkey.field", targetKey)
        .property("hoodie.streamer.transformer.view.strategy", "STRICT")
        .property("hoodie.streamer.source.hudi.users.incr.format", "CDC")
        .transformers(MultiDatasetSqlFileTransformer.class.getName())
        .tableType(targetType)
        .orderingField(ViewDefinition.COMMIT_ORDER)
        .sql(sql);
    tables.forEach(table -> job
        .property("hoodie.streamer.source.hudi." + table + ".path", paths.get(table))
        .property("hoodie.streamer.source.hudi." + table + ".missing_checkpoint_strategy", "READ_UPTO_LATEST_COMMIT"));
    Map<String, Map<String, Object[]>> written = new LinkedHashMap<>();
    moreProperties.forEach(job::property);
    for (String table : tables) {
      written.put(table, new TreeMap<>());
    }
    for (int round = 0; round < rounds; round++) {
      Map<String, Map<String, Object[]>> current = workload.copy();
      for (String table : tables) {
        write(spark, table, paths.get(table), written.get(table), current.get(table), round >= 4);
      }
      if (round == 3) {
        Map<String, Object[]> passing = Map.of("o-transient", new Object[] {"o-transient", "u0", 50, "open", 0L});
        save(ViewWorkload.dataset(spark, "orders", passing), "orders", paths.get("orders"), "order_id", true, "upsert");
        save(ViewWorkload.dataset(spark, "orders", passing), "orders", paths.get("orders"), "order_id", true, "delete");
      }
      written = current;
      job.syncInProcess();

      String checkpoint = HudiTables.lastCheckpoint(target);
      Map<String, String> positions = new LinkedHashMap<>();
      for (String entry : checkpoint.split(",")) {
        if (entry.contains("=") && !entry.startsWith("@")) {
          positions.put(entry.substring(0, entry.indexOf('=')), entry.substring(entry.indexOf('=') + 1));
        }
      }
      Map<String, Dataset<Row>> asOf = new LinkedHashMap<>();
      for (String table : tables) {
        asOf.put(table, spark.read().format("hudi")
            .option(DataSourceReadOptions.TIME_TRAVEL_AS_OF_INSTANT().key(), positions.get(table)).load(paths.get(table))
            .drop("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key", "_hoodie_partition_path",
                "_hoodie_file_name"));
      }
      String bound = sql;
      for (String table : tables) {
        asOf.get(table).createOrReplaceTempView("streamer_view_" + table);
        bound = bound.replace("<TABLE:" + table + ">", "streamer_view_" + table);
      }
      Dataset<Row> expected = spark.sql(bound);
      List<String> columns = Arrays.asList(expected.columns());
      Dataset<Row> actual = spark.read().format("hudi").load(target)
          .select(columns.stream().map(functions::col).toArray(Column[]::new));
      assertEquals(rows(expected), rows(actual), String.format("seed %d, round %d, checkpoint %s: the target differs "
          + "from the view's query over the tables at the checkpoint", SEED, round, checkpoint));
      workload.change();
    }
  }

  /** Writes a table's changes: the rows inserted or updated, then deletes of the keys gone (none on the first write). */
  private static void write(SparkSession spark, String table, String path, Map<String, Object[]> before,
                            Map<String, Object[]> after, boolean columnAdded) {
    Map<String, Object[]> upserts = new TreeMap<>();
    after.forEach((key, row) -> {
      if (!before.containsKey(key) || !Arrays.equals(before.get(key), row)) {
        upserts.put(key, row);
      }
    });
    Map<String, Object[]> deletes = new TreeMap<>();
    before.forEach((key, row) -> {
      if (!after.containsKey(key)) {
        deletes.put(key, row);
      }
    });
    String key = ViewWorkload.KEYS.get(table);
    boolean mergeOnRead = table.equals("orders");
    if (!upserts.isEmpty()) {
      Dataset<Row> rows = ViewWorkload.dataset(spark, table, upserts);
      // A nullable column: Hudi takes a new column only if older records can read it as null.
      if (columnAdded && table.equals("payments")) {
        rows = rows.withColumn("note", functions.when(functions.col("paid").isNotNull(), functions.lit("added")));
      }
      save(rows, table, path, key, mergeOnRead, "upsert");
    }
    if (!deletes.isEmpty()) {
      save(ViewWorkload.dataset(spark, table, deletes), table, path, key, mergeOnRead, "delete");
    }
  }

  private static void save(Dataset<Row> rows, String table, String path, String key, boolean mergeOnRead,
                           String operation) {
    rows.write().format("hudi")
        .option("hoodie.table.name", table)
        .option("hoodie.datasource.write.table.type", mergeOnRead ? "MERGE_ON_READ" : "COPY_ON_WRITE")
        .option("hoodie.datasource.write.operation", operation)
        .option("hoodie.datasource.write.recordkey.field", key)
        .option("hoodie.datasource.write.precombine.field", key)
        .option("hoodie.datasource.write.partitionpath.field", "")
        .option("hoodie.datasource.write.keygenerator.class", NonpartitionedKeyGenerator.class.getName())
        .option("hoodie.table.cdc.enabled", table.equals("users") ? "true" : "false")
        .option("hoodie.upsert.shuffle.parallelism", "2")
        .option("hoodie.insert.shuffle.parallelism", "2")
        .option("hoodie.delete.shuffle.parallelism", "2")
        .mode(SaveMode.Append)
        .save(path);
  }

  private static TreeSet<String> rows(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).collect(Collectors.toCollection(TreeSet::new));
  }
}
