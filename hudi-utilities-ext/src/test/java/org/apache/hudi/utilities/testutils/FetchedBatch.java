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

package org.apache.hudi.utilities.testutils;

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.sources.InputBatch;
import org.apache.hudi.utilities.sources.Source;
import org.apache.hudi.utilities.transform.CarrierManifest;
import org.apache.hudi.utilities.transform.MultiDatasetBatch;
import org.apache.hudi.utilities.transform.MultiDatasetCarrier;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;

/**
 * What one fetch of {@code HoodieIncrMultiSource} returned, reduced to comparable values: the next checkpoint, the
 * rows read from each table ({@code <tableName>:<key>:<ts>}, sorted; the key is the table's first data column) and the
 * carrier manifest's next positions.
 */
public final class FetchedBatch {

  private final String checkpoint;
  private final List<String> rows;
  private final Map<String, String> nextPositions;

  private FetchedBatch(String checkpoint, List<String> rows, Map<String, String> nextPositions) {
    this.checkpoint = checkpoint;
    this.rows = rows;
    this.nextPositions = nextPositions;
  }

  /** Fetches one batch from a multi-table source resuming from {@code checkpoint} (empty for none). */
  public static FetchedBatch fetch(Source<Dataset<Row>> source, String checkpoint) {
    InputBatch<Dataset<Row>> batch = source.fetchNext(checkpoint.isEmpty() ? Option.empty() : Option.of(checkpoint),
        Long.MAX_VALUE);
    if (!batch.getBatch().isPresent()) {
      return new FetchedBatch(batch.getCheckpointForNextBatch(), List.of(), Map.of());
    }
    MultiDatasetBatch split = MultiDatasetCarrier.unpack(batch.getBatch().get());
    CarrierManifest manifest = split.manifest().get();
    List<String> rows = new ArrayList<>();
    Map<String, String> nextPositions = new TreeMap<>();
    for (int i = 0; i < manifest.tables().size(); i++) {
      String table = manifest.tables().get(i);
      Dataset<Row> dataset = split.datasets().get(i);
      Option<String> key = Option.fromJavaOptional(
          Arrays.stream(dataset.columns()).filter(column -> !column.startsWith("_hoodie")).findFirst());
      if (key.isPresent()) {
        dataset.select(concat(lit(table + ":"), col(key.get()), lit(":"), col("ts"))).collectAsList()
            .forEach(row -> rows.add(row.getString(0)));
      }
      manifest.nextPosition(table).ifPresent(position -> nextPositions.put(table, position));
    }
    return new FetchedBatch(batch.getCheckpointForNextBatch(), rows.stream().sorted().collect(Collectors.toList()),
        nextPositions);
  }

  /** The checkpoint the Streamer would commit (or, for a skipped round, the one it resumed from). */
  public String checkpoint() {
    return checkpoint;
  }

  public List<String> rows() {
    return rows;
  }

  /** The manifest's next positions, in the checkpoint's form; empty when the round is skipped. */
  public Option<String> manifestPositions() {
    return nextPositions.isEmpty() ? Option.empty() : Option.of(nextPositions.entrySet().stream()
        .map(position -> position.getKey() + "=" + position.getValue()).collect(Collectors.joining(",")));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FetchedBatch && checkpoint.equals(((FetchedBatch) other).checkpoint)
        && rows.equals(((FetchedBatch) other).rows) && nextPositions.equals(((FetchedBatch) other).nextPositions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(checkpoint, rows, nextPositions);
  }

  @Override
  public String toString() {
    return checkpoint + " " + rows;
  }
}
