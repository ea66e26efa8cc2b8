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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.AvroConversionUtils;
import org.apache.hudi.avro.HoodieAvroUtils;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieRecord.HoodieRecordType;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.timeline.TimelineUtils.HollowCommitHandling;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.ReflectionUtils;
import org.apache.hudi.common.util.StringUtils;
import org.apache.hudi.common.util.collection.Pair;
import org.apache.hudi.sync.common.model.PartitionValueExtractor;
import org.apache.hudi.utilities.config.DeltaFormat;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.config.HoodieIncrSourceConfig;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.exception.HoodieReadFromSourceException;
import org.apache.hudi.utilities.sources.HoodieIncrSource;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper.MissingCheckpointStrategy;
import org.apache.hudi.utilities.sources.multi.TableBatch;
import org.apache.hudi.utilities.sources.multi.TableWindow;
import org.apache.hudi.utilities.sources.multi.WindowReadability;
import org.apache.hudi.utilities.transform.sql.EmptyRows;

import org.apache.avro.Schema;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

import static org.apache.hudi.common.model.HoodieRecord.PARTITION_PATH_METADATA_FIELD;
import static org.apache.hudi.common.util.ConfigUtils.getBooleanWithAltKeys;
import static org.apache.hudi.common.util.ConfigUtils.removeConfigFromProps;
import static org.apache.hudi.utilities.UtilHelpers.createRecordMerger;
import static org.apache.hudi.utilities.sources.SnapshotLoadQuerySplitter.Config.SNAPSHOT_LOAD_QUERY_SPLITTER_CLASS_NAME;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.udf;

/**
 * Reads one source table incrementally, with the rows, columns and end the stock {@link HoodieIncrSource} reads: a
 * copy-on-write window after a position from the files its commits wrote ({@link WindowFileScan}, which reads them as
 * Hudi's incremental relation does); any other read is delegated to a {@link HoodieIncrSource} configured for that
 * table, with the same planning of begin and end instants, missing-checkpoint strategies, hollow-commit policy and
 * meta-column handling.
 *
 * <p>What it adds: a table without new data still yields a dataset, empty, with the columns a read of its latest
 * commit has (cached while that commit stays the latest); the optional partition columns of
 * {@link SourceTable#partitionFields()}; and a copy-on-write read through the stock source has its scan planned in the
 * reading thread ({@link PlannedScan}). It reads the table's {@link SourceTimeline} of the batch, never its own.
 */
final class IncrementalTableReader {

  private static final Logger LOG = LoggerFactory.getLogger(IncrementalTableReader.class);

  private final TypedProperties jobProps;
  private final JavaSparkContext jsc;
  private final SparkSession spark;
  private final HollowCommitHandling hollowCommits;
  private final ChangeDataReader changes;
  private final Set<String> droppedMetaColumns;
  private final WindowFileScan fileScan;
  /** Per table: its latest commit when its schema was last resolved, and the columns of a read at that commit. */
  private final Map<String, Pair<String, StructType>> latestTableColumns = new ConcurrentHashMap<>();
  /** Per table: the latest commit when its columns were last resolved, and those columns. */
  private final Map<String, Pair<String, StructType>> caughtUpColumns = new ConcurrentHashMap<>();

  IncrementalTableReader(TypedProperties jobProps, JavaSparkContext jsc, SparkSession spark,
                         HollowCommitHandling hollowCommits) {
    this.jobProps = jobProps;
    this.jsc = jsc;
    this.spark = spark;
    this.hollowCommits = hollowCommits;
    this.changes = new ChangeDataReader(spark);
    this.droppedMetaColumns = droppedMetaColumns(jobProps);
    this.fileScan = new WindowFileScan(spark, hollowCommits, droppedMetaColumns);
  }

