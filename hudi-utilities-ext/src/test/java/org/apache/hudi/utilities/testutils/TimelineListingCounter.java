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

package org.apache.hudi.utilities.testutils;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local file system, counting how often each Hudi table's timeline folder ({@code <base>/.hoodie}) is listed (one
 * listing per timeline load), how often its {@code hoodie.properties} is opened (one per meta client built) and how
 * often its instant files are (a commit's metadata read) and its archive folder is listed.
 * Installed for {@code file:} paths of one Hadoop configuration by {@link #install}, uncached so that every
 * {@code FileSystem.get} on that configuration returns a counting instance.
 */
public final class TimelineListingCounter extends LocalFileSystem {

  private static final Map<String, AtomicInteger> LISTINGS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> PROPERTIES_READS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> INSTANT_READS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> ARCHIVE_LISTINGS = new ConcurrentHashMap<>();

  /** Counts listings of {@code file:} paths made through {@code conf} from now until {@link #uninstall}. */
  public static void install(Configuration conf) {
    conf.set("fs.file.impl", TimelineListingCounter.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    reset();
  }

  public static void uninstall(Configuration conf) {
    conf.unset("fs.file.impl");
    conf.unset("fs.file.impl.disable.cache");
  }

  public static void reset() {
    LISTINGS.clear();
    PROPERTIES_READS.clear();
    INSTANT_READS.clear();
    ARCHIVE_LISTINGS.clear();
  }

  /** How often the timeline of the table at {@code basePath} was listed since the last reset. */
  public static int timelineListings(String basePath) {
    AtomicInteger count = LISTINGS.get(new Path(basePath, ".hoodie").toUri().getPath());
    return count == null ? 0 : count.get();
  }

  /** How often the {@code hoodie.properties} of the table at {@code basePath} was opened since the last reset. */
  public static int propertiesReads(String basePath) {
    AtomicInteger count = PROPERTIES_READS.get(new Path(new Path(basePath, ".hoodie"), "hoodie.properties").toUri().getPath());
    return count == null ? 0 : count.get();
  }

  /** How often the archive folder ({@code <base>/.hoodie/archived}) of the table at {@code basePath} was listed. */
  public static int archiveListings(String basePath) {
    AtomicInteger count = ARCHIVE_LISTINGS.get(new Path(new Path(basePath, ".hoodie"), "archived").toUri().getPath());
    return count == null ? 0 : count.get();
  }

  /** How often an instant file in the timeline folder of the table at {@code basePath} was opened since the last reset. */
  public static int instantReads(String basePath) {
    AtomicInteger count = INSTANT_READS.get(new Path(basePath, ".hoodie").toUri().getPath());
    return count == null ? 0 : count.get();
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    if (path.getName().equals("hoodie.properties")) {
      PROPERTIES_READS.computeIfAbsent(path.toUri().getPath(), key -> new AtomicInteger()).incrementAndGet();
    } else if (path.getParent().getName().equals(".hoodie") && Character.isDigit(path.getName().charAt(0))) {
      INSTANT_READS.computeIfAbsent(path.getParent().toUri().getPath(), key -> new AtomicInteger()).incrementAndGet();
    }
    return super.open(path, bufferSize);
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    if (path.getName().equals(".hoodie")) {
      LISTINGS.computeIfAbsent(path.toUri().getPath(), key -> new AtomicInteger()).incrementAndGet();
    } else if (path.getName().equals("archived") && path.getParent().getName().equals(".hoodie")) {
      ARCHIVE_LISTINGS.computeIfAbsent(path.toUri().getPath(), key -> new AtomicInteger()).incrementAndGet();
    }
    return super.listStatus(path);
  }
}
