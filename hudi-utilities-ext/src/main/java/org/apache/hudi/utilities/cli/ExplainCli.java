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

package org.apache.hudi.utilities.cli;

// The Hudi 0.14 bundles relocate JCommander; Hudi's own tools use it under this name.
import org.apache.hudi.com.beust.jcommander.Parameter;
import org.apache.hudi.com.beust.jcommander.ParametersDelegate;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.UtilHelpers;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.checkpoint.RequestedCheckpoint;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.config.AlignmentMode;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.hudi014.MultiTableReader;
import org.apache.hudi.utilities.hudi014.MultiTableReader.BatchTimelines;
import org.apache.hudi.utilities.hudi014.RetentionGuard;
import org.apache.hudi.utilities.hudi014.StoredCheckpointReader;
import org.apache.hudi.utilities.sources.IncrMultiBatch;
import org.apache.hudi.utilities.sources.multi.CommitTimeCeiling;
import org.apache.hudi.utilities.sources.multi.TableBatch;
import org.apache.hudi.utilities.sources.multi.TableWindow;
import org.apache.hudi.utilities.sources.multi.WrittenData;
import org.apache.hudi.utilities.transform.CarrierManifest;
import org.apache.hudi.utilities.transform.MultiDatasetBatch;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;
import org.apache.hudi.utilities.transform.ViewDefinitionFingerprint;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders.Kind;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders.Reference;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.ExplainMode;

import java.io.PrintStream;
import java.time.Clock;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * Explains the next batch of a multi-table Streamer job before running it (a dry run): per table the window it would
 * read, the alignment decision, what each placeholder of the SQL file binds to, and Spark's plan of the SQL. Takes the
 * Streamer's own {@code --props} and {@code --target-base-path}, and optionally the {@code --checkpoint} the next run
 * would pass. Reads the sources; writes nothing.
 *
 * <pre>
 * spark-submit --jars &lt;Hudi bundles&gt;,&lt;this plugin jar&gt; --class org.apache.hudi.utilities.cli.ExplainCli &lt;utilities bundle&gt; \
 *   --props job.properties --target-base-path s3a://lake/joined [--checkpoint 'users=LATEST']
 * </pre>
 *
 * <p>The positions, windows and reads come from the sequence the source runs ({@link IncrMultiBatch}); the SQL is
 * bound and planned by the transformer itself. It reads the sources (lazily, as a batch does) and writes nothing.
 */
public final class ExplainCli {

  /** Command line options. */
  static final class Options {
    @ParametersDelegate
    CommandLine.StreamerJobOptions job = new CommandLine.StreamerJobOptions();

    @Parameter(names = "--checkpoint", description = "Explain the batch that the Streamer's --checkpoint with this "
        + "value would run, instead of the one resuming from the stored checkpoint")
    String checkpoint;

    @Parameter(names = "--explain-mode", description = "Spark's explain mode for the plan of the SQL: simple, "
        + "extended, codegen, cost or formatted")
    String explainMode = "extended";

    @ParametersDelegate
    CommandLine.OutputOption output = new CommandLine.OutputOption();
  }

  private static final String ACTION = "explain the batch";

  private final SparkSession spark;
  private final JavaSparkContext jsc;
  private final Clock clock;
  private final PrintStream out;
  private final ObjectNode json;

  private ExplainCli(SparkSession spark, Clock clock, PrintStream out, ObjectNode json) {
    this.spark = spark;
    this.jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    this.clock = clock;
    this.out = out;
    this.json = json;
  }

  public static void main(String[] args) {
    // Started only once the arguments are read: --help and bad arguments answer without Spark.
    AtomicReference<JavaSparkContext> started = new AtomicReference<>();
    PrintStream stdout = CommandLine.claimStdout();
    int exitCode;
    try {
      exitCode = run(args, stdout, System.err, Clock.systemUTC(), () -> {
        // The master is spark-submit's, or local for a run on the driver alone.
        started.set(UtilHelpers.buildSparkContext("hudi-multi-table-explain", "local[2]"));
        return SparkSession.builder().config(started.get().getConf()).getOrCreate();
      });
    } finally {
      if (started.get() != null) {
        started.get().stop();
      }
    }
    System.exit(exitCode);
  }

