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

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Counts the S3 requests of one bucket by table, from the request lines a {@link DelayingProxy} sees: the table is the
 * first folder of the key ({@code /bucket/t0001/.hoodie/...}) or, for a listing, of its {@code prefix}. Requests under a
 * table's freshness history ({@code .hoodie/.aux/freshness}) are counted apart from the table's own.
 */
final class S3RequestsByTable implements Consumer<String> {

  private static final String HISTORY_FOLDER = "/.hoodie/.aux/freshness";

  private final String bucket;
  private final Map<String, LongAdder> tables = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> histories = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> kinds = new ConcurrentHashMap<>();

  S3RequestsByTable(String bucket) {
    this.bucket = bucket;
  }

  @Override
  public void accept(String requestLine) {
    String[] parts = requestLine.split(" ");
    if (parts.length < 2 || !parts[1].startsWith("/")) {
      // The body of a PUT sent after "100 Continue": not a request.
      return;
    }
    URI target = URI.create(parts[1]);
    String path = target.getRawPath();
    String bucketPath = "/" + bucket;
    if (!path.equals(bucketPath) && !path.startsWith(bucketPath + "/")) {
      return;
    }
    String key = decode(path.substring(Math.min(path.length(), bucketPath.length() + 1)));
    boolean listing = key.isEmpty();
    if (listing) {
      key = queryParameter(target.getRawQuery(), "prefix");
    }
    if (listing && "POST".equals(parts[0])) {
      // A multi-object delete: S3A's clean-up of directory markers after a write, here only the history's.
      key = "(directory markers after a write)" + HISTORY_FOLDER;
    }
    int slash = key.indexOf('/');
    String table = slash < 0 ? key : key.substring(0, slash);
    boolean history = ("/" + key).contains(HISTORY_FOLDER);
    (history ? histories : tables).computeIfAbsent(table, name -> new LongAdder()).increment();
    String kind = listing && "GET".equals(parts[0]) ? "LIST" : parts[0];
    kinds.computeIfAbsent((history ? "history " : "table ") + kind, name -> new LongAdder()).increment();
  }

  /** Forgets the counts so far. */
  void reset() {
    tables.clear();
    histories.clear();
    kinds.clear();
  }

  /** Requests for each table's own files (timeline, properties, commits) since the last reset. */
  Map<String, Long> tableRequests() {
    return snapshot(tables);
  }

  /** Requests for each table's freshness history since the last reset. */
  Map<String, Long> historyRequests() {
    return snapshot(histories);
  }

  /** Requests by part (table or history) and kind (GET, HEAD, LIST, PUT, POST, DELETE) since the last reset. */
  Map<String, Long> byKind() {
    return snapshot(kinds);
  }

  private static Map<String, Long> snapshot(Map<String, LongAdder> counts) {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((name, count) -> copy.put(name, count.sum()));
    return copy;
  }

  private static String queryParameter(String rawQuery, String name) {
    if (rawQuery == null) {
      return "";
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.startsWith(name + "=")) {
        return decode(pair.substring(name.length() + 1));
      }
    }
    return "";
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}
