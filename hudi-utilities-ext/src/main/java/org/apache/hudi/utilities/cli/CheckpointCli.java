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
import org.apache.hudi.utilities.checkpoint.CheckpointOverride;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.hudi014.SourceTimeline;
import org.apache.hudi.utilities.hudi014.StoredCheckpointReader;
import org.apache.hudi.utilities.sources.multi.WindowReadability;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.conf.Configuration;

import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checkpoint tools of a multi-table pipeline: show a target's stored checkpoint per table, and build the
 * {@code --checkpoint} override that moves some tables while keeping the others. Reads only; writes nothing.
 *
 * <pre>
 * java -cp &lt;Hudi bundles, Spark's jars, this plugin&gt; org.apache.hudi.utilities.cli.CheckpointCli \
 *   show --props job.properties [--hoodie-conf key=value]... --target-base-path s3a://lake/joined
 * java -cp ... org.apache.hudi.utilities.cli.CheckpointCli \
 *   override --props job.properties --target-base-path s3a://lake/joined --set users=LATEST
 * </pre>
 *
 * <p>{@code --output json} prints either command's result as one JSON document (docs/tools.md lists its fields).
 */
public final class CheckpointCli {

  /** Command line options. */
  static final class Options {
    @Parameter(description = "show | override", required = true)
    List<String> command = new ArrayList<>();

    @ParametersDelegate
    CommandLine.StreamerJobOptions job = new CommandLine.StreamerJobOptions();

    @ParametersDelegate
    CommandLine.OutputOption output = new CommandLine.OutputOption();

    @Parameter(names = "--set", description = "With override: <table>=<instant|LATEST|EARLIEST>, repeatable")
    List<String> moves = new ArrayList<>();
  }

  private static final String ACTION = "run the checkpoint tool";

  private final Configuration hadoopConf;
  private final Clock clock;

  private CheckpointCli(Configuration hadoopConf, Clock clock) {
    this.hadoopConf = hadoopConf;
    this.clock = clock;
  }

  public static void main(String[] args) {
    System.exit(run(args, CommandLine.claimStdout(), System.err, Clock.systemUTC(), new Configuration()));
  }

  /**
   * Runs the command its arguments name: its result to {@code out} (as text or, with {@code --output json}, one JSON
   * document), what went wrong to {@code err}.
   *
   * @return 0 on success; 1 when {@code show} finds a table whose next batch can no longer be read incrementally;
   *     2 on bad arguments
   */
  public static int run(String[] args, PrintStream out, PrintStream err, Clock clock, Configuration hadoopConf) {
    Options options = new Options();
    Option<Integer> stop = CommandLine.parse("checkpoint-tool", ACTION, options, args, out, err);
    if (stop.isPresent()) {
      return stop.get();
    }
    String command = options.command.size() == 1 ? options.command.get(0) : "";
    if (!command.equals("show") && !command.equals("override")) {
      err.println("Cannot " + ACTION + ": the command is " + options.command + ", not one of show, override (see "
          + "--help)");
      return CommandLine.BAD_ARGUMENTS;
    }
    try {
      CommandLine.OutputFormat format = options.output.format(ACTION);
      TypedProperties props = options.job.readProps(hadoopConf, ACTION);
      MultiTableReadConf conf = MultiTableReadConf.from(props);
      CheckpointCli tool = new CheckpointCli(hadoopConf, clock);
      ObjectNode json = CommandLine.newJsonDocument();
      PrintStream text = CommandLine.textOut(format, out);
      int exitCode = CommandLine.SUCCESS;
      if (command.equals("show")) {
        exitCode = tool.show(conf, options.job.targetBasePath, text, json);
      } else {
        Map<String, String> moves = moves(options.moves);
        String override = tool.override(conf, options.job.targetBasePath, moves);
        List<String> notes = tool.notesOnPositions(conf, moves);
        text.println("--checkpoint '" + override + "'");
        notes.forEach(text::println);
        json.put("checkpoint", override);
        notes.forEach(json.putArray("notes")::add);
      }
      if (format == CommandLine.OutputFormat.JSON) {
        CommandLine.printJson(json, out);
      }
      return exitCode;
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return CommandLine.BAD_ARGUMENTS;
    }
  }