  /**
   * The meta columns the stock source drops from what it reads: all but the partition path, or all of them if so
   * configured or if records are merged by Spark's merger.
   */
  private static Set<String> droppedMetaColumns(TypedProperties jobProps) {
    Set<String> dropped = new HashSet<>(HoodieRecord.HOODIE_META_COLUMNS);
    if (!getBooleanWithAltKeys(jobProps, HoodieIncrSourceConfig.HOODIE_DROP_ALL_META_FIELDS_FROM_SOURCE)
        && createRecordMerger(jobProps).getRecordType() != HoodieRecordType.SPARK) {
      dropped.remove(PARTITION_PATH_METADATA_FIELD);
    }
    return Collections.unmodifiableSet(dropped);
  }

  /**
   * Reads what is new in a table after its position, as far as its num_instants allows.
   *
   * @param timeline the table's timeline of this batch; empty if its path holds no Hudi table
   * @param position the inclusive instant the table was consumed up to, or empty to start from the table's
   *                 missing-checkpoint strategy
   * @throws HoodieReadFromSourceException if the table is not a Hudi table or its schema cannot be resolved (no
   *     completed commit), unless the table skips on schema failure
   */
  TableBatch read(SourceTable table, Option<SourceTimeline> timeline, Option<String> position) {
    if (!timeline.isPresent()) {
      return skippedOrFail(table, notAHudiTable(table));
    }
    if (position.isPresent() && isCaughtUp(timeline.get(), position.get())) {
      return withoutNewData(table, timeline.get(), position);
    }
    return read(table, timeline.get(), position, table.numInstants(),
        numInstants -> stockSource(table, numInstants, table.missingCheckpointStrategy(), Option.empty()));
  }

  /**
   * Reads exactly the commits of a planned window (see {@link WindowPlanner}), which alignment may have cut short: no
   * more, even if the table committed more since it was planned, so the table's new position is at most the window's
   * end.
   *
   * <p>An empty window reads nothing and keeps the table's position; a table without a position then takes the
   * window's start as its position, so that a table held back on its first batch is not moved on by its
   * missing-checkpoint strategy in the next one (READ_LATEST would skip the commits it waited for).
   *
   * @throws HoodieReadFromSourceException as {@link #read(SourceTable, Option, Option)}
   */
  TableBatch read(SourceTable table, Option<SourceTimeline> timeline, TableWindow window) {
    if (!timeline.isPresent()) {
      return skippedOrFail(table, notAHudiTable(table));
    }
    if (table.deltaFormat() == DeltaFormat.CDC) {
      return readChanges(table, timeline.get(), window);
    }
    if (window.hasNewCommits()) {
      // num_instants bounds an incremental read; a snapshot read (which the stock source may also choose at read time,
      // if the position was archived meanwhile) ends where the splitter says.
      return read(table, timeline.get(), window.position(), window.instants().size(), numInstants -> stockSource(table,
          numInstants, table.missingCheckpointStrategy(), window.end()));
    }
    TableBatch nothingNew = withoutNewData(table, timeline.get(), window.position());
    if (nothingNew.skipped() || window.position().isPresent()) {
      return nothingNew;
    }
    LOG.info("Table '{}': waits for a later batch at {}", table.name(), window.fromExclusive());
    return nothingNew.heldAt(window.fromExclusive());
  }

  /** The window's net changes ({@link DeltaFormat#CDC}); the positions move as with the latest-state delta. */
  private TableBatch readChanges(SourceTable table, SourceTimeline timeline, TableWindow window) {
    ChangeDataReader.checkEnabled(table, timeline.metaClient().getTableConfig());
    if (!timeline.latestCompletedInstant().isPresent()) {
      return skippedOrFail(table, noCompletedCommit(table));
    }
    StructType imageColumns = changes.imageColumns(table, timeline);
    if (window.hasNewCommits()) {
      LOG.info("Table '{}': read the changes after {} up to {}", table.name(), window.fromExclusive(), window.end().get());
      return new TableBatch(table.name(), changes.read(table, timeline, window, imageColumns), window.end(), false);
    }
    LOG.info("Table '{}': no changes after {}", table.name(), window.fromExclusive());
    Dataset<Row> none = EmptyRows.of(spark, ChangeDataReader.deltaColumns(imageColumns));
    return new TableBatch(table.name(), none,
        window.position().isPresent() ? Option.empty() : Option.of(window.fromExclusive()), false);
  }

