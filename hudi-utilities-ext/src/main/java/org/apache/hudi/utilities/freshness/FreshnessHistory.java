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

package org.apache.hudi.utilities.freshness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The durable freshness history of one pipeline: one small JSON file per measurement in a folder (by default the
 * target's {@code .hoodie/.aux/freshness}), the newest {@code maxEntries} kept.
 *
 * <p>One file per entry rather than one appended file: object stores cannot append, and the commit callback and the
 * reporter may write at the same moment without losing each other's entries. File names start with the measurement
 * time, then the write time, in epoch milliseconds, so name order is time order.
 *
 * <p>On an object store (S3A) each entry is one object, written by a single PUT when the stream closes: readers see it
 * whole or not at all. Writing one costs 4 requests (the PUT; S3A's LIST to check that no directory has the name; its
 * bulk delete of parent directory markers; the LIST to prune), plus a HEAD, a LIST and a DELETE per pruned entry
 * ({@code TestFreshnessHistoryOnS3}). Writers that prune at the same time may delete the same old entry twice, which
 * is harmless, and never delete beyond the newest {@code maxEntries} of their own listing.
 *
 * <p>Entries hold names, positions, states and numbers only, never connection properties.
 */
public final class FreshnessHistory {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SUFFIX = ".json";
  private static final AtomicLong LAST_WRITE_STAMP = new AtomicLong();

  private final FileSystem fs;
  private final Path folder;
  private final int maxEntries;

  private FreshnessHistory(FileSystem fs, Path folder, int maxEntries) {
    this.fs = fs;
    this.folder = folder;
    this.maxEntries = maxEntries;
  }

  public static FreshnessHistory open(String folder, int maxEntries, Configuration conf) throws IOException {
    Path path = new Path(folder);
    return new FreshnessHistory(path.getFileSystem(conf), path, maxEntries);
  }

  /** Writes one entry, then removes the oldest entries beyond the maximum. */
  public void append(PipelineFreshness freshness) throws IOException {
    // The write time breaks ties between measurements taken at the same moment (or with the same injected clock).
    String name = String.format(Locale.ROOT, "%013d-%013d-%s-%s%s", freshness.measuredAt().toEpochMilli(),
        nextWriteStamp(), freshness.observer().name().toLowerCase(Locale.ROOT),
        UUID.randomUUID().toString().substring(0, 8), SUFFIX);
    // Overwrite allowed: the name is new (times and a random suffix), and S3A then skips its probe for a file there.
    try (FSDataOutputStream out = fs.create(new Path(folder, name), true)) {
      out.write(JSON.writeValueAsBytes(toJson(freshness)));
      out.write('\n');
    }
    List<Path> entries = entryFiles();
    for (int i = 0; i < entries.size() - maxEntries; i++) {
      fs.delete(entries.get(i), false);
    }
  }

  /** The wall clock in milliseconds, strictly increasing within this process. */
  private static long nextWriteStamp() {
    return LAST_WRITE_STAMP.updateAndGet(last -> Math.max(last + 1, System.currentTimeMillis()));
  }

  /**
   * The newest entries, oldest first; empty if there is no history. An entry that another writer prunes between the
   * listing and its read is left out (it was among the oldest).
   */
  public List<JsonNode> newest(int limit) throws IOException {
    List<Path> entries = entryFiles();
    return read(entries.subList(Math.max(0, entries.size() - limit), entries.size()));
  }

  private List<JsonNode> read(List<Path> entries) throws IOException {
    List<JsonNode> result = new ArrayList<>();
    for (Path entry : entries) {
      try (InputStream in = fs.open(entry)) {
        result.add(JSON.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      } catch (FileNotFoundException e) {
        // Pruned by a concurrent writer (the callback and the reporter both write): nothing to show for it.
      }
    }
    return result;
  }

  /**
   * The entries a status needs ({@link StatusRules}): those measured at or after {@code from}, and the newest one
   * before it, oldest first. Only those are read: names start with the measurement time.
   */
  public List<JsonNode> since(Instant from) throws IOException {
    List<Path> entries = entryFiles();
    int first = entries.size();
    while (first > 0 && measuredAtMillis(entries.get(first - 1)) >= from.toEpochMilli()) {
      first--;
    }
    return read(entries.subList(Math.max(0, first - 1), entries.size()));
  }

  private static long measuredAtMillis(Path entry) {
    return Long.parseLong(entry.getName().substring(0, entry.getName().indexOf('-')));
  }

  /**
   * The entries in name (time) order. One listing and no existence probe first: on an object store a probe is two more
   * requests (HEAD and LIST), and a missing folder fails the listing anyway.
   */
  private List<Path> entryFiles() throws IOException {
    FileStatus[] statuses;
    try {
      statuses = fs.listStatus(folder, path -> path.getName().endsWith(SUFFIX) && !path.getName().startsWith("."));
    } catch (FileNotFoundException e) {
      return new ArrayList<>();
    }
    return Arrays.stream(statuses).map(FileStatus::getPath)
        .sorted(Comparator.comparing(Path::getName)).collect(Collectors.toList());
  }

  static ObjectNode toJson(PipelineFreshness freshness) {
    ObjectNode entry = JSON.createObjectNode();
    entry.put("pipeline", freshness.pipeline());
    entry.put("basePath", freshness.basePath());
    entry.put("observer", freshness.observer().name());
    entry.put("measuredAt", freshness.measuredAt().toString());
    freshness.checkpoint().commit().ifPresent(commit -> entry.put("commit", commit));
    freshness.checkpoint().checkpoint().ifPresent(checkpoint -> entry.put("checkpoint", checkpoint));
    freshness.searchDepth().ifPresent(depth -> entry.put("searchDepth", depth));
    freshness.maxLag().ifPresent(lag -> entry.put("maxLagSeconds", seconds(lag)));
    freshness.maxSlaRatio().ifPresent(ratio -> entry.put("slaRatio", ratio));
    ArrayNode sources = entry.putArray("sources");
    for (SourceFreshness source : freshness.sources()) {
      ObjectNode node = sources.addObject();
      node.put("source", source.source());
      node.put("kind", source.kind().name());
      node.put("state", source.state().name());
      source.position().ifPresent(position -> node.put("position", position));
      source.oldestVisibleAt().ifPresent(at -> node.put("oldestVisibleAt", at.toString()));
      source.lag().ifPresent(lag -> node.put("lagSeconds", seconds(lag)));
      source.rawLag().ifPresent(raw -> node.put("rawLagSeconds", seconds(raw)));
      source.slaRatio().ifPresent(ratio -> node.put("slaRatio", ratio));
      source.pending().ifPresent(pending -> node.put("pending", pending));
      source.checkpointInLog().ifPresent(inLog -> {
        node.put("recordsLost", inLog.recordsLost());
        node.put("offsetsAheadOfLog", inLog.offsetsAheadOfLog());
      });
      source.reason().ifPresent(reason -> node.put("reason", reason));
      node.put("status", source.status().name());
    }
    return entry;
  }

  private static double seconds(Duration duration) {
    return duration.toMillis() / 1000.0;
  }
}
