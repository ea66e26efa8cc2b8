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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.config.SourceTable;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Running per-table tasks at most N at a time: results in table order, the bound, failures reported as a sequential
 * run would report them and only once every task has stopped. Latches make the interleavings certain; their waits are
 * bounded only so that a broken implementation fails instead of hanging.
 */
class TestParallelTableTasks {

  private static final long NEVER_SECONDS = 60;

  private static List<SourceTable> tables(String... names) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", String.join(",", names));
    Arrays.stream(names).forEach(name -> props.setProperty("hoodie.streamer.source.hudi." + name + ".path", "/" + name));
    return MultiTableReadConf.from(props).tables();
  }

  private static ParallelTableTasks tasks(int parallelism) {
    return new ParallelTableTasks(parallelism, SharedSpark.session());
  }

  @Test
  void tablesRunAtTheSameTimeAndResultsComeInTableOrder() {
    CountDownLatch secondStarted = new CountDownLatch(1);

    List<String> results = tasks(2).map(tables("orders", "users"), table -> {
      if (table.name().equals("users")) {
        secondStarted.countDown();
        return "users done first";
      }
      return await(secondStarted) ? "orders done after users started" : "orders ran alone";
    });

    assertEquals(List.of("orders done after users started", "users done first"), results);
  }

  @Test
  void neverMoreTablesAtOnceThanTheParallelism() {
    CyclicBarrier pairs = new CyclicBarrier(2);
    Set<String> threads = ConcurrentHashMap.newKeySet();

    List<String> results = tasks(2).map(tables("a", "b", "c", "d"), table -> {
      threads.add(Thread.currentThread().getName());
      await(pairs); // only two tables can meet here at a time
      return table.name();
    });

    assertEquals(List.of("a", "b", "c", "d"), results);
    assertEquals(2, threads.size(), threads.toString());
  }

  @Test
  void parallelismOneRunsTheTablesOneAfterAnotherOnTheCallersThread() {
    String caller = Thread.currentThread().getName();

    List<String> threads = tasks(1).map(tables("a", "b", "c"), table -> Thread.currentThread().getName());

    assertEquals(List.of(caller, caller, caller), threads);
  }

  @Test
  void everyTaskRunsWithTheSparkSessionActive() {
    SparkSession spark = SharedSpark.session();

    List<Boolean> active = tasks(3).map(tables("a", "b", "c"),
        table -> SparkSession.getActiveSession().isDefined() && SparkSession.getActiveSession().get() == spark);

    assertEquals(List.of(true, true, true), active);
  }

  @Test
  void theFirstFailedTableInTableOrderFailsTheCallWithTheOthersSuppressed() {
    CyclicBarrier allStarted = new CyclicBarrier(3);
    CountDownLatch laterTablesFailed = new CountDownLatch(2);

    IllegalStateException failure = assertThrows(IllegalStateException.class,
        () -> tasks(3).map(tables("orders", "users", "items"), table -> {
          await(allStarted); // no table fails before all have started, so none is left unstarted
          if (!table.name().equals("orders")) {
            laterTablesFailed.countDown();
            throw new IllegalStateException(table.name() + " broke");
          }
          await(laterTablesFailed);
          throw new IllegalStateException("orders broke");
        }));

    assertEquals("orders broke", failure.getMessage(), "the table a sequential run would have failed on");
    Set<String> suppressed = Arrays.stream(failure.getSuppressed()).map(Throwable::getMessage).collect(Collectors.toSet());
    assertEquals(new HashSet<>(List.of("users broke", "items broke")), suppressed);
  }

  @Test
  void failedCallReturnsOnlyAfterEveryOtherTableHasStopped() {
    CountDownLatch usersStarted = new CountDownLatch(1);
    CountDownLatch ordersFailed = new CountDownLatch(1);
    AtomicBoolean usersFinished = new AtomicBoolean();

    assertThrows(IllegalStateException.class, () -> tasks(2).map(tables("orders", "users"), table -> {
      if (table.name().equals("orders")) {
        await(usersStarted);
        ordersFailed.countDown();
        throw new IllegalStateException("orders broke");
      }
      usersStarted.countDown();
      await(ordersFailed);
      usersFinished.set(true);
      return "users";
    }));

    assertTrue(usersFinished.get(), "users was still being read when the batch failed");
  }

  @Test
  void parallelismMustBePositive() {
    IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> tasks(0));
    assertTrue(failure.getMessage().startsWith("Cannot run table tasks with parallelism 0"), failure.getMessage());
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(NEVER_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean await(CountDownLatch latch) {
    try {
      return latch.await(NEVER_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