  /**
   * Reads at most {@code numInstants} commits after the position: from the window's files where they hold exactly the
   * stock read's rows ({@link WindowFileScan}), otherwise through the stock source. The window ends before a commit
   * whose file its writer is still writing ({@link #writtenInstants}).
   */
  private TableBatch read(SourceTable table, SourceTimeline timeline, Option<String> position, int numInstants,
                          IntFunction<HoodieIncrSource> source) {
    position.ifPresent(instant -> checkNotBehindArchive(table, timeline, instant));
    int written = writtenInstants(table, timeline, position, numInstants);
    if (written == 0) {
      return withoutNewData(table, timeline, position);
    }
    WindowFileScan.Outcome files = position.isPresent()
        ? fileScan.read(timeline, position.get(), written, () -> latestTableColumnsIfResolvable(table, timeline))
        : WindowFileScan.Outcome.stockRead("no position, so the missing-checkpoint strategy plans the read");
    if (files.rowsAndEnd().isPresent()) {
      String end = files.rowsAndEnd().get().getRight();
      LOG.info("Table '{}': read instants after {} up to {} {}", table.name(), position.get(), end, files.how());
      return readRows(table, timeline, position, end, files.rowsAndEnd().get().getLeft());
    }
    // The stock read plans from its own listing, which may hold a newer commit whose file is being written.
    Pair<Option<Dataset<Row>>, String> read = CompletedInstantReader.retryingHudisRead("The stock read of table '"
        + table.name() + "'", () -> {
          Pair<Option<Dataset<Row>>, String> fetched = source.apply(written).fetchNextBatch(position, Long.MAX_VALUE);
          return Pair.of(fetched.getLeft().map(rows -> PlannedScan.planNow(spark, rows)), fetched.getRight());
        });
    if (read.getLeft().isPresent()) {
      LOG.info("Table '{}': read instants after {} up to {} {}", table.name(), position.orElse("<none>"), read.getRight(),
          files.how());
      return readRows(table, timeline, position, read.getRight(), read.getLeft().get());
    }
    return withoutNewData(table, timeline, position);
  }

  /**
   * How many of the {@code numInstants} commits an incremental read would take may be read in this batch: those
   * before the first whose file is still being written, which Hudi's incremental relation would read as a commit
   * without files. A read from no position under READ_LATEST reads the latest commit, checked likewise; a snapshot
   * read (READ_UPTO_LATEST_COMMIT, or a position before the active timeline) lists files, not commit metadata, and is
   * not cut. Under USE_TRANSITION_TIME positions are completion times, which only the stock planning compares.
   *
   * @return the number of commits to read (for a snapshot read, {@code numInstants}); 0 if the first one is still
   *     being written
   */
  private int writtenInstants(SourceTable table, SourceTimeline timeline, Option<String> position, int numInstants) {
    if (hollowCommits == HollowCommitHandling.USE_TRANSITION_TIME) {
      return numInstants;
    }
    HoodieTimeline readable = timeline.readableCommits(hollowCommits);
    List<HoodieInstant> window;
    if (position.isPresent()) {
      window = readable.isBeforeTimelineStarts(position.get()) ? Collections.emptyList()
          : readable.findInstantsAfter(position.get(), numInstants).getInstants();
    } else if (table.missingCheckpointStrategy() == MissingCheckpointStrategy.READ_LATEST) {
      window = readable.lastInstant().map(Collections::singletonList).orElse(Collections.emptyList());
    } else {
      window = Collections.emptyList();
    }
    // The stock read lists the timeline again: bounded to the commits checked here, it reads none checked by no one.
    return window.isEmpty() ? numInstants : timeline.writtenPrefix(window);
  }

