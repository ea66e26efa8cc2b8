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

import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.config.HoodieWriteConfig;

import com.amazonaws.ClientConfiguration;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.AmazonS3ClientBuilder;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * Writes Streamer target timelines straight to an S3 endpoint, one PUT an object, as a Streamer leaves them: the table's
 * {@code hoodie.properties} (made once by Hudi's own table init, on local disk) and, per commit, its requested, inflight
 * and completed files, the completed one holding commit metadata with the Kafka checkpoint in its extra metadata (or
 * none). Far faster than writing through S3A (several requests an object) or Spark.
 */
final class TargetTimelineWriter implements AutoCloseable {

  /** One table name for every target: its checksum is in hoodie.properties, which is then the same bytes. */
  private static final String TABLE_NAME = "fleet_target";

  private final AmazonS3 client;
  private final byte[] tableProperties;

  private TargetTimelineWriter(AmazonS3 client, byte[] tableProperties) {
    this.client = client;
    this.tableProperties = tableProperties;
  }

  /**
   * @param s3aSettings the S3A settings of the endpoint (endpoint, path style, access and secret keys)
   * @param scratch     a local folder for the table made by Hudi to copy hoodie.properties from
   */
  static TargetTimelineWriter create(Map<String, String> s3aSettings, Path scratch) throws IOException {
    HoodieTableMetaClient.withPropertyBuilder().setTableType(HoodieTableType.COPY_ON_WRITE).setTableName(TABLE_NAME)
        .initTable(new Configuration(), scratch.toUri().toString());
    byte[] properties = Files.readAllBytes(scratch.resolve(".hoodie").resolve("hoodie.properties"));
    AmazonS3 client = AmazonS3ClientBuilder.standard()
        .withEndpointConfiguration(new AwsClientBuilder.EndpointConfiguration(s3aSettings.get("fs.s3a.endpoint"),
            s3aSettings.get("fs.s3a.endpoint.region")))
        .withPathStyleAccessEnabled(true)
        .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(s3aSettings.get("fs.s3a.access.key"),
            s3aSettings.get("fs.s3a.secret.key"))))
        .withClientConfiguration(new ClientConfiguration().withMaxConnections(32))
        .build();
    return new TargetTimelineWriter(client, properties);
  }

  /**
   * Writes one target: {@code commits.size()} completed commits, a minute apart, the last ending {@code newestAt}
   * (epoch ms); each commit's checkpoint is its entry (null for a commit that stores none).
   *
   * @param table the table's folder in the bucket
   */
  void writeTarget(String bucket, String table, List<String> commits, long newestAt) throws IOException {
    put(bucket, table + "/.hoodie/hoodie.properties", tableProperties);
    for (int i = 0; i < commits.size(); i++) {
      String instant = HoodieActiveTimeline.formatDate(new Date(newestAt - (commits.size() - 1 - i) * 60_000L));
      HoodieCommitMetadata metadata = new HoodieCommitMetadata();
      if (commits.get(i) != null) {
        metadata.addMetadata(HoodieWriteConfig.STREAMER_CHECKPOINT_KEY, commits.get(i));
      }
      put(bucket, table + "/.hoodie/" + instant + ".commit.requested", new byte[0]);
      put(bucket, table + "/.hoodie/" + instant + ".inflight", new byte[0]);
      put(bucket, table + "/.hoodie/" + instant + ".commit", metadata.toJsonString().getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The median time of {@code times} GETs of one object, in ms: what the store itself takes, without latency. */
  double medianGetMillis(String bucket, String key, int times) {
    List<Long> nanos = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      long started = System.nanoTime();
      client.getObjectAsString(bucket, key);
      nanos.add(System.nanoTime() - started);
    }
    return ResultTable.medianMillis(nanos);
  }

  private void put(String bucket, String key, byte[] bytes) {
    client.putObject(bucket, key, new String(bytes, StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    client.shutdown();
  }
}
