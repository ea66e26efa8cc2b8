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

import com.sun.management.GarbageCollectionNotificationInfo;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The most heap the JVM (Spark driver and, in local mode, its executors) used while a measurement ran, sampled every
 * few milliseconds: a peak between two samples can be missed, a collected one is never counted. Also the most heap
 * left in use after a collection ({@link #peakAfterCollectionMib}): what the measurement kept, garbage a young
 * collection leaves in the old generation included, as opposed to what the collector let pile up before collecting,
 * which grows with the heap it may use.
 */
final class HeapPeak implements AutoCloseable {

  private static final long SAMPLE_MILLIS = 5;

  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final AtomicLong peak = new AtomicLong();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread sampler;
  private final AtomicLong peakAfterCollection = new AtomicLong();
  private final NotificationListener collections = this::collected;
  private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
      .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());

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
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) collector).addNotificationListener(heap.collections, null, null);
    }
    heap.sampler.start();
    return heap;
  }

  /** The peak so far, in MiB. */
  long peakMib() {
    return Math.max(peak.get(), memory.getHeapMemoryUsage().getUsed()) / (1024 * 1024);
  }

  /**
   * The most heap in use right after a collection, in MiB; 0 if none ran. A collection's notice arrives on another
   * thread shortly after it: one that ends as the measurement does may be missed.
   */
  long peakAfterCollectionMib() {
    return peakAfterCollection.get() / (1024 * 1024);
  }

  private void collected(Notification notification, Object handback) {
    if (notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
      long used = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()).getGcInfo()
          .getMemoryUsageAfterGc().entrySet().stream().filter(pool -> heapPools.contains(pool.getKey()))
          .mapToLong(pool -> pool.getValue().getUsed()).sum();
      peakAfterCollection.accumulateAndGet(used, Math::max);
    }
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    sampler.join();
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      try {
        ((NotificationEmitter) collector).removeNotificationListener(collections);
      } catch (ListenerNotFoundException e) {
        throw new IllegalStateException("the collections of " + collector.getName() + " were not listened to", e);
      }
    }
  }
}