  private TableBatch readRows(SourceTable table, SourceTimeline timeline, Option<String> position, String end,
                              Dataset<Row> read) {
    Dataset<Row> rows = withPartitionFields(table, read);
    keepColumnsIfCaughtUp(table, timeline, position, end, rows);
    return new TableBatch(table.name(), rows, Option.of(end), false);
  }

  /**
   * An incremental read that ends at the table's latest commit has the columns a read of that commit has (both take
   * the table's latest schema, through the same stock source settings): kept for the batch that finds the table caught
   * up there, which then resolves nothing. A snapshot read (no position, or one before the active timeline) is not
   * kept: its columns' metadata differs from an incremental read's.
   */
  private void keepColumnsIfCaughtUp(SourceTable table, SourceTimeline timeline, Option<String> position, String end,
                                     Dataset<Row> rows) {
    boolean incremental = position.isPresent() && !timeline.completedCommits().isBeforeTimelineStarts(position.get());
    if (incremental && timeline.latestCompletedInstant().map(end::equals).orElse(false)) {
      caughtUpColumns.put(table.name(), Pair.of(end, rows.schema()));
    }
  }

  /**
   * Whether nothing is readable after the position, as the stock source would find: then its read (and the timeline
   * load it makes) is skipped. Under USE_TRANSITION_TIME positions are completion times, which only the stock
   * planning compares.
   */
  private boolean isCaughtUp(SourceTimeline timeline, String position) {
    return hollowCommits != HollowCommitHandling.USE_TRANSITION_TIME
        && timeline.readableCommits(hollowCommits).findInstantsAfter(position, 1).empty();
  }

  /**
   * An empty dataset with the columns of a stock read of the latest commit, so SQL over it resolves as with data. It is
   * made only if the batch has rows in some table; its columns are resolved once per latest commit of the table.
   */
  private TableBatch withoutNewData(SourceTable table, SourceTimeline timeline, Option<String> position) {
    LOG.info("Table '{}': nothing new after {}", table.name(), position.orElse("<none>"));
    Option<String> latest = timeline.latestCompletedInstant();
    if (!latest.isPresent()) {
      return skippedOrFail(table, noCompletedCommit(table));
    }
    return TableBatch.nothingNew(table.name(),
        () -> EmptyRows.of(spark, columnsAt(table, timeline, latest.get())));
  }

  /**
   * The columns a stock read of the table has at its latest commit: the meta columns the stock source keeps and the
   * table's latest schema ({@link #latestTableColumns}), then the partition fields. Made lazily, in the thread that
   * packs the batch, with the batch's timeline. A MERGE_ON_READ table written with
   * {@code hoodie.allow.operation.metadata.field=true} is read with a {@code _hoodie_operation} column that these
   * columns lack.
   */
  private StructType columnsAt(SourceTable table, SourceTimeline timeline, String latest) {
    Pair<String, StructType> cached = caughtUpColumns.get(table.name());
    if (cached != null && cached.getLeft().equals(latest)) {
      return cached.getRight();
    }
    StructType tableColumns;
    try {
      tableColumns = latestTableColumns(table, timeline);
    } catch (Exception e) {
      String problem = String.format("Cannot resolve the schema of table '%s' at %s at its latest commit %s",
          table.name(), table.path(), latest);
      if (!table.skipOnSchemaFailure()) {
        throw new HoodieReadFromSourceException(problem + ". Nothing was committed.", e);
      }
      LOG.warn("{}; it gets an empty dataset without columns (skip.on.schema.failure)", problem, e);
      return new StructType();
    }
    StructType read = new StructType(Arrays.stream(tableColumns.fields())
        .filter(field -> !droppedMetaColumns.contains(field.name())).toArray(StructField[]::new));
    StructType columns = withPartitionFields(table, EmptyRows.of(spark, read)).schema();
    caughtUpColumns.put(table.name(), Pair.of(latest, columns));
    return columns;
  }

