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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.freshness.FreshnessHistory;
import org.apache.hudi.utilities.freshness.LabelledFreshnessMetrics;
import org.apache.hudi.utilities.freshness.PipelineFreshness;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.SourceSpec;
import org.apache.hudi.utilities.freshness.SourceStatus;
import org.apache.hudi.utilities.freshness.StreamerPipelineSpec;
import org.apache.hudi.utilities.freshness.kafka.KafkaClusters;
import org.apache.hudi.utilities.hudi014.WrittenTimelines;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reporter's rounds over real tables (timelines written directly, no Spark): a target whose store never answers
 * costs its pipeline one deadline while the others are measured, a warm round reads only what may have changed, and a
 * Kafka cluster that does not answer is published once, by name, and named on its sources' series.
 */
class TestFreshnessReporterRounds {

  private static final String HISTORY = ".hoodie/.aux/freshness";
  private static final Duration GENEROUS = Duration.ofSeconds(30);

  @TempDir
  java.nio.file.Path dir;

  private FreshnessReporter reporter;

  @AfterEach
  void stop() {
    HangingFileSystem.release();
    if (reporter != null) {
      reporter.close();
    }
  }

  @Test
  void targetWhoseStoreNeverAnswersCostsOneDeadlineAndTheOtherPipelinesAreMeasuredInTheSameRound() throws Exception {
    String orders = WrittenTimelines.table(dir, "orders", HoodieTableType.COPY_ON_WRITE);
    String consumed = WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    List<PipelineSpec> pipelines = List.of(
        pipeline("hung", "hang:///warehouse/hung", Map.of("orders", orders)),
        pipeline("a", target("a", "orders=" + consumed), Map.of("orders", orders)),
        pipeline("b", target("b", "orders=" + consumed), Map.of("orders", orders)),
        pipeline("c", target("c", "orders=" + consumed), Map.of("orders", orders)));
    Configuration conf = new Configuration();
    conf.set("fs.hang.impl", HangingFileSystem.class.getName());
    conf.setBoolean("fs.hang.impl.disable.cache", true);
    HangingFileSystem.hangFromNowOn();
    reporter = new FreshnessReporter(Clock.systemUTC(), conf, Map.of(), 10,
        FreshnessReporter.Settings.defaults().workers(2).pipelineTimeout(Duration.ofSeconds(1)));

    RoundReport round = reporter.runRound(pipelines);

    assertEquals(List.of("hung:TIMED_OUT (no answer within PT1S)", "a:MEASURED", "b:MEASURED", "c:MEASURED"),
        round.outcomes().stream().map(PipelineOutcome::toString).collect(Collectors.toList()));
    assertTrue(round.duration().compareTo(GENEROUS) < 0, round.toString());
    assertEquals(List.of("orders:CAUGHT_UP"), states(round.measured().get(0)));
  }

  @Test
  void targetStillHangingFromTheLastRoundDelaysNoLaterRound() throws Exception {
    String orders = WrittenTimelines.table(dir, "orders", HoodieTableType.COPY_ON_WRITE);
    String consumed = WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    List<PipelineSpec> pipelines = List.of(
        pipeline("hung", "hang:///warehouse/hung", Map.of("orders", orders)),
        pipeline("a", target("a", "orders=" + consumed), Map.of("orders", orders)));
    Configuration conf = new Configuration();
    conf.set("fs.hang.impl", HangingFileSystem.class.getName());
    conf.setBoolean("fs.hang.impl.disable.cache", true);
    HangingFileSystem.hangFromNowOn();
    reporter = new FreshnessReporter(Clock.systemUTC(), conf, Map.of(), 10,
        FreshnessReporter.Settings.defaults().workers(2).pipelineTimeout(Duration.ofSeconds(1)));
    reporter.runRound(pipelines);

    // The hung worker still holds its table: the next round's start (which looks up every target's last checkpoint)
    // must not wait for it. It did, until the store answered: 200 s a try on S3A, every later round stalled.
    RoundReport next = assertTimeoutPreemptively(GENEROUS, () -> reporter.runRound(pipelines));

    assertEquals("hung", next.outcomes().get(0).pipeline());
    assertEquals(PipelineOutcome.Kind.TIMED_OUT, next.outcomes().get(0).kind());
    assertEquals("a:MEASURED", next.outcomes().get(1).toString());
  }

