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

package org.apache.hudi.utilities.reporter;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * The round's workers: a fixed number of threads, kept at that number of <em>usable</em> threads. A worker stuck in a
 * call that ignores interruption (an S3 request waiting out its socket timeout) cannot be taken back; the pool grows
 * by one in its place ({@link #replaceStuck}) and shrinks again when it returns ({@link #returned}), so hung targets
 * never starve the others. The round submits at most one measurement per pipeline and never one for a pipeline still
 * stuck, so the extra threads are bounded by the pipelines hanging at the same time.
 */
final class WorkerPool implements AutoCloseable {

  /** Enough threads for work that mostly waits on storage and brokers, on any machine. */
  static int defaultSize() {
    return Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
  }

  private final ThreadPoolExecutor executor;
  private final int size;
  private int stuck;

  WorkerPool(int size) {
    checkArgument(size >= 1, () -> "Cannot start " + size + " workers: --workers must be at least 1");
    this.size = size;
    AtomicInteger number = new AtomicInteger();
    ThreadFactory threads = task -> {
      Thread thread = new Thread(task, "freshness-worker-" + number.incrementAndGet());
      // A stuck worker must not keep the JVM alive once the reporter is done.
      thread.setDaemon(true);
      return thread;
    };
    this.executor = new ThreadPoolExecutor(size, size, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), threads);
  }

  int size() {
    return size;
  }

  void submit(Runnable task) {
    executor.execute(task);
  }

  /** A worker is stuck: one more thread takes its place. */
  synchronized void replaceStuck() {
    stuck++;
    // Growing: the maximum first, a core size above it is refused.
    executor.setMaximumPoolSize(size + stuck);
    executor.setCorePoolSize(size + stuck);
  }

  /** A stuck worker returned: the extra thread goes once it is idle. */
  synchronized void returned() {
    stuck--;
    executor.setCorePoolSize(size + stuck);
    executor.setMaximumPoolSize(size + stuck);
  }

  /** Workers held by a call past its deadline. */
  synchronized int stuck() {
    return stuck;
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
