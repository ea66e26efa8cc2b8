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

import java.util.List;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * The one rule for whether values are few enough for a view's batch to list in an IN filter, which Spark pushes into a
 * table's scan ({@code max.listed.keys}): changed keys, the values changed rows join another table by, changed groups.
 * More values are matched by a semi-join instead, and a changed table whose keys are not listed reaches no table.
 * {@link ViewBatch} lists by it, and strategy AUTO's cost model estimates by it
 * ({@link ViewCost.TableChange#reachingIfListed}).
 */
public final class ListLimit {

  private final int maxValues;

  /**
   * @param maxValues the most values listed
   * @throws IllegalArgumentException if it is below 1
   */
  public ListLimit(int maxValues) {
    checkArgument(maxValues > 0, "A view lists at least one value in an IN filter");
    this.maxValues = maxValues;
  }

  /** Whether that many values are listed: at most the limit. */
  public boolean lists(long values) {
    return values <= maxValues;
  }

  /** The rows, if they are few enough to list; empty otherwise. Collects at most one row more than are listed. */
  Option<List<Row>> listed(Dataset<Row> rows) {
    List<Row> first = rows.limit(maxValues + 1).collectAsList();
    return lists(first.size()) ? Option.of(first) : Option.empty();
  }

  public int maxValues() {
    return maxValues;
  }
}
