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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.StreamerPipelineSpec;
import org.apache.hudi.utilities.reporter.FreshnessReporter;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reporter finds a target's checkpoint by the Streamer's own rule ({@link StoredCheckpointReader}), without Spark:
 * timelines written directly.
 */
class TestFreshnessReporter {

  private static final Configuration CONF = new Configuration();

  @TempDir
  Path dir;

  @Test
  void compactionCommitsOfAMergeOnReadTargetAreNotSearchedForItsCheckpoint() throws Exception {
    String orders = table("orders", HoodieTableType.COPY_ON_WRITE);
    String consumed = complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    String target = table("joined", HoodieTableType.MERGE_ON_READ);
    String ingested = complete(target, HoodieTimeline.DELTA_COMMIT_ACTION,
        Map.of(HoodieWriteConfig.STREAMER_CHECKPOINT_KEY, "orders=" + consumed));
    // A compaction completes as a commit, which holds no checkpoint: the Streamer reads delta commits only.
    complete(target, HoodieTimeline.COMMIT_ACTION, Map.of());

    PipelineFreshness measured = reportOnce(pipeline(target, orders), 1);

    assertEquals(ingested, measured.checkpoint().commit().get());
    assertEquals(1, measured.searchDepth().getAsInt());
    assertEquals(List.of("orders:CAUGHT_UP"), states(measured));
  }

  @Test
  void targetThatDoesNotExistHoldsNoCheckpoint() throws Exception {
    String orders = table("orders", HoodieTableType.COPY_ON_WRITE);

    PipelineFreshness measured = reportOnce(pipeline(dir.resolve("none").toUri().toString(), orders), 100);

    assertEquals(0, measured.searchDepth().getAsInt());
    assertEquals(List.of("orders:NO_CHECKPOINT"), states(measured));
  }

  private static PipelineFreshness reportOnce(PipelineSpec pipeline, int maxCommitDepth) {
    try (FreshnessReporter reporter = new FreshnessReporter(Clock.systemUTC(), CONF, Map.of(), maxCommitDepth)) {
      List<PipelineFreshness> measured = reporter.reportOnce(List.of(pipeline));
      assertEquals(1, measured.size());
      return measured.get(0);
    }
  }

  private static PipelineSpec pipeline(String target, String orders) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", orders);
    props.setProperty("hoodie.streamer.freshness.history.enable", "false");
    return StreamerPipelineSpec.from(props, target, "joined");
  }

  private static List<String> states(PipelineFreshness measured) {
    return measured.sources().stream().map(source -> source.source() + ":" + source.state())
        .collect(Collectors.toList());
  }

  private String table(String name, HoodieTableType type) throws Exception {
    return WrittenTimelines.table(dir, name, type);
  }

  private static String complete(String basePath, String action, Map<String, String> extraMetadata) throws Exception {
    return WrittenTimelines.complete(basePath, action, extraMetadata);
  }
}
