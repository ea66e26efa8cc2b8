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

import org.apache.hudi.utilities.freshness.testutils.CapturedLogs;

import org.junit.jupiter.api.function.Executable;

import java.nio.file.Path;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertAll;

/**
 * One Streamer job per {@link TargetTable} setup over the same sources, each into a target of its own: a test writes
 * each round's source commits once, and every setup syncs them and is checked, in the order of {@link TargetTable}.
 * Each job reads and commits only its own target and checkpoint, so each sees the source timeline as a job alone
 * would at that point; writing the sources once for all setups saves the source commits, which cost more than the
 * syncs.
 */
public final class TargetPerSetup {

  private final Map<TargetTable, OrdersAndUsers> targets = new EnumMap<>(TargetTable.class);
  private final Map<TargetTable, StreamerJob> jobs = new EnumMap<>(TargetTable.class);
  private final Map<TargetTable, StringBuilder> logs = new EnumMap<>(TargetTable.class);
  /** The loggers whose logs each sync keeps; null: none. */
  private String capturedLoggers;

  /**
   * A job per setup over the sources of {@code sources} (written with its options), each like {@code sources.job()}
   * and with its setup applied, into {@code <targetName>_<setup>} beside the sources; job files under {@code dir}.
   */
  public TargetPerSetup(OrdersAndUsers sources, Path dir, String targetName) {
    this(sources, dir, targetName, EnumSet.allOf(TargetTable.class));
  }

  /** As {@link #TargetPerSetup(OrdersAndUsers, Path, String)}, for some setups only. */
  public TargetPerSetup(OrdersAndUsers sources, Path dir, String targetName, Set<TargetTable> setups) {
    for (TargetTable setup : setups) {
      String name = targetName + "_" + setup.name().toLowerCase(Locale.ROOT);
      OrdersAndUsers target = sources.withTarget(dir.resolve("job_" + name), name);
      targets.put(setup, target);
      jobs.put(setup, setup.applyTo(target.job()));
      logs.put(setup, new StringBuilder());
    }
  }

  /** Configures every setup's job alike. */
  public TargetPerSetup eachJob(Consumer<StreamerJob> configuration) {
    jobs.values().forEach(configuration);
    return this;
  }

  /** The job of one setup, to configure what differs between setups. */
  public StreamerJob job(TargetTable setup) {
    return jobs.get(setup);
  }

  /** The setups, in the order of {@link TargetTable}. */
  public Set<TargetTable> setups() {
    return jobs.keySet();
  }

  /** The targets, one per setup, in the order of {@link TargetTable}. */
  public Collection<OrdersAndUsers> targets() {
    return targets.values();
  }

  /**
   * From now on, keeps what the loggers under {@code loggerName} log at INFO and above while each job syncs
   * ({@link #logs}).
   */
  public TargetPerSetup captureLogs(String loggerName) {
    capturedLoggers = loggerName;
    return this;
  }

  /** What one setup's job logged while it synced, since {@link #captureLogs}. */
  public String logs(TargetTable setup) {
    return logs.get(setup).toString();
  }

  /** One sync round of each setup's job in this JVM, one after the other; the first failure stops the round. */
  public void syncEach() throws Exception {
    for (Map.Entry<TargetTable, StreamerJob> job : jobs.entrySet()) {
      if (capturedLoggers == null) {
        job.getValue().syncInProcess();
        continue;
      }
      try (CapturedLogs captured = new CapturedLogs(capturedLoggers)) {
        try {
          job.getValue().syncInProcess();
        } finally {
          logs.get(job.getKey()).append(captured.text());
        }
      }
    }
  }

  /** Checks every setup's target; fails with the failures of all setups, each under the name of its setup. */
  public void assertEachTarget(Consumer<OrdersAndUsers> check) {
    assertAll(targets.entrySet().stream().map(target -> (Executable) () -> {
      try {
        check.accept(target.getValue());
      } catch (AssertionError e) {
        throw new AssertionError(target.getKey() + " target: " + e.getMessage(), e);
      }
    }));
  }
}
