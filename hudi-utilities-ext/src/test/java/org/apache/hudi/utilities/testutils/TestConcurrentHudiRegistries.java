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

import org.apache.hudi.common.metrics.Registry;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Hudi's file-system counters stay usable while another thread flushes every registry, as a datasource write does
 * beside a Streamer in one JVM.
 */
class TestConcurrentHudiRegistries {

  private static final int COUNTS_PER_THREAD = 2_000_000;

  @Test
  void countersAddedWhileRegistriesAreFlushedNeverFailTheWriter() throws Exception {
    ConcurrentHudiRegistries.install();
    Registry fileSystem = Registry.getRegistry("HoodieWrapperFileSystem");
    assertSame(ConcurrentHudiRegistries.AtomicCounters.class, fileSystem.getClass());
    ExecutorService threads = Executors.newFixedThreadPool(3);
    AtomicBoolean counting = new AtomicBoolean(true);
    try {
      Future<Integer> flushes = threads.submit(() -> {
        int flushed = 0;
        while (counting.get()) {
          Registry.getAllMetrics(true, true);
          flushed++;
        }
        return flushed;
      });
      List<Future<?>> writers = new ArrayList<>();
      for (int writer = 0; writer < 2; writer++) {
        String counter = "create" + writer;
        writers.add(threads.submit(() -> {
          for (int i = 0; i < COUNTS_PER_THREAD; i++) {
            fileSystem.add(counter, 1);
          }
        }));
      }
      for (Future<?> writer : writers) {
        writer.get();
      }
      counting.set(false);
      flushes.get();
    } finally {
      counting.set(false);
      threads.shutdownNow();
    }
    fileSystem.clear();
    fileSystem.add("create0", 3);
    assertEquals(3L, fileSystem.getAllCounts(true).get("HoodieWrapperFileSystem.create0"));
  }
}