  /**
   * The columns of Hudi's incremental relation over the table at its latest commit: the five meta columns, then the
   * table's latest schema as Hudi's {@link TableSchemaResolver} takes it: from the latest commit's metadata (one read,
   * through the batch's {@link SourceTimeline#writtenCommitMetadata}, where a stock read of that commit builds a meta
   * client and a relation). The resolver itself decides where that metadata holds no schema or the table drops its
   * partition columns from its files. Kept while that commit stays the latest.
   *
   * @throws Exception what the resolver throws if the schema cannot be resolved
   */
  private StructType latestTableColumns(SourceTable table, SourceTimeline timeline) throws Exception {
    Option<String> latest = timeline.latestCompletedInstant();
    Pair<String, StructType> cached = latestTableColumns.get(table.name());
    if (cached != null && latest.isPresent() && cached.getLeft().equals(latest.get())) {
      return cached.getRight();
    }
    // Read through the batch's reader: Hudi's resolver would fail on a commit file its writer is still writing.
    Option<String> latestSchema = timeline.completedCommits().lastInstant().flatMap(timeline::writtenCommitMetadata)
        .flatMap(metadata -> Option.ofNullable(StringUtils.emptyToNull(metadata.getMetadata(HoodieCommitMetadata.SCHEMA_KEY))));
    Schema schema = latestSchema.isPresent() && !timeline.metaClient().getTableConfig().shouldDropPartitionColumns()
        ? new Schema.Parser().parse(latestSchema.get())
        : new TableSchemaResolver(timeline.metaClient()).getTableAvroSchema(false);
    // The five meta fields of Hudi's incremental relation: asked for them, the resolver would also open a data file to
    // learn whether the table has the operation field.
    StructType columns = AvroConversionUtils.convertAvroSchemaToStructType(HoodieAvroUtils.addMetadataFields(schema,
        false));
    latest.ifPresent(instant -> latestTableColumns.put(table.name(), Pair.of(instant, columns)));
    return columns;
  }

  /** {@link #latestTableColumns}, or empty if they cannot be resolved: the stock read then reports why. */
  private Option<StructType> latestTableColumnsIfResolvable(SourceTable table, SourceTimeline timeline) {
    try {
      return Option.of(latestTableColumns(table, timeline));
    } catch (Exception e) {
      LOG.info("Cannot resolve the schema of table '{}' from its latest commit ({})", table.name(), e.toString());
      return Option.empty();
    }
  }

  private TableBatch skippedOrFail(SourceTable table, String problem) {
    if (!table.skipOnSchemaFailure()) {
      throw new HoodieReadFromSourceException(problem + ". Nothing was committed. Fix the table or its path, remove it "
          + "from the table list, or set its skip.on.schema.failure to give it an empty dataset without columns (and "
          + "keep its position) until it can be read.");
    }
    LOG.warn("{}; skipping it: it gets an empty dataset without columns and keeps its position (skip.on.schema.failure)",
        problem);
    return new TableBatch(table.name(), EmptyRows.of(spark, new StructType()), Option.empty(), true);
  }

