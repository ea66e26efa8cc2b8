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

package org.apache.hudi.utilities.sources.multi;

import org.apache.hudi.exception.HoodieException;
import org.apache.hudi.utilities.config.SourceTable;

import org.apache.spark.sql.SparkSession;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * Runs one task per table, at most {@code parallelism} at a time, and returns the results in table order, so that
 * the caller cannot tell a parallel run from a sequential one except by its duration.
 *
 * <p>A task that fails fails the whole call, with the exception of the first failed table in table order (the one a
 * sequential run would have thrown; those of the other tables that failed are attached as suppressed), and only after
 * every task has stopped: no read of this batch is still running when the batch fails. Tables not started when one
 * fails are not started.
 */
public final class ParallelTableTasks {

  private static final AtomicInteger POOLS = new AtomicInteger();

  private final int parallelism;
  private final SparkSession spark;

  /**
   * @param parallelism the most tasks running at once; 1 runs them one after another on the caller's thread
   * @param spark       the session the tasks use, made their active session (Hudi and Spark look it up per thread)
   */
  public ParallelTableTasks(int parallelism, SparkSession spark) {
    checkArgument(parallelism > 0, "Cannot run table tasks with parallelism " + parallelism + ": it must be positive");
    this.parallelism = parallelism;
    this.spark = spark;
  }

  /** The results of {@code task} for each table, in table order. */
  public <T> List<T> map(List<SourceTable> tables, Function<SourceTable, T> task) {
    int threads = Math.min(parallelism, tables.size());
    if (threads <= 1) {
      return tables.stream().map(task).collect(Collectors.toList());
    }
    String namePrefix = "hudi-incr-multi-read-" + POOLS.incrementAndGet() + "-";
    AtomicInteger threadCount = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, namePrefix + threadCount.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    // The index of the first table, in table order, whose task failed so far.
    AtomicInteger firstFailed = new AtomicInteger(Integer.MAX_VALUE);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < tables.size(); i++) {
        int index = i;
        SourceTable table = tables.get(i);
        futures.add(pool.submit(() -> {
          if (firstFailed.get() < index) {
            // The batch fails anyway: a table after a failed one need not start. A table before it still runs (it may
            // have been picked up later than the failed one), so the first failure in table order is the sequential one.
            return null;
          }
          SparkSession.setActiveSession(spark);
          try {
            return task.apply(table);
          } catch (RuntimeException | Error e) {
            firstFailed.accumulateAndGet(index, Math::min);
            throw e;
          } finally {
            SparkSession.clearActiveSession();
          }
        }));
      }
      return collect(futures);
    } finally {
      pool.shutdown();
      awaitStopped(pool);
    }
  }

  private static <T> List<T> collect(List<Future<T>> futures) {
    List<T> results = new ArrayList<>();
    RuntimeException failure = null;
    for (Future<T> future : futures) {
      try {
        T result = future.get();
        if (failure == null) {
          results.add(result);
        }
      } catch (ExecutionException e) {
        RuntimeException cause = unchecked(e.getCause());
        if (failure == null) {
          failure = cause;
        } else if (cause != failure) {
          failure.addSuppressed(cause);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        futures.forEach(pending -> pending.cancel(true));
        throw new HoodieException("Interrupted while reading the source tables", e);
      }
    }
    if (failure != null) {
      throw failure;
    }
    return results;
  }

  private static RuntimeException unchecked(Throwable cause) {
    if (cause instanceof Error) {
      throw (Error) cause;
    }
    return cause instanceof RuntimeException ? (RuntimeException) cause : new HoodieException(cause);
  }

  private static void awaitStopped(ExecutorService pool) {
    try {
      // A failed batch must not leave a read of it running.
      pool.awaitTermination(Long.MAX_VALUE, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
