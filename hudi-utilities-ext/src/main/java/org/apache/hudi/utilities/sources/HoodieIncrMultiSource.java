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

package org.apache.hudi.utilities.sources;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpointManager;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.schema.SchemaProvider;
import org.apache.hudi.utilities.sources.multi.IncrementalTableReader;
import org.apache.hudi.utilities.sources.multi.SourceTable;
import org.apache.hudi.utilities.sources.multi.TableBatch;
import org.apache.hudi.utilities.transform.MultiDatasetCarrier;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ConfigUtils.getBooleanWithAltKeys;
import static org.apache.hudi.common.util.ConfigUtils.getStringWithAltKeys;

/**
 * Reads several Hudi tables incrementally in one Streamer batch, each from its own position, and commits all
 * positions together in the target's checkpoint ({@code orders=20250606182826197,users=20250606182830145}).
 *
 * <p>Each table is read as {@link HoodieIncrSource} reads it, with per-table configs (see
 * {@link HoodieIncrMultiSourceConfig}). Every batch yields one dataset per configured table, in declaration order:
 * a table without new data yields an empty dataset with its current columns. When no table has new data, the batch
 * is empty and the checkpoint unchanged, so the Streamer skips the round without a commit.
 *
 * <p>The datasets travel to the transformer inside one {@link MultiDatasetCarrier}, which a
 * {@code MultiDatasetTransformer} (first in the transformer chain) splits. A carrier that reaches the writer unsplit
 * fails the round while the write schema is derived, before any commit is started.
 *
 * <p>The batch carries a {@link InputBatch.NullSchemaProvider}: the write schema comes from the transformer's output,
 * not from any one source.
 */
public class HoodieIncrMultiSource extends Source<Dataset<Row>> {

  private static final Logger LOG = LoggerFactory.getLogger(HoodieIncrMultiSource.class);

  private final List<SourceTable> tables;
  private final MultiTableCheckpointManager checkpoints;
  private final IncrementalTableReader reader;

  public HoodieIncrMultiSource(TypedProperties props, JavaSparkContext sparkContext, SparkSession sparkSession,
                               SchemaProvider schemaProvider) {
    super(props, sparkContext, sparkSession, schemaProvider, SourceType.ROW);
    this.tables = SourceTable.allFrom(props);
    List<String> names = tables.stream().map(SourceTable::name).collect(Collectors.toList());
    String legacyTable = getStringWithAltKeys(props, HoodieIncrMultiSourceConfig.CHECKPOINT_LEGACY_TABLE, names.get(0));
    this.checkpoints = new MultiTableCheckpointManager(names, legacyTable.trim(),
        getBooleanWithAltKeys(props, HoodieIncrMultiSourceConfig.CHECKPOINT_ENABLE));
    this.reader = new IncrementalTableReader(props, sparkContext, sparkSession);
  }

  @Override
  protected InputBatch<Dataset<Row>> fetchNewData(Option<String> lastCkptStr, long sourceLimit) {
    MultiTableCheckpoint previous = checkpoints.parse(lastCkptStr.orElse(null));
    List<TableBatch> batches = new ArrayList<>();
    MultiTableCheckpoint advanced = MultiTableCheckpoint.empty();
    for (SourceTable table : tables) {
      TableBatch batch = reader.read(table, previous.position(table.name()));
      batches.add(batch);
      if (batch.advancedTo().isPresent()) {
        advanced = advanced.withPosition(table.name(), batch.advancedTo().get());
      }
    }
    if (advanced.isEmpty()) {
      LOG.info("All {} tables are caught up at checkpoint '{}'; nothing to commit", tables.size(), lastCkptStr.orElse(""));
      return new InputBatch<>(Option.empty(), lastCkptStr.orElse(null));
    }
    String next = checkpoints.format(checkpoints.merge(previous, advanced));
    LOG.info("Read tables {} up to checkpoint '{}' (resumed from '{}')", advanced.tables(), next, lastCkptStr.orElse(""));
    Dataset<Row> carrier = MultiDatasetCarrier.pack(batches.stream().map(TableBatch::rows).collect(Collectors.toList()));
    return new InputBatch<>(Option.of(carrier), next, new InputBatch.NullSchemaProvider());
  }
}
