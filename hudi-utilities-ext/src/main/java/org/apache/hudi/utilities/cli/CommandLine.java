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
import org.apache.hudi.com.beust.jcommander.JCommander;
import org.apache.hudi.com.beust.jcommander.Parameter;
import org.apache.hudi.com.beust.jcommander.ParameterException;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.exception.HoodieIOException;
import org.apache.hudi.utilities.IdentitySplitter;
import org.apache.hudi.utilities.UtilHelpers;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the command-line tools share: their exit codes, parsing their options as Hudi's own tools do (JCommander, with
 * {@code --help}), reading the Streamer's properties file as the Streamer reads it, and the two forms of their
 * results. Results go to the tool's output stream, messages about what went wrong to its error stream, so a script
 * reading {@code --output json} never parses an error as a result.
 */
final class CommandLine {

  /** The tool did what it was asked. */
  static final int SUCCESS = 0;
  /** The tool ran and found a failure (a pipeline it could not measure, a batch that would fail, a cleaned window). */
  static final int FAILURE = 1;
  /** The arguments or the settings they point to are wrong; nothing was read or written. */
  static final int BAD_ARGUMENTS = 2;

  private static final ObjectMapper JSON = new ObjectMapper();

  private CommandLine() {
  }

  /** The {@code --help} flag every tool takes. */
  private static final class Help {
    @Parameter(names = {"--help", "-h"}, help = true, description = "Print the options and exit")
    boolean help = false;
  }

  /**
   * Parses the arguments into the tool's options.
   *
   * @param program what {@code --help} calls the tool
   * @param action  what the tool does, for the message on bad arguments ({@code "explain the batch"})
   * @return the exit code to return at once ({@code --help} was printed, or the arguments are bad and the message was
   *     printed); empty when the tool goes on
   */
  static Option<Integer> parse(String program, String action, Object options, String[] args, PrintStream out,
                               PrintStream err) {
    Help help = new Help();
    JCommander commander = JCommander.newBuilder().addObject(options).addObject(help).programName(program).build();
    try {
      commander.parse(args);
    } catch (ParameterException e) {
      err.println("Cannot " + action + ": " + e.getMessage() + " (see --help)");
      return Option.of(BAD_ARGUMENTS);
    }
    if (help.help) {
      // Asked for, so it is the result: to the output stream (JCommander's usage() would print to System.out).
      StringBuilder usage = new StringBuilder();
      commander.getUsageFormatter().usage(usage);
      out.print(usage);
      return Option.of(SUCCESS);
    }
    return Option.empty();
  }

  /**
   * Takes the process's stdout for the tool's result alone, for a {@code main}: from then on whatever else prints to
   * {@link System#out} goes to stderr. Libraries do print there: the JOL copy in the Hudi bundles writes "# WARNING:
   * Unable to attach Serviceability Agent" to stdout on every Spark launch, which would break a JSON result.
   *
   * @return the stream that was stdout, for the result
   */
  static PrintStream claimStdout() {
    PrintStream stdout = System.out;
    System.setOut(System.err);
    return stdout;
  }

  /** The form a tool prints its result in. */
  enum OutputFormat {
    /** For people: lines and columns, durations as {@code 4m12s}. */
    TEXT,
    /** For scripts: one JSON document, snake_case field names, durations in seconds. */
    JSON
  }

  /** The {@code --output} option of the tools that print a result. */
  static final class OutputOption {
    @Parameter(names = "--output", description = "text (for people) or json (one document, for scripts)")
    String output = "text";

    /**
     * The format {@code --output} names.
     *
     * @param action what the tool does, for the message ({@code "explain the batch"})
     * @throws IllegalArgumentException if it names neither {@code text} nor {@code json}
     */
    OutputFormat format(String action) {
      for (OutputFormat format : OutputFormat.values()) {
        if (format.name().equalsIgnoreCase(output)) {
          return format;
        }
      }
      throw new IllegalArgumentException(String.format("Cannot %s: --output is '%s' (use --output text or --output "
          + "json)", action, output));
    }
  }

  /**
   * Where a tool prints its text: the output stream with {@code --output text}; nowhere with {@code --output json},
   * where the tool prints its JSON document instead. A tool prints its text as it goes (so a run that fails shows how
   * far it got) and fills its JSON document alongside.
   */
  static PrintStream textOut(OutputFormat format, PrintStream out) {
    return format == OutputFormat.TEXT ? out : new PrintStream(OutputStream.nullOutputStream(), false,
        StandardCharsets.UTF_8);
  }

  /** A new JSON document to fill with a tool's result. */
  static ObjectNode newJsonDocument() {
    return JSON.createObjectNode();
  }

  /** Prints a tool's JSON result, indented (still one document for {@code jq} or {@code json.loads}). */
  static void printJson(ObjectNode document, PrintStream out) {
    try {
      out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(document));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot print the result as JSON: " + e.getMessage(), e);
    }
  }

  /** A duration in the text form of every tool: whole seconds, as {@code 4m12s}, {@code 26h3m} or {@code 0s}. */
  static String duration(Duration duration) {
    return duration.isNegative() ? "0s" : duration.withNanos(0).toString().substring(2).toLowerCase();
  }

  /** A duration in the JSON form of every tool: seconds, with the milliseconds as decimals. */
  static double seconds(Duration duration) {
    return duration.toMillis() / 1000.0;
  }

  /** The Streamer job a tool works on, named by the Streamer's own options. */
  static final class StreamerJobOptions {
    @Parameter(names = "--props", required = true, description = "The Streamer's properties file (any Hadoop path)")
    String props;

    @Parameter(names = "--hoodie-conf", splitter = IdentitySplitter.class, description = "A property that overrides "
        + "--props, as the Streamer's --hoodie-conf <key>=<value>; repeatable")
    List<String> configs = new ArrayList<>();

    @Parameter(names = "--target-base-path", required = true, description = "The Streamer's target table")
    String targetBasePath;

    /**
     * Reads the Streamer's properties as the Streamer does: the file (any Hadoop path), then each
     * {@code --hoodie-conf key=value} on top.
     *
     * @param action what the tool does, for the message ({@code "explain the batch"})
     * @throws IllegalArgumentException if the file cannot be read, naming it and the cause
     */
    TypedProperties readProps(Configuration hadoopConf, String action) {
      try {
        return UtilHelpers.readConfig(hadoopConf, new Path(props), configs).getProps();
      } catch (HoodieIOException e) {
        throw new IllegalArgumentException(String.format("Cannot %s: cannot read --props %s (%s)", action, props,
            e.getCause() == null ? e.getMessage() : e.getCause().getMessage()), e);
      }
    }
  }
}
