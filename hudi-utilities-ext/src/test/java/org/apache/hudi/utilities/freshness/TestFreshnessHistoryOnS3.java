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

import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.testutils.S3ProxyServer;
import org.apache.hudi.utilities.testutils.S3Requests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The freshness history on object storage (a real S3 endpoint through S3A, no Spark): every entry is one object
 * written whole by one PUT, never appended to; the history is pruned to its newest entries by deletes; and writers
 * recording at the same moment (the commit callback and the reporter) while someone reads the history lose nothing and
 * leave no partial object.
 */
class TestFreshnessHistoryOnS3 {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");
  private static final FreshnessPolicy POLICY = FreshnessPolicy.of(Duration.ofMinutes(60), Duration.ofDays(7));

  @TempDir
  static Path shared;

  private static S3ProxyServer s3;
  private static String bucket;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = S3ProxyServer.start(shared.resolve("s3proxy"), "AKIDHISTORYTEST8R2M", "history-secret-0c7e41b9");
    bucket = s3.createBucket("freshness-history");
  }

  @AfterAll
  static void stopS3() throws Exception {
    if (s3 != null) {
      s3.unconfigure(client());
      s3.close();
    }
  }

  @Test
  void eachEntryIsOneObjectWrittenWholeByOnePutAndTheHistoryIsPrunedByDeletes() throws Exception {
    String folder = bucket + "/pruned/.hoodie/.aux/freshness";
    Configuration conf = client();
    FileSystem fs = FileSystem.get(URI.create(folder), conf);
    FreshnessHistory history = FreshnessHistory.open(folder, 3, conf);

    for (int i = 0; i < 5; i++) {
      S3Requests before = S3Requests.of(bucket, conf);
      history.append(measurementAt(T0.plus(Duration.ofMinutes(i)), i, Observer.CALLBACK));
      S3Requests used = S3Requests.of(bucket, conf).since(before);
      System.out.printf("S3 requests of history entry %d (max 3 kept): %s%n", i + 1, used);
      assertEquals(1, used.count("PUT"), "one PUT per entry: " + used);
      assertEquals(i < 3 ? 0 : 1, used.count("HEAD"), "no probe for a file at a new entry's name, a HEAD per pruned "
          + "entry: " + used);
      assertEquals(0, used.counter("object_multipart_initiated"), "no multipart upload: " + used);
      assertEquals(0, used.count("COPY"), "no copy (rename) of entries: " + used);
      assertEquals(i < 3 ? 0 : 1, used.counter("files_deleted"), "the oldest entry beyond 3: " + used);
    }

    List<FileStatus> objects = objects(fs, folder);
    assertEquals(3, objects.size(), objects.toString());
    List<String> kept = new ArrayList<>();
    for (FileStatus object : objects) {
      String text = read(fs, object);
      assertEquals(object.getLen(), text.getBytes(StandardCharsets.UTF_8).length);
      assertTrue(text.endsWith("}\n"), "written whole: " + text);
      kept.add(JSON.readTree(text).get("measuredAt").asText());
    }
    assertEquals(List.of(T0.plus(Duration.ofMinutes(2)).toString(), T0.plus(Duration.ofMinutes(3)).toString(),
        T0.plus(Duration.ofMinutes(4)).toString()), kept);
    assertEquals(kept, history.newest(10).stream().map(entry -> entry.get("measuredAt").asText())
        .collect(Collectors.toList()));
  }

  @Test
  void twoWritersRecordingAtOnceWhileTheHistoryIsReadLoseNoEntryAndLeaveNoPartialObject() throws Exception {
    String folder = bucket + "/raced/.hoodie/.aux/freshness";
    int maxEntries = 4;
    int rounds = 8;
    // Two processes in production (the Streamer's callback, the reporter): two S3 clients here, each its own history.
    FreshnessHistory callback = FreshnessHistory.open(folder, maxEntries, uncachedClient());
    FreshnessHistory reporter = FreshnessHistory.open(folder, maxEntries, uncachedClient());
    FreshnessHistory reader = FreshnessHistory.open(folder, maxEntries, uncachedClient());
    CyclicBarrier bothReady = new CyclicBarrier(2);
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService threads = Executors.newFixedThreadPool(3);
    try {
      Future<Integer> reads = threads.submit(() -> {
        int count = 0;
        while (writing.get()) {
          // Lists, then reads each listed entry, while writers add and prune: must never fail.
          reader.newest(maxEntries).forEach(entry -> assertTrue(entry.has("measuredAt"), entry.toString()));
          count++;
        }
        return count;
      });
      for (int round = 0; round < rounds; round++) {
        Instant at = T0.plus(Duration.ofMinutes(round));
        Future<?> first = threads.submit(racing(bothReady, () -> callback.append(measurementAt(at, 1, Observer.CALLBACK))));
        Future<?> second = threads.submit(racing(bothReady, () -> reporter.append(measurementAt(at, 2,
            Observer.REPORTER))));
        first.get(60, TimeUnit.SECONDS);
        second.get(60, TimeUnit.SECONDS);

        List<JsonNode> newest = reader.newest(2);
        assertEquals(List.of(at.toString(), at.toString()), newest.stream().map(entry -> entry.get("measuredAt")
            .asText()).collect(Collectors.toList()), "both entries of round " + round);
        assertEquals(List.of("CALLBACK", "REPORTER"), newest.stream().map(entry -> entry.get("observer").asText())
            .sorted().collect(Collectors.toList()));
      }
      writing.set(false);
      System.out.printf("History raced on S3: %d rounds of 2 writers, %d concurrent reads%n", rounds,
          reads.get(60, TimeUnit.SECONDS));
    } finally {
      writing.set(false);
      threads.shutdownNow();
    }

    FileSystem fs = FileSystem.get(URI.create(folder), client());
    List<FileStatus> objects = objects(fs, folder);
    assertEquals(maxEntries, objects.size(), "pruned to the newest, nothing else left: " + objects);
    for (FileStatus object : objects) {
      String text = read(fs, object);
      assertEquals(object.getLen(), text.getBytes(StandardCharsets.UTF_8).length);
      JSON.readTree(text);
    }
  }

  private static Callable<Void> racing(CyclicBarrier barrier, ThrowingRunnable append) {
    return () -> {
      barrier.await(30, TimeUnit.SECONDS);
      append.run();
      return null;
    };
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static PipelineFreshness measurementAt(Instant at, long lagMinutes, Observer observer) {
    return new PipelineFreshness("joined", bucket + "/joined", observer, at,
        StoredCheckpoint.found("2026113011000000" + lagMinutes % 10, "orders=1,users=2", 1), List.of(
            SourceFreshness.measure("orders", SourceKind.HUDI, "1",
                QueueHead.waitingSince(at.minus(Duration.ofMinutes(lagMinutes)), 2), at, POLICY),
            SourceFreshness.noCheckpoint("users", SourceKind.HUDI)));
  }

  /** Every object under the folder, whatever its name: what a person listing the bucket would see. */
  private static List<FileStatus> objects(FileSystem fs, String folder) throws Exception {
    List<FileStatus> objects = new ArrayList<>();
    org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
        fs.listFiles(new org.apache.hadoop.fs.Path(folder), true);
    while (files.hasNext()) {
      objects.add(files.next());
    }
    objects.sort((a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
    return objects;
  }

  private static String read(FileSystem fs, FileStatus object) throws Exception {
    try (InputStream in = fs.open(object.getPath())) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Configuration client() {
    Configuration conf = new Configuration();
    s3.configure(conf);
    return conf;
  }

  private static Configuration uncachedClient() {
    Configuration conf = client();
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    return conf;
  }
}