  /**
   * Prints the stored checkpoint, one line per configured table, and fills the JSON document with the same; returns 1
   * if a table's window is cleaned away.
   */
  int show(MultiTableReadConf conf, String targetBasePath, PrintStream out, ObjectNode json) {
    StoredCheckpoint stored = new StoredCheckpointReader(hadoopConf).newest(targetBasePath, StoredCheckpointReader.UNBOUNDED);
    out.printf("Target %s: checkpoint '%s' stored by commit %s (%d commits searched)%n", targetBasePath,
        stored.checkpoint().orElse(""), stored.commit().orElse("<none>"), stored.commitsSearched());
    json.put("target_base_path", targetBasePath);
    json.put("checkpoint", stored.checkpoint().orElse(null));
    json.put("commit", stored.commit().orElse(null));
    json.put("commits_searched", stored.commitsSearched());
    ArrayNode tables = json.putArray("tables");
    MultiTableCheckpoint positions = conf.checkpoints().parse(stored.checkpoint().orElse(null));
    out.printf("%-16s %-20s %-14s %-18s %-14s %s%n", "table", "position", "age", "active timeline", "cleaner keeps",
        "headroom");
    int exitCode = CommandLine.SUCCESS;
    for (SourceTable table : conf.tables()) {
      Option<String> position = positions.position(table.name());
      Option<SourceTimeline> timeline = SourceTimeline.load(table.path(), hadoopConf);
      ObjectNode row = tables.addObject();
      row.put("table", table.name());
      row.put("path", table.path());
      row.put("hudi_table", timeline.isPresent());
      row.put("latest_instant", timeline.isPresent() ? timeline.get().latestCompletedInstant().orElse(null) : null);
      row.put("position", position.orElse(null));
      row.put("missing_checkpoint_strategy", table.missingCheckpointStrategy().name());
      if (!position.isPresent() || !timeline.isPresent()) {
        out.printf("%-16s %-20s %s%n", table.name(), "<none>", timeline.isPresent()
            ? "starts from its missing.checkpoint.strategy " + table.missingCheckpointStrategy()
            : "not a Hudi table: " + table.path());
        row.putNull("age_seconds");
        row.putNull("on_active_timeline");
        row.putNull("cleaned_commits");
        row.putNull("readable_incrementally");
        row.putNull("headroom_commits");
        row.putNull("headroom_seconds");
        row.putNull("earliest_retained_instant");
        continue;
      }
      WindowReadability window = timeline.get().retention().readability(position.get());
      if (!window.readableIncrementally()) {
        exitCode = CommandLine.FAILURE;
      }
      Option<Duration> age = age(timeline.get(), position.get());
      out.printf("%-16s %-20s %-14s %-18s %-14s %s%n", table.name(), position.get(),
          age.map(CommandLine::duration).orElse("-"), window.archived() ? "no (archived)" : "yes",
          window.cleanedCommits().isEmpty() ? "yes" : "no: " + window.cleanedCommits(),
          window.headroomCommits().isPresent() ? window.headroomCommits().get() + " commits, "
              + CommandLine.duration(window.headroomTime().get()) + " after " + window.earliestRetainedInstant().get()
              : "unbounded (never cleaned or archived)");
      if (age.isPresent()) {
        row.put("age_seconds", CommandLine.seconds(age.get()));
      } else {
        row.putNull("age_seconds");
      }
      row.put("on_active_timeline", !window.archived());
      window.cleanedCommits().forEach(row.putArray("cleaned_commits")::add);
      row.put("readable_incrementally", window.readableIncrementally());
      row.put("headroom_commits", window.headroomCommits().orElse(null));
      if (window.headroomTime().isPresent()) {
        row.put("headroom_seconds", CommandLine.seconds(window.headroomTime().get()));
      } else {
        row.putNull("headroom_seconds");
      }
      row.put("earliest_retained_instant", window.earliestRetainedInstant().orElse(null));
    }
    json.put("readable_incrementally", exitCode == CommandLine.SUCCESS);
    return exitCode;
  }

  /** The override that applies the moves on top of the stored checkpoint. */
  String override(MultiTableReadConf conf, String targetBasePath, Map<String, String> moves) {
    StoredCheckpoint stored = new StoredCheckpointReader(hadoopConf).newest(targetBasePath, StoredCheckpointReader.UNBOUNDED);
    return CheckpointOverride.build(conf.checkpoints(), conf.tableNames(), stored.checkpoint(), moves);
  }

  /**
   * Where each table moved to an instant that is not one of its commits (a time, or by mistake another table's
   * instant) resumes: with the table's commits after it.
   */
  List<String> notesOnPositions(MultiTableReadConf conf, Map<String, String> moves) {
    List<String> notes = new ArrayList<>();
    for (Map.Entry<String, String> moved : CheckpointOverride.movedPositions(conf.checkpoints(), moves).entrySet()) {
      String table = moved.getKey();
      String position = moved.getValue();
      Option<SourceTimeline> timeline = SourceTimeline.load(conf.table(table).get().path(), hadoopConf);
      if (!timeline.isPresent() || timeline.get().completedCommits().containsInstant(position)) {
        continue;
      }
      List<String> after = timeline.get().completedInstantsAfter(position);
      notes.add(String.format("Note: %s=%s is not a commit of %s: %s", table, position, table, after.isEmpty()
          ? "no commit of " + table + " follows it yet; it resumes with the commits that complete later with a later "
          + "instant time"
          : String.format("it resumes with the %d commits of %s after it (%s to %s)", after.size(), table,
          after.get(0), after.get(after.size() - 1))));
    }
    return notes;
  }

  /** Now minus the position's instant time (none before the first instant); never negative. */
  private Option<Duration> age(SourceTimeline timeline, String position) {
    if (position.equals(MultiTableCheckpoint.BEFORE_FIRST_INSTANT)) {
      return Option.empty();
    }
    Duration age = Duration.between(timeline.timeOf(position), clock.instant());
    return Option.of(age.isNegative() ? Duration.ZERO : age);
  }

  private static Map<String, String> moves(List<String> arguments) {
    Map<String, String> moves = new LinkedHashMap<>();
    for (String argument : arguments) {
      int separator = argument.indexOf('=');
      if (separator <= 0) {
        throw new IllegalArgumentException(String.format("Cannot read --set %s: it is not <table>=<instant|LATEST|"
            + "EARLIEST>", argument));
      }
      moves.put(argument.substring(0, separator).trim(), argument.substring(separator + 1).trim());
    }
    return moves;
  }
}