  private HoodieIncrSource stockSource(SourceTable table, int numInstants, MissingCheckpointStrategy strategy,
                                       Option<String> snapshotEnd) {
    TypedProperties props = new TypedProperties();
    props.putAll(jobProps);
    // The per-table strategy decides; the deprecated job-wide flag would override it for every table.
    removeConfigFromProps(props, HoodieIncrSourceConfig.READ_LATEST_INSTANT_ON_MISSING_CKPT);
    props.setProperty(HoodieIncrSourceConfig.HOODIE_SRC_BASE_PATH.key(), table.path());
    props.setProperty(HoodieIncrSourceConfig.NUM_INSTANTS_PER_FETCH.key(), String.valueOf(numInstants));
    props.setProperty(HoodieIncrSourceConfig.MISSING_CHECKPOINT_STRATEGY.key(), strategy.name());
    props.setProperty(SourceTable.JOB_FULL_TABLE_SCAN_FALLBACK, String.valueOf(table.fullTableScanFallback()));
    snapshotEnd.ifPresent(end -> {
      props.setProperty(SNAPSHOT_LOAD_QUERY_SPLITTER_CLASS_NAME, WindowEndSnapshotSplitter.class.getName());
      props.setProperty(WindowEndSnapshotSplitter.WINDOW_END, end);
    });
    return new HoodieIncrSource(props, jsc, spark, null);
  }

  /**
   * An incremental read from a position older than the active timeline sees only the active commits: without the
   * full-scan fallback, the archived ones would be skipped without a word. The snapshot path of
   * READ_UPTO_LATEST_COMMIT covers them. Judged by the window's verdict of the batch, which the retention guard read.
   */
  private void checkNotBehindArchive(SourceTable table, SourceTimeline timeline, String position) {
    if (table.fullTableScanFallback() || table.missingCheckpointStrategy() == MissingCheckpointStrategy.READ_UPTO_LATEST_COMMIT) {
      return;
    }
    WindowReadability window = timeline.retention().readability(position);
    if (window.archived()) {
      throw new HoodieReadFromSourceException(String.format("Cannot read table '%s' incrementally after %s: that "
          + "position is older than the table's active timeline (which starts at %s), whose earlier commits are "
          + "archived, so an incremental read would skip them. Nothing was committed. Set %s=true to read the window "
          + "with a full table scan, or move the table with --checkpoint '%s=EARLIEST' (re-read all) or '%s=LATEST' "
          + "(skip to now).", table.name(), position, window.activeTimelineStart().orElse("<none>"),
          HoodieIncrMultiSourceConfig.forTable(HoodieIncrMultiSourceConfig.TABLE_FULL_TABLE_SCAN_FALLBACK, table.name()).key(),
          table.name(), table.name()));
    }
  }

  private static String noCompletedCommit(SourceTable table) {
    return String.format("Cannot resolve the schema of table '%s' at %s: it has no completed commit", table.name(),
        table.path());
  }

  private static String notAHudiTable(SourceTable table) {
    return String.format("Cannot read table '%s': %s is not a Hudi table (check its path config, "
        + "hoodie.streamer.source.hudi.<table>.path)", table.name(), table.path());
  }

  private Dataset<Row> withPartitionFields(SourceTable table, Dataset<Row> rows) {
    if (table.partitionFields().isEmpty()) {
      return rows;
    }
    List<String> existing = Arrays.asList(rows.columns());
    if (!existing.contains(PARTITION_PATH_METADATA_FIELD)) {
      throw new HoodieReadFromSourceException(String.format("Cannot derive partition fields %s of table '%s': its "
          + "rows have no %s column (is hoodie.streamer.source.hoodieincr.drop.all.meta.fields.from.source on?)",
          table.partitionFields(), table.name(), PARTITION_PATH_METADATA_FIELD));
    }
    PartitionValueExtractor extractor = ReflectionUtils.loadClass(table.partitionExtractorClass().get());
    UserDefinedFunction partitionValues = udf(
        (UDF1<String, List<String>>) extractor::extractPartitionValuesInPath, DataTypes.createArrayType(DataTypes.StringType));
    Column values = partitionValues.apply(col(PARTITION_PATH_METADATA_FIELD));
    Dataset<Row> withFields = rows;
    for (int i = 0; i < table.partitionFields().size(); i++) {
      String field = table.partitionFields().get(i);
      if (!existing.contains(field)) {
        withFields = withFields.withColumn(field, element_at(values, i + 1));
      }
    }
    return withFields;
  }
}