  /**
   * Explains the next batch of the job its arguments name: the explanation to {@code out} (as text or, with
   * {@code --output json}, one JSON document), what went wrong to {@code err}.
   *
   * @param clock what "now" is for the idle timeout of alignment, and the time a view's batch runs at
   * @param spark the session to explain the batch in, asked for only once the arguments are read and valid
   * @return 0 on success; 1 if the batch would fail (its message goes to {@code err}; what was explained before the
   *     failure to {@code out}); 2 on bad arguments or settings
   */
  public static int run(String[] args, PrintStream out, PrintStream err, Clock clock, Supplier<SparkSession> spark) {
    Options options = new Options();
    Option<Integer> stop = CommandLine.parse("explain", ACTION, options, args, out, err);
    if (stop.isPresent()) {
      return stop.get();
    }
    ExplainMode mode;
    CommandLine.OutputFormat format;
    try {
      format = options.output.format(ACTION);
      mode = explainMode(options.explainMode);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return CommandLine.BAD_ARGUMENTS;
    }
    ObjectNode json = CommandLine.newJsonDocument();
    int exitCode;
    try {
      SparkSession session = spark.get();
      TypedProperties props = options.job.readProps(session.sparkContext().hadoopConfiguration(), ACTION);
      new ExplainCli(session, clock, CommandLine.textOut(format, out), json).explain(props,
          options.job.targetBasePath, Option.ofNullable(options.checkpoint), mode);
      json.putNull("error");
      exitCode = CommandLine.SUCCESS;
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return CommandLine.BAD_ARGUMENTS;
    } catch (Exception e) {
      // Whatever would fail the batch: a read or a placeholder (Hudi's exceptions), the SQL (Spark's AnalysisException).
      String message = "The batch would fail: " + e.getMessage();
      err.println(message);
      json.put("error", message);
      exitCode = CommandLine.FAILURE;
    }
    if (format == CommandLine.OutputFormat.JSON) {
      CommandLine.printJson(json, out);
    }
    return exitCode;
  }

