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

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What the command-line tools share: their exit codes, parsing their options as Hudi's own tools do (JCommander, with
 * {@code --help}), and reading the Streamer's properties file as the Streamer reads it.
 */
final class CommandLine {

  /** The tool did what it was asked. */
  static final int SUCCESS = 0;
  /** The tool ran and found a failure (a pipeline it could not measure, a batch that would fail, a cleaned window). */
  static final int FAILURE = 1;
  /** The arguments or the settings they point to are wrong; nothing was read or written. */
  static final int BAD_ARGUMENTS = 2;

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
  static Option<Integer> parse(String program, String action, Object options, String[] args, PrintStream out) {
    Help help = new Help();
    JCommander commander = JCommander.newBuilder().addObject(options).addObject(help).programName(program).build();
    try {
      commander.parse(args);
    } catch (ParameterException e) {
      out.println("Cannot " + action + ": " + e.getMessage() + " (see --help)");
      return Option.of(BAD_ARGUMENTS);
    }
    if (help.help) {
      commander.usage();
      return Option.of(SUCCESS);
    }
    return Option.empty();
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
