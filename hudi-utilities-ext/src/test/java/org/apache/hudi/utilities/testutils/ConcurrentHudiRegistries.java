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

import org.apache.hudi.common.fs.HoodieWrapperFileSystem;
import org.apache.hudi.common.metrics.Counter;
import org.apache.hudi.common.metrics.Registry;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Hudi's process-wide counter registries made safe for a JVM that writes and flushes them at once, as a test JVM does
 * when it writes sources through the Spark datasource beside a running Streamer.
 *
 * <p>Hudi 0.14's {@code LocalRegistry} creates a counter by check-then-get under its own lock, while {@code clear()}
 * takes no lock. Every datasource write ends in {@code HoodieSparkSqlWriter.cleanup}, whose
 * {@code Metrics.shutdownAllMetrics} flushes all registries ({@code Registry.getAllMetrics(true, ...)} clears them); a
 * counter cleared between the check and the get is null, and the Streamer's task that was counting its file-system
 * bytes (its async compaction, seen in CI) fails with a {@code NullPointerException} in {@code LocalRegistry.add}. A
 * Streamer process runs no datasource writes, so only tests meet this; the registries installed here create a counter
 * atomically, so a concurrent clear loses at most that one count.
 */
public final class ConcurrentHudiRegistries {

  /**
   * The registries Hudi 0.14 creates as {@code LocalRegistry} by name: {@code SparkRDDWriteClient}'s file-system data and
   * meta-folder registries, the metadata table's, and the embedded timeline server's.
   */
  private static final List<String> NAMES = List.of(HoodieWrapperFileSystem.class.getSimpleName(),
      HoodieWrapperFileSystem.class.getSimpleName() + "MetaFolder", "HoodieMetadata", "TimelineService");

  private ConcurrentHudiRegistries() {
  }

  /**
   * Replaces Hudi's registries of {@link #NAMES} in this JVM: write clients created later take these
   * ({@code Registry.getRegistry} returns the registered one).
   */
  public static void install() {
    synchronized (Registry.class) {
      for (String name : NAMES) {
        if (!(Registry.REGISTRY_MAP.get(name) instanceof AtomicCounters)) {
          Registry.REGISTRY_MAP.put(name, new AtomicCounters(name));
        }
      }
    }
  }

  /** A registry whose counters are created by {@link ConcurrentMap#computeIfAbsent}. */
  static final class AtomicCounters implements Registry {

    private final String name;
    private final ConcurrentMap<String, Counter> counters = new ConcurrentHashMap<>();

    AtomicCounters(String name) {
      this.name = name;
    }

    @Override
    public void clear() {
      counters.clear();
    }

    @Override
    public void increment(String counter) {
      counters.computeIfAbsent(counter, key -> new Counter()).increment();
    }

    @Override
    public void add(String counter, long value) {
      counters.computeIfAbsent(counter, key -> new Counter()).add(value);
    }

    @Override
    public void set(String counter, long value) {
      counters.computeIfAbsent(counter, key -> new Counter()).set(value);
    }

    @Override
    public Map<String, Long> getAllCounts(boolean prefixWithRegistryName) {
      Map<String, Long> counts = new HashMap<>();
      counters.forEach((counter, value) -> counts.put(prefixWithRegistryName ? name + "." + counter : counter,
          value.getValue()));
      return counts;
    }
  }
}
