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
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The S3 requests one S3A client (one bucket: {@code FileSystem.get} caches a client per bucket) has sent, from its
 * IOStatistics counters, by kind. Not {@code FileSystem.getStorageStatistics()}: on Hadoop 3.3.4 S3A registers those
 * once per JVM, bound to the first S3A file system created, so they do not count per bucket.
 */
public final class S3Requests {

  /** Request kinds and the S3A counters that make them up. */
  private static final Map<String, String[]> KINDS = new LinkedHashMap<>();

  static {
    KINDS.put("LIST", new String[] {"object_list_request", "object_continue_list_request"});
    KINDS.put("HEAD", new String[] {"object_metadata_request"});
    KINDS.put("GET", new String[] {"action_http_get_request"});
    KINDS.put("PUT", new String[] {"object_put_request", "multipart_upload_part_put"});
    KINDS.put("DELETE", new String[] {"object_delete_request", "object_bulk_delete_request"});
    KINDS.put("COPY", new String[] {"object_copy_requests"});
  }

  private final Map<String, Long> counters;

  private S3Requests(Map<String, Long> counters) {
    this.counters = counters;
  }

  /** The counters of the S3A client of {@code bucketUri} (e.g. {@code s3a://orders}) now. */
  public static S3Requests of(String bucketUri, Configuration conf) {
    try {
      FileSystem fs = FileSystem.get(URI.create(bucketUri + "/"), conf);
      return new S3Requests(new TreeMap<>(((IOStatisticsSource) fs).getIOStatistics().counters()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What was sent after {@code earlier}. */
  public S3Requests since(S3Requests earlier) {
    Map<String, Long> delta = new TreeMap<>();
    counters.forEach((name, value) -> delta.put(name, value - earlier.counters.getOrDefault(name, 0L)));
    return new S3Requests(delta);
  }

  /** Requests of one kind (LIST, HEAD, GET, PUT, DELETE, COPY). */
  public long count(String kind) {
    long total = 0;
    for (String counter : KINDS.get(kind)) {
      total += counters.getOrDefault(counter, 0L);
    }
    return total;
  }

  /** Requests of every kind. */
  public long total() {
    return KINDS.keySet().stream().mapToLong(this::count).sum();
  }

  /** One counter, e.g. {@code op_get_file_status} (an operation, which may send several requests). */
  public long counter(String name) {
    return counters.getOrDefault(name, 0L);
  }

  /** The requests by kind, kinds without requests left out, e.g. {@code {LIST=4, HEAD=2}}. */
  public Map<String, Long> byKind() {
    Map<String, Long> byKind = new LinkedHashMap<>();
    KINDS.keySet().forEach(kind -> {
      if (count(kind) != 0) {
        byKind.put(kind, count(kind));
      }
    });
    return byKind;
  }

  @Override
  public String toString() {
    return total() + " " + byKind();
  }
}
