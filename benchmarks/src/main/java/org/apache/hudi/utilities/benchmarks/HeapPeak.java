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

package org.apache.hudi.utilities.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The most heap the JVM (Spark driver and, in local mode, its executors) used while a measurement ran, sampled every
 * few milliseconds: a peak between two samples can be missed, a collected one is never counted.
 */
final class HeapPeak implements AutoCloseable {

  private static final long SAMPLE_MILLIS = 5;

  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final AtomicLong peak = new AtomicLong();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread sampler;

  private HeapPeak() {
    sampler = new Thread(() -> {
      while (running.get()) {
        peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
        try {
          Thread.sleep(SAMPLE_MILLIS);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "heap-peak");
    sampler.setDaemon(true);
  }

  /** Starts sampling after a collection, so that garbage of earlier measurements does not count. */
  static HeapPeak start() {
    System.gc();
    HeapPeak heap = new HeapPeak();
    heap.sampler.start();
    return heap;
  }

  /** The peak so far, in MiB. */
  long peakMib() {
    return Math.max(peak.get(), memory.getHeapMemoryUsage().getUsed()) / (1024 * 1024);
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    sampler.join();
  }
}
