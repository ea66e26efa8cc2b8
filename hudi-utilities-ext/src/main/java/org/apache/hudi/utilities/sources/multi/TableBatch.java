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

package org.apache.hudi.utilities.sources.multi;

import org.apache.hudi.common.util.Option;
import org.apache.hudi.util.Lazy;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import java.util.List;
import java.util.function.Supplier;

/**
 * What one batch read from one source table: its rows and, if the read moved the table forward, the new position.
 */
public final class TableBatch {

  private final String table;
  private final Lazy<Dataset<Row>> rows;
  private final Option<String> advancedTo;
  private final boolean skipped;

  public TableBatch(String table, Dataset<Row> rows, Option<String> advancedTo, boolean skipped) {
    this(table, Lazy.eagerly(rows), advancedTo, skipped);
  }

  private TableBatch(String table, Lazy<Dataset<Row>> rows, Option<String> advancedTo, boolean skipped) {
    this.table = table;
    this.rows = rows;
    this.advancedTo = advancedTo;
    this.skipped = skipped;
  }

  /**
   * A table with nothing new, whose empty rows (with its current columns) are only made if some table of the batch has
   * rows: a batch in which every table is caught up commits nothing and needs none.
   */
  public static TableBatch nothingNew(String table, Supplier<Dataset<Row>> emptyRows) {
    return new TableBatch(table, Lazy.lazily(emptyRows), Option.empty(), false);
  }

  /** This batch with the table held at {@code position}: it read nothing, but takes a position it had none of. */
  public TableBatch heldAt(String position) {
    return new TableBatch(table, rows, Option.of(position), skipped);
  }

  public String table() {
    return table;
  }

  /** The rows read; empty, with the table's current columns, when the table has nothing new. */
  public Dataset<Row> rows() {
    return rows.get();
  }

  /**
   * The inclusive instant this read consumed the table up to, or empty if the read did not move the table
   * (caught up, or skipped), in which case the table keeps its previous position.
   */
  public Option<String> advancedTo() {
    return advancedTo;
  }

  /** Whether the table could not be read and was skipped, as its skip.on.schema.failure allows. */
  public boolean skipped() {
    return skipped;
  }

  /** The positions a batch's reads moved their tables to; a table that did not move is absent. */
  public static MultiTableCheckpoint advancedPositions(List<TableBatch> batches) {
    MultiTableCheckpoint advanced = MultiTableCheckpoint.empty();
    for (TableBatch batch : batches) {
      if (batch.advancedTo().isPresent()) {
        advanced = advanced.withPosition(batch.table(), batch.advancedTo().get());
      }
    }
    return advanced;
  }
}
