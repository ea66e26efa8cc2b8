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

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.util.Progressable;

import java.io.IOException;

/**
 * {@link HaltBeforeCommitCompletesFileSystem} on S3: S3A, halting the JVM as the object that completes a commit on a
 * table's timeline is about to be written, when {@link CrashPoint#BEFORE_COMMIT_COMPLETES} is armed in the JVM.
 *
 * <p>Installed with {@code spark.hadoop.fs.s3a.impl=<this class>}; the class must then reach every JVM that opens an
 * {@code s3a://} path (for a cluster job, {@code --jars}), but only the driver, where the property is set, halts.
 */
public class HaltBeforeCommitCompletesS3AFileSystem extends S3AFileSystem {

  @Override
  public FSDataOutputStream create(Path file, FsPermission permission, boolean overwrite, int bufferSize,
                                   short replication, long blockSize, Progressable progress) throws IOException {
    HaltBeforeCommitCompletesFileSystem.haltIfCompletingACommit(file);
    return super.create(file, permission, overwrite, bufferSize, replication, blockSize, progress);
  }

  @Override
  public boolean rename(Path source, Path destination) throws IOException {
    HaltBeforeCommitCompletesFileSystem.haltIfCompletingACommit(destination);
    return super.rename(source, destination);
  }
}
