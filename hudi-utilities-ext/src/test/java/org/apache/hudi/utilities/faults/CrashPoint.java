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

/**
 * Points of a Streamer round at which a fault-injection test kills the Streamer JVM, in the order a round reaches
 * them. A point is armed for one JVM with the system property {@value #PROPERTY}; the injectors in this package halt
 * the JVM there ({@link Runtime#halt}: no shutdown hook, no finally block, no flush, as a kill), with an exit code
 * that tells the test which point fired.
 */
public enum CrashPoint {

  /**
   * Every source has been read and the batch transformed; the target has not been touched (no instant started).
   * Fired by {@link HaltAfterReadTransformer}.
   */
  AFTER_READ(81),

  /**
   * The commit's instant is requested/inflight and its data files are being written. Not fired from inside: the test
   * kills the JVM with SIGKILL when the instant's first data file appears, so the exit code is 128 + 9.
   */
  WHILE_WRITING_FILES(137),

  /**
   * The data files and the metadata table are written; the file that completes the instant on the target's timeline
   * is about to be created. Fired by {@link HaltBeforeCommitCompletesFileSystem}.
   */
  BEFORE_COMMIT_COMPLETES(82),

  /**
   * The commit is complete (instant and checkpoint durable); the post-commit callback runs. Fired by
   * {@link HaltInCommitCallback}.
   */
  IN_COMMIT_CALLBACK(83);

  public static final String PROPERTY = "hudi.ext.test.crash.point";

  private final int exitCode;

  CrashPoint(int exitCode) {
    this.exitCode = exitCode;
  }

  /** The exit status of a Streamer JVM killed at this point. */
  public int exitCode() {
    return exitCode;
  }

  /** Whether this JVM is to be killed by an injector (not from outside). */
  public boolean firedFromInside() {
    return this != WHILE_WRITING_FILES;
  }

  /** The JVM option that arms this point in a Streamer JVM. */
  public String jvmOption() {
    return "-D" + PROPERTY + "=" + name();
  }

  boolean isArmed() {
    return name().equals(System.getProperty(PROPERTY));
  }

  /** Halts the JVM if this point is armed in it. */
  void haltIfArmed(String where) {
    if (isArmed()) {
      System.err.println("FAULT INJECTION: halting the Streamer JVM at " + this + ": " + where);
      System.err.flush();
      Runtime.getRuntime().halt(exitCode);
    }
  }
}
