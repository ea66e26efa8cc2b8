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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.Option;

import org.apache.hadoop.conf.Configuration;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;

/** Hudi 0.14 tables and timelines written directly, without Spark: instants with chosen metadata and completion time. */
public final class WrittenTimelines {

  private static final Configuration CONF = new Configuration();

  private WrittenTimelines() {
  }

  /** Creates an empty table; returns its path as a URI. */
  public static String table(Path dir, String name, HoodieTableType type) throws Exception {
    String path = dir.resolve(name).toUri().toString();
    HoodieTableMetaClient.withPropertyBuilder().setTableType(type).setTableName(name).initTable(CONF, path);
    return path;
  }

  /** Completes an instant of the action whose metadata holds the given extra metadata; returns its time. */
  public static String complete(String basePath, String action, Map<String, String> extraMetadata) throws Exception {
    HoodieActiveTimeline timeline = HoodieTableMetaClient.builder().setConf(CONF).setBasePath(basePath).build()
        .getActiveTimeline();
    String instant = HoodieActiveTimeline.createNewInstantTime();
    HoodieInstant requested = new HoodieInstant(HoodieInstant.State.REQUESTED, action, instant);
    timeline.createNewInstant(requested);
    timeline.transitionRequestedToInflight(requested, Option.empty());
    HoodieCommitMetadata metadata = new HoodieCommitMetadata();
    extraMetadata.forEach(metadata::addMetadata);
    timeline.saveAsComplete(new HoodieInstant(HoodieInstant.State.INFLIGHT, action, instant),
        Option.of(metadata.toJsonString().getBytes(StandardCharsets.UTF_8)));
    return instant;
  }

  /** Sets when a completed instant became readable: Hudi 0.14 takes it from the file's modification time. */
  public static void completedAt(String basePath, String instant, String action, Instant completion) throws Exception {
    Files.setLastModifiedTime(Paths.get(java.net.URI.create(basePath)).resolve(".hoodie").resolve(instant + "."
        + action), FileTime.from(completion));
  }
}