  @Test
  void kafkaPipelineWhoseTargetCouldNotBeReadIsPreparedOnceNotBeforeEveryRound() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.hang.impl", HangingFileSystem.class.getName());
    conf.setBoolean("fs.hang.impl.disable.cache", true);
    // Released: every request to the store fails at once, as a hung one does when it gives up.
    HangingFileSystem.release();
    PipelineSpec failing = PipelineSpec.builder("failing", "hang:///warehouse/failing")
        .source(SourceSpec.kafka("clicks", Map.of("bootstrap.servers", "127.0.0.1:9"))).build();
    PipelineSpec onHudi = pipeline("on-hudi", "hang:///warehouse/on-hudi", Map.of("orders", "hang:///warehouse/orders"));
    try (KafkaClusters kafka = KafkaClusters.withKafkaConsumers()) {
      TargetCheckpointMeasurement measurement = new TargetCheckpointMeasurement(Clock.systemUTC(), conf, Map.of(), 10,
          new LabelledFreshnessMetrics(), kafka);
      measurement.beginRound(List.of(failing, onHudi));

      // Only a Kafka pipeline needs its checkpoint before the round's batch.
      assertEquals(List.of(failing), measurement.unprepared(List.of(failing, onHudi)));
      assertThrows(RuntimeException.class, () -> measurement.prepare(failing));

      // Tried: a later round measures it with the others instead of paying its deadline before them each time.
      measurement.beginRound(List.of(failing, onHudi));
      assertEquals(List.of(), measurement.unprepared(List.of(failing, onHudi)));
    }
  }

  @Test
  void warmRoundOverUnchangedTablesReadsAtMostTwoFilesPerTableAndNoHistoryEntry() throws Exception {
    String orders = WrittenTimelines.table(dir, "orders", HoodieTableType.COPY_ON_WRITE);
    String users = WrittenTimelines.table(dir, "users", HoodieTableType.MERGE_ON_READ);
    String ordersCommit = WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    String usersCommit = WrittenTimelines.complete(users, HoodieTimeline.DELTA_COMMIT_ACTION, Map.of());
    String joined = target("joined", "orders=" + ordersCommit + ",users=" + usersCommit);
    String shipped = target("shipped", "orders=" + ordersCommit);
    // orders is the source of both pipelines.
    List<PipelineSpec> pipelines = List.of(
        pipeline("joined", joined, Map.of("orders", orders, "users", users)),
        pipeline("shipped", shipped, Map.of("orders", orders)));
    Configuration conf = new Configuration();
    ReadCountingFileSystem.install(conf);
    reporter = new FreshnessReporter(Clock.systemUTC(), conf, Map.of(), 10, FreshnessReporter.Settings.defaults());
    ReadCountingFileSystem.reset();
    assertEquals(2, reporter.runRound(pipelines).measured().size());
    int coldReads = ReadCountingFileSystem.readsUnder(dir.toUri().toString()).size();

    ReadCountingFileSystem.reset();
    RoundReport warm = reporter.runRound(pipelines);

    assertEquals(2, warm.measured().size());
    for (String table : List.of(orders, users, joined, shipped)) {
      List<String> reads = ReadCountingFileSystem.readsUnder(table, HISTORY);
      assertTrue(reads.size() <= 2, table + " (cold round: " + coldReads + " reads in all): " + reads);
    }
    // The status window is kept in memory: no entry is read. The round changed nothing the history says (the same
    // checkpoints, states and statuses), so no entry is written either: the cold round's entry stays the only one.
    for (String target : List.of(joined, shipped)) {
      assertEquals(List.of(), ReadCountingFileSystem.readsUnder(target + "/" + HISTORY), target);
      assertEquals(1, historyEntries(target), target);
    }
  }

  @Test
  void checkpointBelowNewerCommitsWithoutOneIsNotReadAgainOnceConfirmed() throws Exception {
    String orders = WrittenTimelines.table(dir, "orders", HoodieTableType.COPY_ON_WRITE);
    String consumed = WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    String joined = target("joined", "orders=" + consumed);
    // Two newer commits without a checkpoint (a clustering, a round with nothing to ingest, say): the search passes
    // over them to the checkpoint below.
    WrittenTimelines.complete(joined, HoodieTimeline.COMMIT_ACTION, Map.of());
    WrittenTimelines.complete(joined, HoodieTimeline.COMMIT_ACTION, Map.of());
    List<PipelineSpec> pipelines = List.of(pipeline("joined", joined, Map.of("orders", orders)));
    Configuration conf = new Configuration();
    ReadCountingFileSystem.install(conf);
    reporter = new FreshnessReporter(Clock.systemUTC(), conf, Map.of(), 10, FreshnessReporter.Settings.defaults());
    reporter.runRound(pipelines);
    reporter.runRound(pipelines);

    ReadCountingFileSystem.reset();
    RoundReport warm = reporter.runRound(pipelines);

    assertEquals(List.of("orders:CAUGHT_UP"), states(warm.measured().get(0)));
    assertEquals(3, warm.measured().get(0).checkpoint().commitsSearched());
    // The timeline's listing only: before, the three commits down to the checkpoint were read every round.
    List<String> reads = ReadCountingFileSystem.readsUnder(joined, HISTORY);
    assertTrue(reads.size() <= 2, reads.toString());
  }

  @Test
  void targetsCheckpointIsReadAgainWhenItsNewestCommitChanged() throws Exception {
    String orders = WrittenTimelines.table(dir, "orders", HoodieTableType.COPY_ON_WRITE);
    String first = WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    String joined = target("joined", "orders=" + first);
    List<PipelineSpec> pipelines = List.of(pipeline("joined", joined, Map.of("orders", orders)));
    reporter = new FreshnessReporter(Clock.systemUTC(), new Configuration(), Map.of(), 10,
        FreshnessReporter.Settings.defaults());
    assertEquals(List.of("orders:CAUGHT_UP"), states(reporter.reportOnce(pipelines).get(0)));

    String second = WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    PipelineFreshness behind = reporter.reportOnce(pipelines).get(0);
    String ingested = WrittenTimelines.complete(joined, HoodieTimeline.COMMIT_ACTION,
        Map.of(HoodieWriteConfig.STREAMER_CHECKPOINT_KEY, "orders=" + second));
    PipelineFreshness caughtUp = reporter.reportOnce(pipelines).get(0);

    assertEquals(List.of("orders:WAITING"), states(behind));
    assertEquals(ingested, caughtUp.checkpoint().commit().get());
    assertEquals(List.of("orders:CAUGHT_UP"), states(caughtUp));
  }

  @Test
  void withTheHistoryOffTheStatusIsRatedFromTheRoundsKeptInMemory() throws Exception {
    String orders = WrittenTimelines.table(dir, "orders", HoodieTableType.COPY_ON_WRITE);
    String consumed = WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    // Written and never consumed: the pipeline does not move while it waits.
    WrittenTimelines.complete(orders, HoodieTimeline.COMMIT_ACTION, Map.of());
    String target = target("stalled", "orders=" + consumed);
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", orders);
    props.setProperty("hoodie.streamer.freshness.history.enable", "false");
    props.setProperty("hoodie.streamer.freshness.status.window.minutes", "1");
    List<PipelineSpec> pipelines = List.of(StreamerPipelineSpec.from(props, target, "stalled"));
    // Ahead of the commits' times, so that the waiting commit's lag is positive from the first round.
    MovableClock clock = new MovableClock(Instant.now().plusSeconds(5));
    reporter = new FreshnessReporter(clock, new Configuration(), Map.of(), 10, FreshnessReporter.Settings.defaults());

    List<SourceStatus> statuses = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      statuses.add(reporter.reportOnce(pipelines).get(0).sources().get(0).status());
      clock.advance(Duration.ofSeconds(40));
    }

    // STALLED at 80 s: the position did not move since the round at 0 s, a whole window (60 s) back. Without the
    // rounds in memory every round was rated alone: OK, OK, OK.
    assertEquals(List.of(SourceStatus.OK, SourceStatus.OK, SourceStatus.STALLED), statuses);
    assertFalse(dir.resolve("stalled").resolve(HISTORY).toFile().exists(), "the history was written");
  }

  @Test
  void kafkaClusterThatDoesNotAnswerIsOneSeriesAndEachOfItsSourcesNamesIt() throws Exception {
    String dead;
    try (ServerSocket socket = new ServerSocket(0)) {
      dead = "127.0.0.1:" + socket.getLocalPort();
    }
    List<PipelineSpec> pipelines = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      SourceSpec clicks = SourceSpec.kafka("clicks", Map.of("bootstrap.servers", dead));
      pipelines.add(PipelineSpec.builder("p" + i, target("p" + i, "clicks,0:" + i)).source(clicks).kafkaCluster("main")
          .kafkaMetadataTimeout(Duration.ofSeconds(1)).build());
    }
    reporter = new FreshnessReporter(Clock.systemUTC(), new Configuration(), Map.of(), 10,
        FreshnessReporter.Settings.defaults());

    RoundReport round = reporter.runRound(pipelines);

    assertEquals(5, round.measured().size(), round.toString());
    Map<String, Double> self = TestReporterMetrics.values(reporter.reporterMetrics());
    assertEquals(Map.of(ReporterMetrics.KAFKA_CLUSTER_REACHABLE + "{cluster=main}", 0.0),
        self.entrySet().stream().filter(e -> e.getKey().startsWith(ReporterMetrics.KAFKA_CLUSTER_REACHABLE))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, reporter.labelledMetrics().collect());
    Map<String, Double> exposed = new TreeMap<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.startsWith("#") && !line.isEmpty()) {
        int space = line.lastIndexOf(' ');
        exposed.put(line.substring(0, space), Double.valueOf(line.substring(space + 1)));
      }
    }
    for (int i = 0; i < 5; i++) {
      assertEquals(1.0, exposed.get("hudi_freshness_status{cluster=\"main\",pipeline=\"p" + i + "\","
          + "source=\"clicks\",source_kind=\"kafka\",status=\"NO_DATA\"}"), exposed.toString());
      assertEquals(1.0, exposed.get("hudi_freshness_unreadable_sources{pipeline=\"p" + i + "\"}"), exposed.toString());
    }
  }

  private String target(String name, String checkpoint) throws Exception {
    String path = WrittenTimelines.table(dir, name, HoodieTableType.COPY_ON_WRITE);
    WrittenTimelines.complete(path, HoodieTimeline.COMMIT_ACTION,
        Map.of(HoodieWriteConfig.STREAMER_CHECKPOINT_KEY, checkpoint));
    return path;
  }

  private static PipelineSpec pipeline(String name, String target, Map<String, String> sources) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", String.join(",", new TreeSet<>(sources.keySet())));
    sources.forEach((source, path) -> props.setProperty("hoodie.streamer.source.hudi." + source + ".path", path));
    return StreamerPipelineSpec.from(props, target, name);
  }

  private static int historyEntries(String target) throws Exception {
    return FreshnessHistory.open(target + "/" + HISTORY, 1000, new Configuration()).newest(1000).size();
  }

  private static List<String> states(PipelineFreshness measured) {
    return measured.sources().stream().map(source -> source.source() + ":" + source.state())
        .collect(Collectors.toList());
  }
}
