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

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hudi.common.util.Option;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.apache.spark.sql.functions.col;

/**
 * Restricts a snapshot read to the keys of the delta it is joined with (see {@link DeltaKeyJoins}): the delta's
 * distinct non-null keys, when there are at most {@code maxKeys}, become {@code column IN (keys)} on the snapshot, a
 * filter that Spark pushes into the scan, where Hudi's data skipping (column stats) prunes files and Parquet's
 * statistics prune row groups. The keys of a delta column are collected once per batch.
 */
public final class SnapshotKeyFilter {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotKeyFilter.class);

  private final SparkSession spark;
  private final int maxKeys;
  /** Per delta view and column: its distinct keys, or empty when there are more than maxKeys. */
  private final Map<String, Option<List<Object>>> keysByDeltaColumn = new HashMap<>();

  /**
   * @param maxKeys most distinct delta keys pushed into one snapshot read; 0 for none
   */
  public SnapshotKeyFilter(SparkSession spark, int maxKeys) {
    this.spark = spark;
    this.maxKeys = maxKeys;
  }

  /**
   * @return the snapshot rows whose key is among the delta's keys (no rows if the delta has none); empty, for the
   *     whole snapshot, when the delta has more than {@code maxKeys} keys, or when the two columns are not of one type
   *     that filters compare as the join does
   */
  public Option<Dataset<Row>> restrict(Dataset<Row> snapshot, DeltaKeyJoins.KeyJoin join, Dataset<Row> delta) {
    if (maxKeys == 0) {
      return Option.empty();
    }
    Option<StructField> snapshotField = field(snapshot, join.snapshotColumn());
    Option<StructField> deltaField = field(delta, join.deltaColumn());
    if (!snapshotField.isPresent() || !deltaField.isPresent()
        || !snapshotField.get().dataType().equals(deltaField.get().dataType())
        || !comparesExactly(snapshotField.get().dataType())) {
      LOG.info("Reading snapshot of {} in full: no key pushdown for columns {} and {}", join, snapshotField, deltaField);
      return Option.empty();
    }
    Option<List<Object>> keys = keysByDeltaColumn.computeIfAbsent(join.deltaView() + "." + deltaField.get().name(),
        column -> distinctKeys(delta, deltaField.get().name()));
    if (!keys.isPresent()) {
      LOG.info("Reading snapshot of {} in full: the delta has more than {} distinct keys", join, maxKeys);
      return Option.empty();
    }
    LOG.info("Reading snapshot of {} for the delta's {} distinct keys", join, keys.get().size());
    if (keys.get().isEmpty()) {
      // Not a provably empty relation: Spark 3.4 can mis-bind union columns after pruning one (see the source reader).
      return Option.of(spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).<Row>emptyRDD(),
          snapshot.schema()));
    }
    return Option.of(snapshot.filter(quoted(snapshotField.get().name()).isin(keys.get().toArray())));
  }

  private Option<List<Object>> distinctKeys(Dataset<Row> delta, String column) {
    List<Row> rows = delta.select(quoted(column)).where(quoted(column).isNotNull()).distinct().limit(maxKeys + 1)
        .collectAsList();
    return rows.size() > maxKeys ? Option.empty()
        : Option.of(rows.stream().map(row -> row.get(0)).collect(Collectors.toList()));
  }

  /**
   * Types whose IN comparison matches the join's equality value for value. Floating point is left out: a join
   * normalizes -0.0 and NaN, a pushed-down filter compares Parquet statistics.
   */
  private static boolean comparesExactly(DataType type) {
    return type.equals(DataTypes.StringType) || type.equals(DataTypes.IntegerType) || type.equals(DataTypes.LongType)
        || type.equals(DataTypes.ShortType) || type.equals(DataTypes.ByteType) || type instanceof DecimalType
        || type.equals(DataTypes.DateType) || type.equals(DataTypes.TimestampType);
  }

  private static Option<StructField> field(Dataset<Row> dataset, String column) {
    for (StructField field : dataset.schema().fields()) {
      if (field.name().toLowerCase(Locale.ROOT).equals(column.toLowerCase(Locale.ROOT))) {
        return Option.of(field);
      }
    }
    return Option.empty();
  }

  private static Column quoted(String column) {
    return col("`" + column.replace("`", "``") + "`");
  }
}
