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

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;

/**
 * Restricts a snapshot read to the keys of the delta it is joined with (see {@link DeltaKeyJoins}): the delta's
 * distinct non-null keys, when there are at most {@code maxKeys}, become {@code column IN (keys)} on the snapshot; a
 * delta with more keys gives {@code column >= min AND column <= max} of its keys instead (the key range). Spark pushes
 * either into the scan, where Hudi's data skipping (column stats) prunes files and Parquet's statistics prune row
 * groups, and still evaluates it on every row read. A key list is looked up in the table's index instead where the
 * caller's {@link KeyIndex} has one (the record-level index), which names the files that hold the keys. The keys of a delta column are collected once per batch, and
 * the delta is persisted as they are: the join, and every later evaluation of the batch's query, reads it from the
 * cache instead of from its files again ({@link #persistedDeltas()}, to unpersist once the batch is written).
 *
 * <p>Exact: a snapshot row the join matches has a key equal to one of the delta's non-null keys (null keys match
 * nothing), so it is in the list, and, for types that order and compare as the join does, in the range.
 */
public final class SnapshotKeyFilter {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotKeyFilter.class);

  private final SparkSession spark;
  private final int maxKeys;
  private final boolean keyRange;
  /** Per delta view and field: its keys, or their range when there are more than maxKeys. */
  private final Map<String, DeltaKeys> keysByDeltaField = new HashMap<>();

  /**
   * @param maxKeys  most distinct delta keys pushed into one snapshot read; 0 for no pushdown at all
   * @param keyRange whether a delta with more keys pushes their range
   */
  public SnapshotKeyFilter(SparkSession spark, int maxKeys, boolean keyRange) {
    this.spark = spark;
    this.maxKeys = maxKeys;
    this.keyRange = keyRange;
  }

  /** Reads the rows of a snapshot whose column holds one of given keys through an index of the table, where one applies. */
  @FunctionalInterface
  public interface KeyIndex {
    KeyIndex NONE = (column, keys) -> Option.empty();

    /**
     * @param column the snapshot's column, as its schema spells it
     * @param keys   distinct non-null values of the column's type
     * @return the snapshot's rows whose column holds one of the keys; empty if no index applies
     */
    Option<Dataset<Row>> rowsWithKeys(String column, List<Object> keys);
  }

  /**
   * @param index reads the snapshot by keys where the table has an index for them (see {@link KeyIndex})
   * @return the snapshot rows whose key is among the delta's keys (no rows if the delta has none), or within their
   *     range when the delta has more than {@code maxKeys} keys; empty, for the whole snapshot, when the pushdown is
   *     off, when the delta has more keys and the range is off, or when the two columns are not of one type that
   *     filters compare as the join does
   */
  public Option<Dataset<Row>> restrict(Dataset<Row> snapshot, DeltaKeyJoins.KeyJoin join, Dataset<Row> delta,
                                       KeyIndex index) {
    if (maxKeys == 0) {
      return Option.empty();
    }
    Option<StructField> snapshotField = fieldPath(snapshot.schema(), Collections.singletonList(join.snapshotColumn()))
        .map(SnapshotKeyFilter::last);
    Option<List<StructField>> deltaPath = fieldPath(delta.schema(), join.deltaField());
    Option<StructField> deltaField = deltaPath.map(SnapshotKeyFilter::last);
    if (!snapshotField.isPresent() || !deltaField.isPresent()
        || !snapshotField.get().dataType().equals(deltaField.get().dataType())
        || !comparesExactly(snapshotField.get().dataType())) {
      LOG.info("Reading snapshot of {} in full: no key pushdown for columns {} and {}", join, snapshotField, deltaField);
      return Option.empty();
    }
    List<String> deltaNames = deltaPath.get().stream().map(StructField::name).collect(Collectors.toList());
    DeltaKeys keys = keysByDeltaField.computeIfAbsent(join.deltaView() + "." + String.join(".", deltaNames),
        field -> deltaKeys(delta, quoted(deltaNames)));
    Column snapshotKey = quoted(Collections.singletonList(snapshotField.get().name()));
    if (keys.values.isPresent()) {
      LOG.info("Reading snapshot of {} for the delta's {} distinct keys", join, keys.values.get().size());
      if (keys.values.get().isEmpty()) {
        return Option.of(EmptyRows.of(spark, snapshot.schema()));
      }
      Option<Dataset<Row>> indexed = index.rowsWithKeys(snapshotField.get().name(), keys.values.get());
      return indexed.isPresent() ? indexed : Option.of(snapshot.filter(snapshotKey.isin(keys.values.get().toArray())));
    }
    if (!keyRange) {
      LOG.info("Reading snapshot of {} in full: the delta has more than {} distinct keys", join, maxKeys);
      return Option.empty();
    }
    LOG.info("Reading snapshot of {} for the range of the delta's more than {} distinct keys: {} to {}", join, maxKeys,
        keys.min, keys.max);
    return Option.of(snapshot.filter(snapshotKey.between(keys.min, keys.max)));
  }

  /**
   * One pass over the delta for at most maxKeys + 1 distinct keys; only a delta with more keys is read once more, for
   * their range, and only if the range is pushed.
   */
  private DeltaKeys deltaKeys(Dataset<Row> delta, Column key) {
    long start = System.nanoTime();
    if (delta.storageLevel().equals(StorageLevel.NONE())) {
      // The pass for the keys fills the cache: the join then reads the delta from it.
      delta.persist(StorageLevel.MEMORY_AND_DISK());
    }
    List<Row> rows = delta.select(key).where(key.isNotNull()).distinct().limit(maxKeys + 1).collectAsList();
    DeltaKeys keys;
    if (rows.size() <= maxKeys) {
      keys = new DeltaKeys(Option.of(rows.stream().map(row -> row.get(0)).collect(Collectors.toList())), null, null);
    } else if (keyRange) {
      Row range = delta.agg(min(key), max(key)).first();
      keys = new DeltaKeys(Option.empty(), range.get(0), range.get(1));
    } else {
      keys = new DeltaKeys(Option.empty(), null, null);
    }
    LOG.info("Collected the keys of delta column {} in {} ms", key, (System.nanoTime() - start) / 1_000_000);
    return keys;
  }

  /**
   * Types whose IN comparison matches the join's equality value for value, and whose order is the one their column
   * stats and Parquet statistics keep. Floating point is left out: a join normalizes -0.0 and NaN, a pushed-down filter
   * compares Parquet statistics.
   */
  private static boolean comparesExactly(DataType type) {
    return type.equals(DataTypes.StringType) || type.equals(DataTypes.IntegerType) || type.equals(DataTypes.LongType)
        || type.equals(DataTypes.ShortType) || type.equals(DataTypes.ByteType) || type instanceof DecimalType
        || type.equals(DataTypes.DateType) || type.equals(DataTypes.TimestampType);
  }

  /**
   * The fields along {@code path} (a column, then nested field names), matched without regard to case as Spark does,
   * as the schema spells them; empty if the path does not resolve.
   */
  private static Option<List<StructField>> fieldPath(StructType schema, List<String> path) {
    for (StructField field : schema.fields()) {
      if (field.name().toLowerCase(Locale.ROOT).equals(path.get(0).toLowerCase(Locale.ROOT))) {
        if (path.size() == 1) {
          return Option.of(Collections.singletonList(field));
        }
        if (!(field.dataType() instanceof StructType)) {
          return Option.empty();
        }
        return fieldPath((StructType) field.dataType(), path.subList(1, path.size())).map(rest -> {
          List<StructField> fields = new ArrayList<>();
          fields.add(field);
          fields.addAll(rest);
          return fields;
        });
      }
    }
    return Option.empty();
  }

  private static StructField last(List<StructField> fields) {
    return fields.get(fields.size() - 1);
  }

  private static Column quoted(List<String> path) {
    return col(path.stream().map(name -> "`" + name.replace("`", "``") + "`").collect(Collectors.joining(".")));
  }

  /** A delta field's distinct non-null keys, or, when there are more than maxKeys, their range (null if not taken). */
  private static final class DeltaKeys {
    private final Option<List<Object>> values;
    private final Object min;
    private final Object max;

    private DeltaKeys(Option<List<Object>> values, Object min, Object max) {
      this.values = values;
      this.min = min;
      this.max = max;
    }
  }
}
