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
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.hudi014.MultiTableReader;
import org.apache.hudi.utilities.hudi014.RetentionGuard;
import org.apache.hudi.utilities.hudi014.StoredCheckpointReader;
import org.apache.hudi.utilities.ingestion.HoodieIngestionMetrics;
import org.apache.hudi.utilities.ingestion.IngestionMetricsWriteConfig;
import org.apache.hudi.utilities.schema.SchemaProvider;
import org.apache.hudi.utilities.sources.multi.TableBatch;
import org.apache.hudi.utilities.transform.CarrierManifest;
import org.apache.hudi.utilities.transform.MultiDatasetCarrier;
import org.apache.hudi.utilities.transform.ViewDefinitionFingerprint;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads several Hudi tables incrementally in one Streamer batch, each from its own position, and commits all
 * positions together in the target's checkpoint ({@code orders=20250606182826197,users=20250606182830145}).
 *
 * <p>Each table is read as {@link HoodieIncrSource} reads it, with per-table configs (see
 * {@link HoodieIncrMultiSourceConfig}). Every batch yields one dataset per configured table, in declaration order:
 * a table without new data yields an empty dataset with its current columns. When no table has new data, the batch
 * is empty and the checkpoint unchanged, so the Streamer skips the round without a commit.
 *
 * <p>Tables are planned and read up to {@code read.parallelism} at a time, with the results and checkpoint of reading
 * them one after another. With {@code alignment=COMMIT_TIME_CEILING}, every table's window ends at a shared commit-time
 * ceiling (see {@link org.apache.hudi.utilities.sources.multi.CommitTimeCeiling}).
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

  public static final String MALFORMED_ENTRIES_METRIC = "multi_table_checkpoint_malformed_entries";
  /** Tables whose batch was skipped on a schema failure ({@code skip.on.schema.failure}); the WARN names them. */
  public static final String SCHEMA_SKIPPED_TABLES_METRIC = "multi_table_schema_skipped_tables";

  private final MultiTableReadConf conf;
  private final List<SourceTable> tables;
  private final MultiTableReader tableReads;
  private final RetentionGuard retentionGuard;
  private final Option<HoodieIngestionMetrics> metrics;
  private long malformedEntries;

  public HoodieIncrMultiSource(TypedProperties props, JavaSparkContext sparkContext, SparkSession sparkSession,
                               SchemaProvider schemaProvider) {
    this(props, sparkContext, sparkSession, schemaProvider, Option.empty(), Clock.systemUTC());
  }

  /** The constructor the Streamer uses: its metrics also tell the source which target it feeds. */
  public HoodieIncrMultiSource(TypedProperties props, JavaSparkContext sparkContext, SparkSession sparkSession,
                               SchemaProvider schemaProvider, HoodieIngestionMetrics metrics) {
    this(props, sparkContext, sparkSession, schemaProvider, Option.ofNullable(metrics), Clock.systemUTC());
  }

  /** With the clock that decides when a quiet table stops holding the others under alignment. */
  HoodieIncrMultiSource(TypedProperties props, JavaSparkContext sparkContext, SparkSession sparkSession,
                        SchemaProvider schemaProvider, Option<HoodieIngestionMetrics> metrics, Clock clock) {
    super(props, sparkContext, sparkSession, schemaProvider, SourceType.ROW);
    this.conf = MultiTableReadConf.from(props);
    this.tables = conf.tables();
    this.tableReads = new MultiTableReader(props, conf, sparkContext, sparkSession, clock);
    this.retentionGuard = new RetentionGuard(conf);
    this.metrics = metrics;
  }

  @Override
  protected InputBatch<Dataset<Row>> fetchNewData(Option<String> lastCkptStr, long sourceLimit) {
    IncrMultiBatch batch = IncrMultiBatch.resume(conf, tableReads, lastCkptStr, this::storedCheckpoint,
        ViewDefinitionFingerprint.ofJob(sparkContext, sparkSession, props));
    int malformed = batch.resumePositions().malformedEntries();
    if (malformed > 0) {
      malformedEntries += malformed;
      publish(MALFORMED_ENTRIES_METRIC, malformedEntries);
    }
    batch.check(retentionGuard).forEach(this::publish);
    IncrMultiBatch.Outcome outcome = batch.read();
    publish(SCHEMA_SKIPPED_TABLES_METRIC, outcome.batches().stream().filter(TableBatch::skipped).count());
    if (outcome.caughtUp()) {
      LOG.info("All {} tables are caught up at checkpoint '{}'; nothing to commit", tables.size(), outcome.checkpoint());
      return new InputBatch<>(Option.empty(), lastCkptStr.orElse(null));
    }
    LOG.info("Read tables {} up to checkpoint '{}' (resumed from '{}')", outcome.advanced().tables(),
        outcome.checkpoint(), lastCkptStr.orElse(""));
    CarrierManifest manifest = target().map(outcome.manifest()::withTarget).orElse(outcome.manifest());
    Dataset<Row> carrier = MultiDatasetCarrier.pack(outcome.batches().stream().map(TableBatch::rows)
        .collect(Collectors.toList()), manifest);
    return new InputBatch<>(Option.of(carrier), outcome.checkpoint(), new InputBatch.NullSchemaProvider());
  }

  private Option<String> storedCheckpoint() {
    if (!metrics.isPresent()) {
      LOG.warn("The target of this source is unknown (no ingestion metrics); tables the resume string does not name "
          + "start from their missing.checkpoint.strategy");
      return Option.empty();
    }
    return new StoredCheckpointReader(sparkContext.hadoopConfiguration()).newest(target().get(),
        StoredCheckpointReader.UNBOUNDED).checkpoint();
  }

  /** The base path of the target this source feeds, known through the Streamer's ingestion metrics. */
  private Option<String> target() {
    return metrics.map(ingestion -> IngestionMetricsWriteConfig.of(ingestion).getBasePath());
  }

  private void publish(String metric, long value) {
    if (metrics.isPresent()) {
      metrics.get().updateStreamerSourceNewMessageCount(metric, value);
    }
  }
}
