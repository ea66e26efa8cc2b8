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

import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.exception.HoodieIOException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Reads the content of a completed instant of a table that its own writer may be completing at this very moment: the
 * one place where this plugin reads commit and clean metadata from a timeline (a source's, or a target's from outside
 * the Streamer that writes it).
 *
 * <p>Why a completed instant can be unreadable: Hudi 0.14 completes an instant in
 * {@code HoodieActiveTimeline#transitionState}, which calls {@code HoodieWrapperFileSystem#createImmutableFileInPath}.
 * On HDFS that writes a temporary file and renames it into place; on every other file system it creates the completed
 * file and then writes the metadata into it. On a local or mounted file system (and on stores whose files are visible
 * from their creation, such as ABFS) a listing then shows the instant completed while its file is empty or half
 * written. S3A and GCS show an object only once it is closed. {@code HoodieCommitMetadata#fromBytes} reads an empty
 * file as commit metadata without write stats, so an empty file must never be taken as real metadata: a window read
 * from it would skip the commit's rows while the position moves past them.
 *
 * <p>What it does: a completed instant whose content is empty or does not parse is read again after a short backoff,
 * {@value #ATTEMPTS} times in all (about {@value #BACKOFF_TOTAL_MS} ms). If it is still unreadable, the instant is
 * taken as not yet completed for this batch (empty is returned and the log says so): the caller's window ends before
 * it, and a later batch reads it. An instant that has stayed unreadable for longer than {@link #STUCK_AFTER} since its
 * file was written is no write in progress but a file its writer left broken: that read fails, naming the table, the
 * instant and what to do.
 */
public final class CompletedInstantReader {

  private static final Logger LOG = LoggerFactory.getLogger(CompletedInstantReader.class);

  static final int ATTEMPTS = 6;
  private static final long FIRST_BACKOFF_MS = 20;
  /** 20 + 40 + 80 + 160 + 320 ms between the six attempts. */
  static final long BACKOFF_TOTAL_MS = 620;
  /** Hudi writes a completed instant's content in one write right after creating its file. */
  static final Duration STUCK_AFTER = Duration.ofMinutes(2);

  /** Reads that met an unreadable content at least once, in this JVM: for the log of stress tests. */
  private static final AtomicLong RETRIED_READS = new AtomicLong();
  /** Instants taken as not yet completed after every attempt, in this JVM. */
  private static final AtomicLong INSTANTS_HELD = new AtomicLong();

  /** Waits between two attempts at a read. */
  @FunctionalInterface
  interface Backoff {
    void await(long millis) throws InterruptedException;
  }

  /** A sleep; replaced only by tests, which make a writer finish while a reader backs off rather than race the wait. */
  private static volatile Backoff betweenAttempts = Thread::sleep;

  /** Turns an instant's bytes into its metadata. */
  @FunctionalInterface
  public interface Parser<T> {
    /**
     * @throws IOException or a runtime exception if the bytes are not the metadata (as a half-written file is not)
     */
    T parse(byte[] bytes) throws IOException;
  }

  private CompletedInstantReader() {
  }

  /**
   * Reads a completed instant's metadata, retrying while its file is being written.
   *
   * @param timeline a timeline holding the instant, which reads its content
   * @param instant  a completed instant
   * @param basePath the table's base path, for the log and the error
   * @return the metadata; empty if the instant's file is still being written after every attempt (take the instant as
   *     not yet completed for this batch)
   * @throws HoodieIOException if the file cannot be read at all, or has been unreadable for longer than
   *     {@link #STUCK_AFTER}
   */
  public static <T> Option<T> read(HoodieTimeline timeline, HoodieInstant instant, String basePath, Parser<T> parser) {
    String problem = null;
    long backoff = FIRST_BACKOFF_MS;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt == 2) {
        RETRIED_READS.incrementAndGet();
      }
      if (attempt > 1) {
        sleep(backoff);
        backoff *= 2;
      }
      byte[] content;
      try {
        content = timeline.getInstantDetails(instant).orElse(new byte[0]);
      } catch (HoodieIOException e) {
        // A local file system checks what it reads against a checksum file written beside it, which a half-written
        // file fails; a file that is gone left the timeline (archived, rolled back), which is no write in progress.
        if (e.getCause() instanceof FileNotFoundException) {
          throw e;
        }
        problem = "it cannot be read (" + e.getCause() + ")";
        continue;
      }
      if (content.length == 0) {
        problem = "its file is empty";
        continue;
      }
      try {
        T parsed = parser.parse(content);
        if (attempt > 1) {
          LOG.info("Read {} of {} after {} attempts: its file was being written", instant, basePath, attempt);
        }
        return Option.of(parsed);
      } catch (IOException | RuntimeException e) {
        problem = String.format("its %d bytes do not parse (%s)", content.length, e);
      }
    }
    Option<Instant> written = SourceTimeline.completionTimeOf(instant);
    if (written.isPresent() && Duration.between(written.get(), Instant.now()).compareTo(STUCK_AFTER) > 0) {
      throw new HoodieIOException(String.format("Cannot read completed instant %s of %s: %s, and has been since %s. "
          + "Hudi writes a completed instant's file in one write right after creating it, so its writer most likely "
          + "died while completing it. Nothing was committed. Ask the table's owner to repair its timeline (restore "
          + "the file from the inflight instant's content, or roll the instant back), then run again.", instant,
          basePath, problem, written.get()));
    }
    INSTANTS_HELD.incrementAndGet();
    LOG.warn("Completed instant {} of {} is still being written after {} attempts in {} ms ({}): taken as not yet "
        + "completed for this batch; a later batch reads it", instant, basePath, ATTEMPTS, BACKOFF_TOTAL_MS, problem);
    return Option.empty();
  }

  /**
   * Runs a read that Hudi's own code plans from its own listing of a source's timeline (the stock incremental relation,
   * its schema resolution), again after a backoff while it fails on a completed instant's content: that listing may
   * hold an instant completed after the batch's own, whose file its writer is still writing. Nothing is committed by
   * such a read, so running it again is safe. Other failures, and the last one, are thrown as they are.
   *
   * @param what the read, for the log
   */
  static <T> T retryingHudisRead(String what, Supplier<T> read) {
    long backoff = FIRST_BACKOFF_MS;
    for (int attempt = 1; ; attempt++) {
      try {
        return read.get();
      } catch (RuntimeException e) {
        if (attempt == ATTEMPTS || !isInstantContentFailure(e)) {
          throw e;
        }
        if (attempt == 1) {
          RETRIED_READS.incrementAndGet();
        }
        LOG.info("{} failed on an instant file being written ({}); reading again in {} ms", what, e.getMessage(),
            backoff);
        sleep(backoff);
        backoff *= 2;
      }
    }
  }

  /**
   * Whether Hudi 0.14 failed on a completed instant's content: {@code HoodieCommitMetadata#fromBytes} ("unable to read
   * commit metadata"), {@code HoodieActiveTimeline#readDataFromPath} ("Could not read commit details") or its commit
   * metadata stream ("Failed to fetch HoodieCommitMetadata"), anywhere in the causes.
   */
  private static boolean isInstantContentFailure(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String message = cause.getMessage();
      if (message != null && (message.startsWith("unable to read commit metadata")
          || message.startsWith("Could not read commit details") || message.startsWith("Failed to fetch HoodieCommitMetadata"))) {
        return true;
      }
    }
    return false;
  }

  /** How many reads in this JVM met a completed instant's file while it was being written. */
  public static long retriedReads() {
    return RETRIED_READS.get();
  }

  /** How many times in this JVM an instant was taken as not yet completed after every attempt. */
  public static long instantsHeld() {
    return INSTANTS_HELD.get();
  }

  /**
   * Replaces the wait between attempts, in this JVM.
   *
   * @return the wait it replaced, to put back
   */
  static Backoff backoffWith(Backoff replacement) {
    Backoff replaced = betweenAttempts;
    betweenAttempts = replacement;
    return replaced;
  }

  private static void sleep(long millis) {
    try {
      betweenAttempts.await(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HoodieIOException("Interrupted while waiting for a completed instant's file to be written",
          new IOException(e));
    }
  }
}
