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

import org.apache.hudi.common.table.HoodieTableMetaClient;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.util.Progressable;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;

/**
 * S3A, with one fault for executor-loss tests: the first data file of a table (a parquet or log file outside
 * {@code .hoodie}) that any JVM of the job starts to write holds that writing thread until the JVM is killed, after
 * recording the JVM's pid in {@code <dir>/held}, {@code dir} named by the environment variable {@value #DIR_VARIABLE}.
 * The test thus knows which executor to kill, and that it dies in the middle of a task that writes a data file. Only
 * one write is held: the first JVM to create {@code <dir>/claim} (an atomic create on the local disk that every JVM of
 * a test cluster shares) holds; every later write, the task's retry included, proceeds.
 *
 * <p>Installed with {@code spark.hadoop.fs.s3a.impl=<this class>}, the class in {@code --jars}, and the directory in
 * {@code spark.executorEnv.HOLD_DATA_FILE_WRITE_DIR}; JVMs without the variable are plain S3A.
 */
public class HoldFirstDataFileWriteS3AFileSystem extends S3AFileSystem {

  public static final String DIR_VARIABLE = "HOLD_DATA_FILE_WRITE_DIR";
  /** The file that names the pid of the JVM holding a write, once one does. */
  public static final String HELD_FILE = "held";

  @Override
  public FSDataOutputStream create(Path file, FsPermission permission, boolean overwrite, int bufferSize,
                                   short replication, long blockSize, Progressable progress) throws IOException {
    holdIfFirstDataFile(file);
    return super.create(file, permission, overwrite, bufferSize, replication, blockSize, progress);
  }

  private static void holdIfFirstDataFile(Path file) throws IOException {
    String dir = System.getenv(DIR_VARIABLE);
    String name = file.getName();
    boolean dataFile = name.endsWith(".parquet") || name.contains(".log.");
    if (dir == null || !dataFile || file.toUri().getPath().contains("/" + HoodieTableMetaClient.METAFOLDER_NAME + "/")
        || !new File(dir, "claim").createNewFile()) {
      return;
    }
    java.nio.file.Path held = new File(dir, HELD_FILE).toPath();
    java.nio.file.Path written = Files.writeString(held.resolveSibling(HELD_FILE + ".tmp"),
        ProcessHandle.current().pid() + " " + file, StandardCharsets.UTF_8);
    Files.move(written, held, StandardCopyOption.ATOMIC_MOVE);
    try {
      Thread.sleep(Long.MAX_VALUE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("held write of " + file + " interrupted");
    }
  }
}