  private static ExplainMode explainMode(String name) {
    try {
      return ExplainMode.fromString(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(String.format("Cannot %s: --explain-mode is '%s' (use simple, extended, "
          + "codegen, cost or formatted)", ACTION, name), e);
    }
  }

  private void explain(TypedProperties props, String targetBasePath, Option<String> override, ExplainMode mode) {
    MultiTableReadConf conf = MultiTableReadConf.from(props);
    override.ifPresent(checkpoint -> checkNamesConfiguredTables(conf, checkpoint));
    StoredCheckpoint stored = new StoredCheckpointReader(jsc.hadoopConfiguration())
        .newest(targetBasePath, StoredCheckpointReader.UNBOUNDED);
    // The Streamer's rule: a --checkpoint applies unless the decisive commit records that it was applied already.
    boolean applied = override.isPresent() && stored.commit().isPresent() && override.equals(
        new StoredCheckpointReader(jsc.hadoopConfiguration()).appliedOverrideAt(targetBasePath, stored.commit().get()));
    Option<String> resumeString = override.isPresent() && !applied ? override : stored.checkpoint();
    String from = !override.isPresent() ? "the stored checkpoint"
        : applied ? "the stored checkpoint, as commit " + stored.commit().get() + " applied this --checkpoint already"
        : "--checkpoint";
    out.printf("Target %s: stored checkpoint '%s' (commit %s); the batch resumes from %s '%s'. Nothing is written.%n",
        targetBasePath, stored.checkpoint().orElse(""), stored.commit().orElse("<none>"), from, resumeString.orElse(""));
    json.put("target_base_path", targetBasePath);
    json.put("stored_checkpoint", stored.checkpoint().orElse(null));
    json.put("stored_commit", stored.commit().orElse(null));
    json.put("resumes_from", !override.isPresent() ? "stored_checkpoint" : applied ? "stored_checkpoint_override_applied"
        : "override");
    json.put("resume_checkpoint", resumeString.orElse(null));

    MultiTableReader reader = new MultiTableReader(props, conf, jsc, spark, clock);
    Option<String> viewDefinition = ViewDefinitionFingerprint.ofJob(jsc, spark, props);
    IncrMultiBatch batch = IncrMultiBatch.resume(conf, reader, resumeString, stored::checkpoint, viewDefinition);
    if (viewDefinition.isPresent()) {
      Option<String> previous = batch.resumePositions().storedViewDefinition();
      out.printf("View definition: %s; the checkpoint resumed from records %s%n", viewDefinition.get(),
          !previous.isPresent() ? "none" : previous.get().equals(viewDefinition.get()) ? "the same"
              : previous.get() + ": the query or the target's key was edited since (see docs/views.md, \"Changing a view\")");
    }
    json.put("view_definition", viewDefinition.orElse(null));
    json.put("previous_view_definition", batch.resumePositions().storedViewDefinition().orElse(null));
    batch.check(new RetentionGuard(conf));
    BatchTimelines timelines = batch.timelines();
    List<TableWindow> planned = reader.plan(timelines, batch.previous());
    Option<CommitTimeCeiling> aligned = conf.alignment() == AlignmentMode.NONE ? Option.empty()
        : Option.of(reader.align(planned));
    ObjectNode alignment = json.putObject("alignment");
    alignment.put("mode", conf.alignment().name());
    if (aligned.isPresent()) {
      out.printf("Alignment: %s, ceiling %s; tables cut at the ceiling (the rest in a later batch): %s; idle tables "
          + "(not holding the ceiling, idle timeout %s): %s%n", conf.alignment(), aligned.get().ceiling().orElse("<none>"),
          aligned.get().waitingTables(), CommandLine.duration(conf.alignmentIdleTimeout()), aligned.get().idleTables());
      alignment.put("ceiling", aligned.get().ceiling().orElse(null));
      aligned.get().waitingTables().forEach(alignment.putArray("cut_tables")::add);
      aligned.get().idleTables().forEach(alignment.putArray("idle_tables")::add);
      alignment.put("idle_timeout_seconds", CommandLine.seconds(conf.alignmentIdleTimeout()));
    } else {
      out.println("Alignment: NONE (each table reads as far as its own num_instants allows)");
    }
    Map<String, TableWindow> windows = new LinkedHashMap<>();
    ArrayNode tables = json.putArray("tables");
    for (int i = 0; i < planned.size(); i++) {
      String table = planned.get(i).table();
      windows.put(table, aligned.isPresent() ? aligned.get().window(table) : planned.get(i));
      printWindow(conf.tables().get(i), timelines, planned.get(i), windows.get(table), tables.addObject());
    }
    // The reads the batch makes, of the windows shown: lazy, but a table that cannot be read fails here, as it would
    // fail the batch.
    IncrMultiBatch.Outcome outcome = aligned.isPresent() ? batch.read(aligned.get()) : batch.read();
    if (outcome.caughtUp()) {
      out.printf("Next checkpoint: none; every table is caught up, so the Streamer skips the round (checkpoint stays "
          + "'%s')%n", outcome.checkpoint());
    } else {
      out.printf("Next checkpoint: '%s'%n", outcome.checkpoint());
    }
    json.put("caught_up", outcome.caughtUp());
    json.put("next_checkpoint", outcome.caughtUp() ? null : outcome.checkpoint());
    explainSql(props, conf, outcome.manifest(), windows, outcome.batches(), mode);
  }

  /** An override is checked for typos: the source drops the positions of tables that are not configured. */
  private static void checkNamesConfiguredTables(MultiTableReadConf conf, String override) {
    RequestedCheckpoint request = conf.checkpoints().parseRequest(override);
    Set<String> named = new HashSet<>(request.positions().tables());
    named.addAll(request.resets().keySet());
    for (String table : named) {
      checkArgument(conf.table(table).isPresent(), () -> String.format("Cannot explain --checkpoint '%s': table '%s' is "
          + "not one of the configured tables %s, so the Streamer would drop its position (check the name, or "
          + "hoodie.streamer.source.multi.hudi.tables in --props)", override, table, conf.tableNames()));
    }
  }

  private void printWindow(SourceTable table, BatchTimelines timelines, TableWindow planned, TableWindow window,
                           ObjectNode row) {
    out.printf("Table %s (%s): position %s%n", table.name(), table.path(), window.position().isPresent()
        ? window.position().get() : "<none>, starts from its missing.checkpoint.strategy " + table.missingCheckpointStrategy().name());
    row.put("table", table.name());
    row.put("path", table.path());
    row.put("position", window.position().orElse(null));
    row.put("missing_checkpoint_strategy", table.missingCheckpointStrategy().name());
    row.put("hudi_table", timelines.of(table.name()).isPresent());
    if (!timelines.of(table.name()).isPresent()) {
      out.printf("  window: none, %s is not a Hudi table%n", table.path());
      row.putNull("window");
      row.putNull("planned_window");
      return;
    }
    boolean cut = planned.instants().size() != window.instants().size();
    if (cut) {
      out.printf("  planned window %s, cut at the alignment ceiling%n", describe(planned));
    }
    ObjectNode windowJson = windowJson(row.putObject("window"), window);
    if (cut) {
      windowJson(row.putObject("planned_window"), planned);
    } else {
      row.putNull("planned_window");
    }
    if (!window.hasNewCommits()) {
      out.printf("  window: nothing new after %s%n", window.fromExclusive());
      windowJson.put("files", 0);
      windowJson.put("bytes", 0);
      return;
    }
    WrittenData written = timelines.of(table.name()).get().writtenBy(new HashSet<>(window.instants()));
    out.printf("  window %s: %s; %d files, %d bytes written by them%n", describe(window), window.instants(),
        written.files(), written.bytes());
    windowJson.put("files", written.files());
    windowJson.put("bytes", written.bytes());
  }

  /** A window's bounds and instants; an empty window ends where it begins. */
  private static ObjectNode windowJson(ObjectNode node, TableWindow window) {
    node.put("from_exclusive", window.fromExclusive());
    node.put("to_inclusive", window.end().orElse(window.fromExclusive()));
    window.instants().forEach(node.putArray("instants")::add);
    return node;
  }

  private static String describe(TableWindow window) {
    return String.format("(%s, %s], %d instants", window.fromExclusive(), window.end().orElse(window.fromExclusive()),
        window.instants().size());
  }

  private void explainSql(TypedProperties props, MultiTableReadConf conf, CarrierManifest manifest,
                          Map<String, TableWindow> windows, List<TableBatch> batches, ExplainMode mode) {
    String sqlFile = MultiDatasetSqlFileTransformer.sqlFile(props);
    List<Dataset<Row>> datasets = batches.stream().map(TableBatch::rows).collect(Collectors.toList());
    SourcePlaceholders placeholders = MultiDatasetSqlFileTransformer.placeholders(props, datasets.size());
    Map<String, Reference> bindings = new LinkedHashMap<>();
    for (String statement : MultiDatasetSqlFileTransformer.statements(jsc, sqlFile)) {
      placeholders.placeholders(statement).forEach(bindings::putIfAbsent);
    }
    out.printf("SQL file %s binds:%n", sqlFile);
    json.put("sql_file", sqlFile);
    ArrayNode bound = json.putArray("bindings");
    int width = bindings.keySet().stream().mapToInt(String::length).max().orElse(0);
    bindings.forEach((placeholder, reference) -> {
      String table = conf.tableNames().get(reference.index());
      String binding = binding(table, reference.kind(), manifest, windows);
      out.printf("  %-" + width + "s -> %s%n", placeholder, binding);
      bound.addObject().put("placeholder", placeholder).put("table", table).put("kind", reference.kind().name())
          .put("binding", binding);
    });
    MultiDatasetSqlFileTransformer transformer = new MultiDatasetSqlFileTransformer(clock);
    Dataset<Row> result = transformer.apply(jsc, spark, new MultiDatasetBatch(datasets, Option.of(manifest)), props);
    transformer.viewBatch().ifPresent(view -> out.printf("It is a view; this batch: %s%n", view));
    json.put("view", transformer.viewBatch().orElse(null));
    String plan = result.queryExecution().explainString(mode).trim();
    out.printf("Spark plan of its last statement (explain mode %s):%n", mode.name());
    out.println(plan);
    json.put("explain_mode", mode.name());
    json.put("plan", plan);
  }

  private static String binding(String table, Kind kind, CarrierManifest manifest, Map<String, TableWindow> windows) {
    if (kind == Kind.SRC) {
      TableWindow window = windows.get(table);
      return window.hasNewCommits()
          ? String.format("rows of %s read in (%s, %s]", table, window.fromExclusive(), window.end().get())
          : String.format("rows of %s: none (nothing new after %s)", table, window.fromExclusive());
    }
    if (kind == Kind.TABLE) {
      return String.format("%s, the whole table: as of %s before this batch and %s after it", table,
          manifest.previousPosition(table).orElse("(no position)"), manifest.nextPosition(table).orElse("(no position)"));
    }
    Option<String> position = kind == Kind.SNAP ? manifest.nextPosition(table) : manifest.previousPosition(table);
    String which = kind == Kind.SNAP ? "after" : "before";
    return position.isPresent() && !position.get().equals(MultiTableCheckpoint.BEFORE_FIRST_INSTANT)
        ? String.format("%s as of %s (its position %s this batch)", table, position.get(), which)
        : String.format("%s: empty (no position %s this batch)", table, which);
  }
}
