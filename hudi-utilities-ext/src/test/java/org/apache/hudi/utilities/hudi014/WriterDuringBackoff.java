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

package org.apache.hudi.utilities.hudi014;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A writer that finishes an instant's file while a {@link CompletedInstantReader} backs off from it: the reader meets the
 * unfinished file, waits, and its next attempt finds the file whole, in that order on any machine (a writer thread
 * racing the reader's 620 ms of backoff loses the race on a loaded one). Until closed, in this JVM.
 */
public final class WriterDuringBackoff implements AutoCloseable {

  private final AtomicBoolean finished = new AtomicBoolean();
  private final Runnable writer;
  private final CompletedInstantReader.Backoff replaced;

  private WriterDuringBackoff(Runnable writer) {
    this.writer = writer;
    this.replaced = CompletedInstantReader.backoffWith(this::await);
  }

  /** The first read to back off runs {@code writer} during its wait; later ones wait as usual. */
  public static WriterDuringBackoff finishing(Runnable writer) {
    return new WriterDuringBackoff(writer);
  }

  /** Whether a reader met the unfinished file and the writer finished it. */
  public boolean finished() {
    return finished.get();
  }

  private void await(long millis) throws InterruptedException {
    if (finished.compareAndSet(false, true)) {
      writer.run();
    } else {
      replaced.await(millis);
    }
  }

  @Override
  public void close() {
    CompletedInstantReader.backoffWith(replaced);
  }
}
