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
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

import java.io.IOException;
import java.util.regex.Pattern;

/**
 * The local file system, with one fault: when {@link CrashPoint#BEFORE_COMMIT_COMPLETES} is armed, the JVM halts
 * as the file that completes a write on a table's timeline ({@code <tablePath>/.hoodie/<instant>.commit}, or
 * {@code .deltacommit} on a MERGE_ON_READ table) is about to be created or renamed into place. Hudi writes it last,
 * after the data files, their finalization and the metadata table, so the halt leaves a fully written but uncommitted
 * instant. The metadata table's own timeline ({@code .hoodie/metadata/.hoodie}, whose delta commits and compactions
 * complete there) never matches.
 *
 * <p>Installed in a Streamer JVM with {@code -Dspark.hadoop.fs.file.impl=<this class>}.
 */
public class HaltBeforeCommitCompletesFileSystem extends LocalFileSystem {

  private static final Pattern COMPLETED_COMMIT = Pattern.compile("\\d{14,}\\.(commit|deltacommit)");

  @Override
  public FSDataOutputStream create(Path file, FsPermission permission, boolean overwrite, int bufferSize,
                                   short replication, long blockSize, Progressable progress) throws IOException {
    haltIfCompletingACommit(file);
    return super.create(file, permission, overwrite, bufferSize, replication, blockSize, progress);
  }

  @Override
  public boolean rename(Path source, Path destination) throws IOException {
    haltIfCompletingACommit(destination);
    return super.rename(source, destination);
  }

  /** Halts the JVM if {@link CrashPoint#BEFORE_COMMIT_COMPLETES} is armed and {@code file} completes a commit. */
  static void haltIfCompletingACommit(Path file) {
    Path timeline = file.getParent();
    if (timeline != null && HoodieTableMetaClient.METAFOLDER_NAME.equals(timeline.getName())
        && COMPLETED_COMMIT.matcher(file.getName()).matches() && !isMetadataTableTimeline(timeline)) {
      CrashPoint.BEFORE_COMMIT_COMPLETES.haltIfArmed("about to create " + file);
    }
  }

  /** {@code <tablePath>/.hoodie/metadata/.hoodie}: the metadata table commits its compactions there. */
  private static boolean isMetadataTableTimeline(Path timeline) {
    Path table = timeline.getParent();
    return table != null && table.getParent() != null && "metadata".equals(table.getName())
        && HoodieTableMetaClient.METAFOLDER_NAME.equals(table.getParent().getName());
  }
}
