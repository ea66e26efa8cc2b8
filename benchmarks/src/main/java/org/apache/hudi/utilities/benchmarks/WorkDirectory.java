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

package org.apache.hudi.utilities.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A benchmark's temporary directory, holding its tables: deleted with everything in it when closed, whether the
 * benchmark finished or failed, and when the JVM exits before that (stopped by a signal, or by {@code System.exit}
 * from another thread): the tables of one run can take gigabytes.
 */
final class WorkDirectory implements AutoCloseable {

  private final Path root;
  private final Thread deleteAtExit;

  private WorkDirectory(Path root) {
    this.root = root;
    this.deleteAtExit = new Thread(() -> {
      try {
        delete();
      } catch (IOException e) {
        System.err.println("Cannot delete benchmark directory " + root + ": " + e.getMessage());
      }
    });
    Runtime.getRuntime().addShutdownHook(deleteAtExit);
  }

  /** A new empty directory under the system's temporary directory, its name starting with {@code prefix}. */
  static WorkDirectory create(String prefix) throws IOException {
    return new WorkDirectory(Files.createTempDirectory(prefix));
  }

  /** A path in this directory. */
  Path resolve(String name) {
    return root.resolve(name);
  }

  /** The base path of a table in this directory, as Hudi and Spark take it (a {@code file:} URI). */
  String tablePath(String name) {
    return resolve(name).toUri().toString();
  }

  /** A new empty file in this directory, its name starting with {@code prefix} and ending with {@code suffix}. */
  Path createFile(String prefix, String suffix) throws IOException {
    return Files.createTempFile(root, prefix, suffix);
  }

  /** A new SQL file in this directory holding {@code text}; its {@code file:} URI, as the SQL file transformers take it. */
  String sqlFile(String text) {
    try {
      Path file = createFile("batch", ".sql");
      Files.writeString(file, text);
      return file.toUri().toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws IOException {
    delete();
    Runtime.getRuntime().removeShutdownHook(deleteAtExit);
  }

  private synchronized void delete() throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(root)) {
      paths = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
    }
    for (Path path : paths) {
      Files.delete(path);
    }
  }
}
