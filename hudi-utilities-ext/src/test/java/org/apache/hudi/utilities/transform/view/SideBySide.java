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

package org.apache.hudi.utilities.transform.view;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Views of a differential test run side by side: a batch is a chain of short Spark jobs, mostly waiting, so several
 * views' batches share the test's cores well.
 */
final class SideBySide {

  private SideBySide() {
  }

  /**
   * The results of the runs, in their order, each run on one of {@code threads} threads.
   *
   * @throws AssertionError the first failed run's, as it was thrown
   */
  static <T> List<T> results(List<Callable<T>> runs, int threads) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<T>> futures = new ArrayList<>();
    runs.forEach(run -> futures.add(pool.submit(run)));
    List<T> results = new ArrayList<>();
    try {
      for (Future<T> future : futures) {
        results.add(future.get());
      }
    } catch (ExecutionException e) {
      if (e.getCause() instanceof AssertionError) {
        throw (AssertionError) e.getCause();
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return results;
  }
}
