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

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

import java.net.URI;
import java.util.concurrent.CountDownLatch;

/**
 * A file system ({@code hang:} scheme) whose every request waits, deaf to interrupts, until released: a store that
 * accepts the connection and never answers, as an S3 endpoint does while S3A waits out its 200 s socket timeout.
 */
public final class HangingFileSystem extends FileSystem {

  private static volatile CountDownLatch released = new CountDownLatch(1);

  /** Requests made from now on hang until {@link #release}. */
  static void hangFromNowOn() {
    released = new CountDownLatch(1);
  }

  /** Every hanging request returns (failing). */
  static void release() {
    released.countDown();
  }

  private static <T> T hang() {
    awaitIgnoringInterrupts(released);
    throw new IllegalStateException("the hanging store was released without an answer");
  }

  /** Waits as a socket read does: deaf to interrupts, which it keeps for the caller. */
  static void awaitIgnoringInterrupts(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public URI getUri() {
    return URI.create("hang:///");
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) {
    return hang();
  }

  @Override
  public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize,
                                   short replication, long blockSize, Progressable progress) {
    return hang();
  }

  @Override
  public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) {
    return hang();
  }

  @Override
  public boolean rename(Path source, Path destination) {
    return hang();
  }

  @Override
  public boolean delete(Path path, boolean recursive) {
    return hang();
  }

  @Override
  public FileStatus[] listStatus(Path path) {
    return hang();
  }

  @Override
  public void setWorkingDirectory(Path directory) {
  }

  @Override
  public Path getWorkingDirectory() {
    return new Path("hang:///");
  }

  @Override
  public boolean mkdirs(Path path, FsPermission permission) {
    return hang();
  }

  @Override
  public FileStatus getFileStatus(Path path) {
    return hang();
  }
}
