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

package org.apache.hudi.utilities.transform;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.struct;

/**
 * Carries N datasets with unrelated schemas through the single {@code Dataset<Row>} that Hudi Streamer passes from
 * a source to its transformer.
 *
 * <p>Layout: the union of one branch per dataset, every branch with the schema
 * {@code (__multi_dataset_index int, __multi_dataset_guard <guard>, __multi_dataset_0 struct<...>, ...)}. Branch i
 * holds index i, its rows in slot i, and typed nulls in every other slot and in the guard. Splitting filters on the
 * index literal and expands slot i, which Spark's optimizer reduces to exactly the plan of dataset i: the union, the
 * other branches, the structs and the filter are removed at planning time, and filters and column pruning reach
 * each source's scan.
 *
 * <p>The carrier describes itself: it needs no registry, temp view or object identity, so it survives being
 * re-wrapped (field-name sanitization, error-table columns) between source and transformer.
 */
public final class MultiDatasetCarrier {

  static final String INDEX_COLUMN = "__multi_dataset_index";
  static final String GUARD_COLUMN = "__multi_dataset_guard";
  static final String SLOT_PREFIX = "__multi_dataset_";

  private MultiDatasetCarrier() {
  }

  /**
   * Packs datasets into one carrier.
   *
   * @param datasets at least one dataset, in the order {@link #unpack} returns them
   * @param manifest what the carrier tells about its batch, one table per dataset
   * @throws IllegalArgumentException if {@code datasets} is empty, or the manifest names another number of tables
   */
  public static Dataset<Row> pack(List<Dataset<Row>> datasets, CarrierManifest manifest) {
    if (manifest.tables().size() != datasets.size()) {
      throw new IllegalArgumentException(String.format("Cannot pack %d datasets with a manifest of %d tables %s",
          datasets.size(), manifest.tables().size(), manifest.tables()));
    }
    if (datasets.isEmpty()) {
      throw new IllegalArgumentException("Cannot pack an empty list of datasets into a multi-dataset carrier");
    }
    List<StructType> schemas = new ArrayList<>();
    datasets.forEach(dataset -> schemas.add(dataset.schema()));
    Dataset<Row> carrier = null;
    for (int index = 0; index < datasets.size(); index++) {
      List<Column> columns = new ArrayList<>();
      columns.add(lit(index).as(INDEX_COLUMN, manifest.toMetadata()));
      columns.add(lit(null).cast(new UnsplitMultiDatasetType()).as(GUARD_COLUMN));
      for (int slot = 0; slot < datasets.size(); slot++) {
        // A struct without fields cannot be encoded by Spark: a dataset without columns keeps a null slot.
        boolean holdsRows = slot == index && !schemas.get(slot).isEmpty();
        Column value = holdsRows ? struct(allColumns(schemas.get(slot))) : lit(null).cast(schemas.get(slot));
        columns.add(value.as(slotColumn(slot)));
      }
      Dataset<Row> branch = datasets.get(index).select(columns.toArray(new Column[0]));
      carrier = carrier == null ? branch : carrier.union(branch);
    }
    return carrier;
  }

  /** Whether a dataset is a carrier built by {@link #pack}. */
  public static boolean isCarrier(Dataset<Row> dataset) {
    StructType schema = dataset.schema();
    return Arrays.asList(schema.fieldNames()).contains(GUARD_COLUMN)
        && schema.apply(GUARD_COLUMN).dataType() instanceof UnsplitMultiDatasetType;
  }

  /**
   * Splits a carrier back into its datasets, in packing order, each with its original columns, with its manifest.
   *
   * @throws IllegalArgumentException if {@code carrier} is not a carrier
   */
  public static MultiDatasetBatch unpack(Dataset<Row> carrier) {
    if (!isCarrier(carrier)) {
      throw new IllegalArgumentException("Cannot unpack a dataset that is not a multi-dataset carrier; its columns are "
          + Arrays.toString(carrier.columns()));
    }
    List<Dataset<Row>> datasets = new ArrayList<>();
    StructType schema = carrier.schema();
    List<String> columns = Arrays.asList(schema.fieldNames());
    boolean oneSlot = !columns.contains(slotColumn(1));
    for (int slot = 0; columns.contains(slotColumn(slot)); slot++) {
      // A carrier of one dataset holds only that dataset's rows: no filter to plan.
      Dataset<Row> rowsOfSlot = oneSlot ? carrier : carrier.filter(col(INDEX_COLUMN).equalTo(lit(slot)));
      StructType slotType = (StructType) schema.apply(slotColumn(slot)).dataType();
      datasets.add(slotType.isEmpty() ? rowsOfSlot.select() : rowsOfSlot.select(col(slotColumn(slot) + ".*")));
    }
    return new MultiDatasetBatch(datasets, CarrierManifest.fromMetadata(schema.apply(INDEX_COLUMN).metadata()));
  }

  static String slotColumn(int slot) {
    return SLOT_PREFIX + slot;
  }

  private static Column[] allColumns(StructType schema) {
    return Arrays.stream(schema.fields()).map(MultiDatasetCarrier::quoted).toArray(Column[]::new);
  }

  private static Column quoted(StructField field) {
    return col("`" + field.name().replace("`", "``") + "`");
  }
}
