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

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A view's target as the differential tests keep it in memory: the rows its batches wrote, one per record key, upserted
 * and deleted as Hudi applies a batch; and the multiset comparison of rows that every differential check uses.
 */
final class TargetRows {

  private final List<String> key;
  private final Map<List<Object>, Row> rows = new HashMap<>();
  private StructType schema;

  /** @param key the target's record key columns */
  TargetRows(List<String> key) {
    this.key = key;
  }

  /**
   * Applies a batch's rows: each upserts the target's row of its key, or deletes it where its
   * {@link ViewDefinition#IS_DELETED} is true.
   *
   * @return how many rows the batch holds
   * @throws AssertionError if the batch holds two rows of one key, which Hudi would collapse into one
   */
  int apply(Dataset<Row> batch, String what) {
    Dataset<Row> written = batch.drop(ViewDefinition.IS_DELETED, ViewDefinition.COMMIT_ORDER);
    schema = written.schema();
    Map<List<Object>, Row> seen = new HashMap<>();
    boolean flagged = Arrays.asList(batch.columns()).contains(ViewDefinition.IS_DELETED);
    List<Row> batchRows = batch.collectAsList();
    for (Row row : batchRows) {
      List<Object> keyValues = key.stream().map(column -> row.get(row.fieldIndex(column))).collect(Collectors.toList());
      assertNull(seen.put(keyValues, row), () -> what + ": two rows for key " + keyValues + " in one batch: "
          + seen.get(keyValues) + " and " + row);
      if (flagged && row.getBoolean(row.fieldIndex(ViewDefinition.IS_DELETED))) {
        rows.remove(keyValues);
      } else {
        Object[] values = Arrays.stream(schema.fieldNames()).map(column -> row.get(row.fieldIndex(column))).toArray();
        rows.put(keyValues, new GenericRowWithSchema(values, schema));
      }
    }
    return batchRows.size();
  }

  /** The target's rows as a Hudi target is read: the view's columns and any aggregate state. */
  Dataset<Row> stored(SparkSession spark) {
    return spark.createDataFrame(new ArrayList<>(rows.values()), schema);
  }

  int size() {
    return rows.size();
  }

  /** The target's rows as a multiset of the view's columns. */
  List<String> multiset(List<String> columns) {
    return multiset(new ArrayList<>(rows.values()), columns);
  }

  /**
   * Rows as a multiset of their values of some columns: one text per row (NULL apart from the string 'NULL'), sorted,
   * duplicates kept.
   */
  static List<String> multiset(List<Row> rows, List<String> columns) {
    return rows.stream().map(row -> columns.stream().map(column -> text(row.get(row.fieldIndex(column))))
        .collect(Collectors.joining(", ", "(", ")"))).sorted().collect(Collectors.toList());
  }

  /** What tells two multisets of rows apart: the rows (with their count) that one holds more often than the other. */
  static String difference(List<String> expected, List<String> actual) {
    Map<String, Integer> counts = new TreeMap<>();
    expected.forEach(row -> counts.merge(row, 1, Integer::sum));
    actual.forEach(row -> counts.merge(row, -1, Integer::sum));
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    counts.forEach((row, count) -> {
      if (count > 0) {
        missing.add(count + " x " + row);
      } else if (count < 0) {
        extra.add(-count + " x " + row);
      }
    });
    return String.format("%d rows expected, %d in the target; only in the query's result (%d): %s; only in the "
        + "target (%d): %s", expected.size(), actual.size(), missing.size(), first(missing), extra.size(), first(extra));
  }

  private static List<String> first(List<String> rows) {
    return rows.subList(0, Math.min(rows.size(), 12));
  }

  private static String text(Object value) {
    return value == null ? "NULL" : value instanceof String ? "'" + value + "'" : String.valueOf(value);
  }
}
