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

package org.apache.hudi.utilities.faults;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.keygen.NonpartitionedKeyGenerator;

import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

import java.io.File;
import java.net.URI;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * The non-partitioned key generator, with one fault: once {@link #pauseNextWriteTo armed}, the first record key asked
 * for while the target has a commit pending (the writer's own, between its {@code startCommit} and its commit) blocks
 * until the test releases it. The Streamer asks for keys in the Spark tasks of its write, after starting its commit
 * and noting the last completed commit its conflict check starts from; so whatever another writer commits during the
 * pause lands inside the paused writer's window. Keys asked for before the commit starts (the Streamer's emptiness
 * check) pass. Spark's local mode runs the tasks in the test's JVM, which shares the armed pause.
 */
public class PauseWhileWritingKeyGenerator extends NonpartitionedKeyGenerator {

  private static final Pattern PENDING_COMMIT = Pattern.compile("(\\d{14,}\\.(?:delta)?commit)\\.(?:requested|inflight)");
  private static final AtomicReference<Pause> ARMED = new AtomicReference<>();

  public PauseWhileWritingKeyGenerator(TypedProperties props) {
    super(props);
  }

  /** Arms one pause of the next writer that asks for a key while the table at {@code localTablePath} has a commit pending. */
  public static Pause pauseNextWriteTo(String localTablePath) {
    Pause pause = new Pause(new File(URI.create(localTablePath)));
    if (!ARMED.compareAndSet(null, pause)) {
      throw new IllegalStateException("a pause is armed already");
    }
    return pause;
  }

  @Override
  public String getRecordKey(GenericRecord record) {
    pauseIfWriting();
    return super.getRecordKey(record);
  }

  @Override
  public String getRecordKey(Row row) {
    pauseIfWriting();
    return super.getRecordKey(row);
  }

  @Override
  public UTF8String getRecordKey(InternalRow row, StructType schema) {
    pauseIfWriting();
    return super.getRecordKey(row, schema);
  }

  private static void pauseIfWriting() {
    Pause pause = ARMED.get();
    if (pause != null && pause.hasPendingCommit() && ARMED.compareAndSet(pause, null)) {
      pause.holdUntilReleased();
    }
  }

  /** One armed pause: the test waits until a writer is held, acts, then releases it. */
  public static final class Pause {
    private final File timeline;
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    private Pause(File table) {
      this.timeline = new File(table, HoodieTableMetaClient.METAFOLDER_NAME);
    }

    /** Whether a commit was started and not completed (Hudi keeps the requested and inflight files of completed ones). */
    private boolean hasPendingCommit() {
      String[] names = timeline.list();
      if (names == null) {
        return false;
      }
      Set<String> files = new HashSet<>(Arrays.asList(names));
      return files.stream().map(PENDING_COMMIT::matcher).anyMatch(pending -> pending.matches()
          && !files.contains(pending.group(1)));
    }

    private void holdUntilReleased() {
      held.countDown();
      try {
        if (!released.await(10, TimeUnit.MINUTES)) {
          throw new IllegalStateException("the paused writer was never released");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while paused", e);
      }
    }

    /** Waits until a writer is held in its write. */
    public void awaitHeld(long timeout, TimeUnit unit) throws InterruptedException {
      if (!held.await(timeout, unit)) {
        ARMED.compareAndSet(this, null);
        throw new AssertionError("no writer reached its write within " + timeout + " " + unit);
      }
    }

    public void release() {
      ARMED.compareAndSet(this, null);
      released.countDown();
    }
  }
}
