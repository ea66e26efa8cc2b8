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

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The local file system, recording every read request made through it (a listing, a status, an open), as an object
 * store would bill them: one per call. Installed for {@code file:} paths of one Hadoop configuration, uncached, so that
 * every {@code FileSystem.get} on it records.
 */
final class ReadCountingFileSystem extends LocalFileSystem {

  private static final List<String> READS = new CopyOnWriteArrayList<>();

  static void install(Configuration conf) {
    conf.set("fs.file.impl", ReadCountingFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
  }

  static void reset() {
    READS.clear();
  }

  /** The reads of paths under {@code folder} (a path or URI) since the last reset, each as "operation path". */
  static List<String> readsUnder(String folder, String... excludedSubfolders) {
    String prefix = new Path(folder).toUri().getPath();
    List<String> reads = new CopyOnWriteArrayList<>();
    for (String read : READS) {
      String path = read.substring(read.indexOf(' ') + 1);
      boolean excluded = false;
      for (String subfolder : excludedSubfolders) {
        excluded |= path.startsWith(prefix + "/" + subfolder);
      }
      if ((path.equals(prefix) || path.startsWith(prefix + "/")) && !excluded) {
        reads.add(read);
      }
    }
    return reads;
  }

  private static void record(String operation, Path path) {
    READS.add(operation + " " + path.toUri().getPath());
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    record("open", path);
    return super.open(path, bufferSize);
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    record("list", path);
    return super.listStatus(path);
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    record("status", path);
    return super.getFileStatus(path);
  }
}
