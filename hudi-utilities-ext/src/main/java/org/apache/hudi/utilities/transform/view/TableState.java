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

import org.apache.hudi.common.util.Option;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * One table of a view in one batch: its state before the batch and the state the batch commits (the table's columns,
 * no Hudi meta columns), and the record keys that differ between the two (inserted, updated or deleted), if any may;
 * where the batch's delta holds them (a CDC delta's before and after images), also the rows of those keys in each state.
 */
public final class TableState {

  private final Dataset<Row> previous;
  private final Dataset<Row> current;
  private final Option<Dataset<Row>> changedKeys;
  private final Option<Dataset<Row>> changedRowsBefore;
  private final Option<Dataset<Row>> changedRowsAfter;

  /**
   * @param changedKeys the distinct record keys changed in the batch (the table's record key columns); empty when the
   *                    batch reads no commit of the table
   */
  public TableState(Dataset<Row> previous, Dataset<Row> current, Option<Dataset<Row>> changedKeys) {
    this(previous, current, changedKeys, Option.empty(), Option.empty());
  }

  private TableState(Dataset<Row> previous, Dataset<Row> current, Option<Dataset<Row>> changedKeys,
                     Option<Dataset<Row>> changedRowsBefore, Option<Dataset<Row>> changedRowsAfter) {
    this.previous = previous;
    this.current = current;
    this.changedKeys = changedKeys;
    this.changedRowsBefore = changedRowsBefore;
    this.changedRowsAfter = changedRowsAfter;
  }

  /**
   * This state with the changed keys' rows as of each state, read from the delta rather than from the states.
   *
   * @param before the rows of the changed keys in {@link #previous()} (none for a key inserted in the batch), its columns
   * @param after  the rows of the changed keys in {@link #current()} (none for a key deleted in the batch), its columns
   */
  public TableState withChangedRows(Dataset<Row> before, Dataset<Row> after) {
    return new TableState(previous, current, changedKeys, Option.of(before), Option.of(after));
  }

  public Dataset<Row> previous() {
    return previous;
  }

  public Dataset<Row> current() {
    return current;
  }

  public Option<Dataset<Row>> changedKeys() {
    return changedKeys;
  }

  /** The changed keys' rows as of the previous state, where the delta holds them. */
  public Option<Dataset<Row>> changedRowsBefore() {
    return changedRowsBefore;
  }

  /** The changed keys' rows as of the current state, where the delta holds them. */
  public Option<Dataset<Row>> changedRowsAfter() {
    return changedRowsAfter;
  }
}
