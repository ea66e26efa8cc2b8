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

package org.apache.hudi.utilities.sources;

import org.apache.hudi.common.config.DFSPropertiesConfiguration;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.utilities.HoodieClusteringJob;
import org.apache.hudi.utilities.callback.FreshnessCommitCallback;
import org.apache.hudi.utilities.config.AlignmentMode;
import org.apache.hudi.utilities.config.HoodieFreshnessConfig;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.freshness.MetricNames;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.freshness.SourceKind;
import org.apache.hudi.utilities.freshness.StreamerPipelineSpec;
import org.apache.hudi.utilities.hudi014.CompletedInstantReader;
import org.apache.hudi.utilities.hudi014.RetentionGuard;
import org.apache.hudi.utilities.hudi014.SourceTimeline;
import org.apache.hudi.utilities.hudi014.StoredCheckpointReader;
import org.apache.hudi.utilities.reporter.FreshnessReporter;
import org.apache.hudi.utilities.sources.multi.WindowReadability;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.SourceModel;
import org.apache.hudi.utilities.testutils.StreamerJob;
import org.apache.hudi.utilities.testutils.TargetGauges;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;

import com.sun.management.UnixOperatingSystemMXBean;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalog.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --continuous} with {@link HoodieIncrMultiSource}: one Streamer process runs round after round on a
 * MERGE_ON_READ target (compacted by the Streamer's async compactor) while a writer thread commits to a COPY_ON_WRITE
 * and a MERGE_ON_READ source (cleaned, the latter compacted inline), under commit-time alignment. Whatever the source
 * keeps between rounds (its tables' meta clients, the columns of caught-up tables, the alignment's idle clock, its
 * gauges) must be right in the last round: the target equals the model of the sources at its final checkpoint, the
 * checkpoint advanced round after round, the last catch-up needed the idle clock to move on, and the retention gauges
 * are those of the last round, as is the freshness callback's measurement. A graceful stop leaves no pending instant on
 * the target and ends the Streamer's thread. With async clustering of the target, no row is lost or duplicated across
 * clusterings, and a clustering plan left pending by a stop is completed by the next start.
 *
 * <p>The long run keeps Hudi's metadata table on every table (its default, kept on by users for file listing); the
 * other tests turn it off.
 */
class TestMultiTableContinuousMode {

  private static final Logger LOG = LoggerFactory.getLogger(TestMultiTableContinuousMode.class);

  private static final int MIN_SYNC_INTERVAL_SECONDS = 1;
  private static final int MIN_TARGET_COMMITS = 6;
  private static final int CLUSTERING_MAX_COMMITS = 2;
  private static final int MIN_CLUSTERED_TARGET_COMMITS = 4;
  private static final int SOURCE_COMMITS_RETAINED = 3;
  private static final String MIN_HEADROOM_COMMITS = RetentionGuard.MIN_HEADROOM_COMMITS_METRIC;
  private static final String MIN_HEADROOM_SECONDS = RetentionGuard.MIN_HEADROOM_SECONDS_METRIC;
  private static final long IDLE_TIMEOUT_MS = 2_000;
  /**
   * How long a wait for the Streamer's rounds may take: a round takes seconds (20 on a loaded machine), so only a hung
   * Streamer, or one held back for good (a stale idle clock holding the aligned tables), reaches it.
   */
  private static final Duration STREAMER_TIMEOUT = Duration.ofMinutes(5);
  private static final List<String> TABLES = List.of("a", "b");
  private static final String SOAK_ROUNDS_PROPERTY = "soak.rounds";
  private static final int SOAK_ROUNDS = 50;
  private static final int SOAK_ROUNDS_PER_COMMIT = 5;
  /** A megabyte a round: what a leaked cached batch or a retained plan per round would cost, and more. */
  private static final double MAX_HEAP_GROWTH_PER_ROUND = 1 << 20;
  /** Threads, by name without digits, that Hudi 0.14's Streamer adds per committing round (see the soak test). */
  private static final Set<String> HUDI_STREAMER_THREADS_GROWING = Set.of("TimelineService-JettyScheduler-",
      "pool--thread-");
  /**
   * Spark's executor runs each task in a thread of a cached pool, named after its last task; an idle thread ends after a
   * minute, so their number follows what the last minute ran at once, not how many rounds ran.
   */
  private static final String SPARK_TASK_THREADS = "Executor task launch worker";
  /**
   * Task threads at any round: {@code local[2]} runs two tasks at once; a thread kept per task would pass this within a
   * committing round, which runs dozens of tasks.
   */
  private static final int MAX_SPARK_TASK_THREADS = 8;
  /**
   * Threads of cached pools, by the start of their names, that the last minute's work sizes and that end after a minute
   * idle, so a round may end with one more than an earlier round without a leak: Spark's task threads (bounded above
   * instead), its block manager's requests (a pool whose core size is its cap, 100, so each request of the last minute
   * starts a thread: 103 threads of these two pools were seen), and the JDK's reaper of child processes (Hadoop's local
   * file system runs shell commands).
   */
  private static final List<String> CACHED_POOLS_NOT_COMPARED = List.of(SPARK_TASK_THREADS,
      "block-manager-ask-thread-pool-", "process reaper");
  private static final String STRESS_COMMITS_PROPERTY = "stress.commits";
  private static final int STRESS_COMMITS = 12;
  private static final int STRESS_COMMITS_RETAINED = 4;
  private static final int STRESS_MIN_COMMITS_KEPT = 5;
  private static final int STRESS_MAX_COMMITS_KEPT = 6;

  @TempDir
  Path dir;

  @Test
  void roundsOfOneStreamerProcessKeepTheTargetExactAndStopWithoutPendingInstants() throws Exception {
    long started = System.nanoTime();
    String targetPath = dir.resolve("target").toUri().toString();
    List<Source> sources = sources(dir, false);
    Writer writer = new Writer(sources, new Random(42));
    // The cleaner of a has run before the first round, so that the retention gauges (a's alone: b is never cleaned) are
    // published from the second on.
    for (int i = 0; i <= SOURCE_COMMITS_RETAINED; i++) {
      writer.write(sources.get(0), true);
    }
    writer.write(sources.get(1), true);
    StreamerJob job = job(dir, targetPath, sources, false);

    long tempViewsBefore = tempViews();
    // Gauges of each round, read in the Streamer's thread right after the round: the source's retention headroom of a,
    // and the freshness callback's pending instants of b (as of the round's commit).
    List<Long> headroomByRound = new CopyOnWriteArrayList<>();
    List<Long> pendingByRound = new CopyOnWriteArrayList<>();
    StreamerJob.ContinuousRun run = job.startContinuous(MIN_SYNC_INTERVAL_SECONDS, () -> {
      headroomByRound.add(TargetGauges.value(targetPath, MIN_HEADROOM_SECONDS));
      pendingByRound.add(TargetGauges.value(targetPath, pendingInstants("b")));
    });
    try {
      writer.writeWhileRoundsRun(run, true, () -> ingestionCommits(targetPath).size() >= MIN_TARGET_COMMITS);
      awaitCatchUp(run, targetPath, sources);
      // One more round, which finds every table caught up: it commits nothing but publishes its gauges. The round that
      // committed the catch-up may not have ended yet, so the round after the next one is the first sure to start
      // from the final positions; a sleep would not do on a loaded machine, where a round outlasts it.
      awaitRounds(run, run.rounds() + 2);
    } finally {
      assertTrue(run.stopGracefully(Duration.ofSeconds(120)), "the Streamer's thread did not end after the stop");
    }
    List<String> commits = ingestionCommits(targetPath);
    int compactions = HudiTables.completedInstants(targetPath, HoodieTimeline.COMMIT_ACTION).size();
    LOG.info("Continuous mode: {} rounds, {} target delta commits (rounds that committed), {} async compactions, {} "
            + "source commits, retention headroom of a by round {}, pending instants of b by round {}, {} s",
        run.rounds(), commits.size(), compactions, writer.commits, headroomByRound, pendingByRound,
        (System.nanoTime() - started) / 1_000_000_000L);
    assertNull(run.failure(), () -> "the Streamer failed: " + run.failure());
    assertEquals(List.of(), HudiTables.pendingInstants(targetPath), "instants left pending on the target by the stop");
    assertEquals(tempViewsBefore, tempViews(), "temporary views left behind by the rounds");

    Map<String, String> positions = assertExactAtLatest(targetPath, sources);
    assertCheckpointsAdvance(targetPath, commits);

    assertRetentionGauges(targetPath, sources, positions);
    Set<Long> headroomSeen = new LinkedHashSet<>(headroomByRound);
    headroomSeen.remove(-1L);
    assertTrue(headroomSeen.size() > 1, () -> "the retention gauge of a never moved across rounds: " + headroomByRound);
    // The writer committed to b while rounds ran, and the freshness callback of the last commit saw it caught up.
    assertTrue(pendingByRound.stream().anyMatch(pending -> pending > 0), "no round saw b behind: " + pendingByRound);
    for (String table : TABLES) {
      assertEquals(0, TargetGauges.value(targetPath, pendingInstants(table)), "pending instants of " + table
          + " measured by the freshness callback of the last commit");
    }
    assertTrue(commits.size() >= MIN_TARGET_COMMITS, "too few rounds committed: " + commits);
    assertTrue(compactions > 0, "the async compactor of the target never compacted");
  }

  /**
   * A long run: one Streamer process for {@value #SOAK_ROUNDS} rounds ({@code -Dsoak.rounds=N} for more), a source
   * commit after every {@value #SOAK_ROUNDS_PER_COMMIT}th round (a and b in turn): most rounds find nothing new, as a
   * continuous job mostly does, the others read, write and commit; the target compacted, the sources cleaned and
   * archived as the rounds go. After each round, in the Streamer's thread: the heap after a
   * full GC, the JVM's live threads (by name), its open file descriptors and the session's temporary views. From the
   * first quarter of the rounds on (caches and pools warmed), the heap's least-squares slope over the rounds stays under
   * a megabyte a round, temporary views do not grow, and no thread other than Hudi's two below is added (cached pools
   * that the last minute's work sizes aside); Spark's task threads stay under a bound instead.
   *
   * <p>Found by this test, and only reported (see the log line "Soak:"): Hudi 0.14's Streamer adds about 1.5 threads and
   * 0.3 open files per committing round, named {@code TimelineService-JettyScheduler-N} (the embedded timeline
   * service's) and {@code pool-N-thread-M}, with or without the metadata table and without this plugin's commit callback;
   * the sources' writers in this JVM add none. Not attributed to a Hudi class yet.
   */
  @Test
  void longRunKeepsHeapThreadsOpenFilesAndTemporaryViewsFlat() throws Exception {
    int rounds = Integer.getInteger(SOAK_ROUNDS_PROPERTY, SOAK_ROUNDS);
    String targetPath = dir.resolve("target").toUri().toString();
    List<Source> sources = sources(dir, true);
    Writer writer = new Writer(sources, new Random(11));
    sources.forEach(source -> writer.write(source, true));
    StreamerJob job = job(dir, targetPath, sources, true);
    List<ResourceSample> samples = new CopyOnWriteArrayList<>();
    StreamerJob.ContinuousRun run = job.startContinuous(MIN_SYNC_INTERVAL_SECONDS, () -> {
      if (samples.size() < rounds) {
        samples.add(ResourceSample.take());
        if (samples.size() % SOAK_ROUNDS_PER_COMMIT == 1) {
          writer.write(sources.get(samples.size() / SOAK_ROUNDS_PER_COMMIT % sources.size()), true);
        }
      }
    });
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(20L * rounds).toNanos();
      while (samples.size() < rounds) {
        assertTrue(run.isRunning(), () -> "the Streamer stopped after " + samples.size() + " rounds: " + run.failure());
        assertTrue(System.nanoTime() < deadline, "only " + samples.size() + " of " + rounds + " rounds in time");
        Thread.sleep(500);
      }
      awaitCatchUp(run, targetPath, sources);
    } finally {
      assertTrue(run.stopGracefully(Duration.ofSeconds(120)), "the Streamer's thread did not end after the stop");
    }
    assertNull(run.failure(), () -> "the Streamer failed: " + run.failure());
    List<ResourceSample> settled = samples.subList(rounds / 4, rounds);
    double heapSlope = slope(settled, sample -> sample.heapAfterGc);
    double threadSlope = slope(settled, ResourceSample::threads);
    double fileSlope = slope(settled, sample -> sample.openFiles);
    double viewSlope = slope(settled, sample -> sample.tempViews);
    LOG.info("Soak: {} rounds, {} target delta commits, {} source commits; from round {} on, per round: heap {} KB, "
            + "threads {}, open files {}, temporary views {}; first and last sample: {} / {}", run.rounds(),
        ingestionCommits(targetPath).size(), writer.commits, rounds / 4 + 1, Math.round(heapSlope / 1024),
        String.format("%.3f", threadSlope), String.format("%.3f", fileSlope), String.format("%.3f", viewSlope),
        settled.get(0), settled.get(settled.size() - 1));
    assertTrue(heapSlope < MAX_HEAP_GROWTH_PER_ROUND, "the heap after GC grows by " + Math.round(heapSlope / 1024)
        + " KB a round: " + samples);
    Map<String, Long> threadsGrown = settled.get(settled.size() - 1).threadsGrownSince(settled.get(0));
    long taskThreads = samples.stream().mapToLong(sample -> sample.threadsNamed(SPARK_TASK_THREADS)).max().orElse(0);
    LOG.info("Soak: threads added from round {} on, by name: {}; Spark's task threads at most {}", rounds / 4 + 1,
        threadsGrown, taskThreads);
    threadsGrown.keySet().removeAll(HUDI_STREAMER_THREADS_GROWING);
    threadsGrown.keySet().removeIf(name -> CACHED_POOLS_NOT_COMPARED.stream().anyMatch(name::startsWith));
    assertTrue(threadsGrown.values().stream().mapToLong(Long::longValue).sum() <= 1, "threads added from round "
        + (rounds / 4 + 1) + " on, by name, besides Hudi's " + HUDI_STREAMER_THREADS_GROWING + " and the cached pools "
        + CACHED_POOLS_NOT_COMPARED + ": " + threadsGrown + "; samples " + samples);
    assertTrue(taskThreads <= MAX_SPARK_TASK_THREADS, "Spark's task threads reached " + taskThreads + ", more than the "
        + MAX_SPARK_TASK_THREADS + " that local[2] needs");
    assertEquals(0.0, viewSlope, "temporary views grow by " + viewSlope + " a round: " + samples);
    assertExactAtLatest(targetPath, sources);
  }

  /** Least-squares slope of a measure over consecutive rounds, per round. */
  private static double slope(List<ResourceSample> samples, ToLongFunction<ResourceSample> measure) {
    int n = samples.size();
    double meanX = (n - 1) / 2.0;
    double meanY = samples.stream().mapToLong(measure).average().orElse(0);
    double covariance = 0;
    double variance = 0;
    for (int i = 0; i < n; i++) {
      covariance += (i - meanX) * (measure.applyAsLong(samples.get(i)) - meanY);
      variance += (i - meanX) * (i - meanX);
    }
    return variance == 0 ? 0 : covariance / variance;
  }

  /** What the JVM holds after one round. */
  private static final class ResourceSample {
    private final long heapAfterGc;
    private final long openFiles;
    private final long tempViews;
    /** Live threads by name, digits dropped (pool-12-thread-3 counts as pool--thread-). */
    private final Map<String, Long> threadsByName;

    private ResourceSample(long heapAfterGc, long openFiles, long tempViews, Map<String, Long> threadsByName) {
      this.heapAfterGc = heapAfterGc;
      this.openFiles = openFiles;
      this.tempViews = tempViews;
      this.threadsByName = threadsByName;
    }

    long threads() {
      return threadsByName.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The thread names whose count grew since an earlier sample, with the growth. */
    Map<String, Long> threadsGrownSince(ResourceSample earlier) {
      Map<String, Long> grown = new TreeMap<>();
      threadsByName.forEach((name, count) -> {
        long growth = count - earlier.threadsByName.getOrDefault(name, 0L);
        if (growth > 0) {
          grown.put(name, growth);
        }
      });
      return grown;
    }

    /** Live threads whose name, digits dropped, starts with a prefix. */
    long threadsNamed(String prefix) {
      return threadsByName.entrySet().stream().filter(entry -> entry.getKey().startsWith(prefix))
          .mapToLong(Map.Entry::getValue).sum();
    }

    static ResourceSample take() {
      // What the full GC left: each heap pool's usage as the collection ended, which the Streamer's threads allocating
      // after it cannot change (the heap's usage read a moment later can: 338 and 490 MB outliers failed CI).
      System.gc();
      long heap = ManagementFactory.getMemoryPoolMXBeans().stream().filter(pool -> pool.getType() == MemoryType.HEAP)
          .map(MemoryPoolMXBean::getCollectionUsage).filter(Objects::nonNull).mapToLong(MemoryUsage::getUsed).sum();
      long openFiles = ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
          .getOpenFileDescriptorCount();
      Map<String, Long> threadsByName = Thread.getAllStackTraces().keySet().stream()
          .collect(Collectors.groupingBy(thread -> thread.getName().replaceAll("\\d", ""), TreeMap::new,
              Collectors.counting()));
      return new ResourceSample(heap, openFiles, tempViews(), threadsByName);
    }

    @Override
    public String toString() {
      return String.format("heap %d MB, %d threads, %d files, %d views", heapAfterGc >> 20, threads(), openFiles,
          tempViews);
    }
  }

  /**
   * Sources written while they are read, as hard as their writers can: one writer thread per source commits as fast as
   * it can (its cleaner retaining {@value #STRESS_COMMITS_RETAINED} commits and its archival keeping
   * {@value #STRESS_MIN_COMMITS_KEPT} to {@value #STRESS_MAX_COMMITS_KEPT}, the MERGE_ON_READ one compacted inline),
   * while one continuous Streamer reads them (its freshness callback reading them after each commit) and a freshness
   * reporter measures the pipeline in a loop. No round may fail and no measurement of the reporter either; at the end
   * the target equals the sources at its checkpoint. Instant files met while their writer was still writing them
   * are counted and printed ("Stress:"): they must never stop the Streamer. {@value #STRESS_COMMITS_PROPERTY}=N
   * (default {@value #STRESS_COMMITS}) sets the commits of each writer for a longer run.
   *
   * <p>With the full-table-scan fallback on, as a job whose sources outrun it needs: a position the cleaner passed is
   * read by a full scan rather than failing the round.
   */
  @ParameterizedTest(name = "metadata table on: {0}")
  @ValueSource(booleans = {false, true})
  void sourcesCommittedCleanedArchivedAndCompactedAsFastAsTheirWritersCanFailNoRound(boolean metadataTable)
      throws Exception {
    long started = System.nanoTime();
    int commitsPerWriter = Integer.getInteger(STRESS_COMMITS_PROPERTY, STRESS_COMMITS);
    String targetPath = dir.resolve("target").toUri().toString();
    List<Source> sources = List.of(
        new Source("a", "COPY_ON_WRITE", dir, metadataTable, STRESS_COMMITS_RETAINED, STRESS_MIN_COMMITS_KEPT,
            STRESS_MAX_COMMITS_KEPT),
        new Source("b", "MERGE_ON_READ", dir, metadataTable, STRESS_COMMITS_RETAINED, STRESS_MIN_COMMITS_KEPT,
            STRESS_MAX_COMMITS_KEPT));
    List<Writer> writers = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      writers.add(new Writer(List.of(sources.get(i)), new Random(100 + i)));
      writers.get(i).write(sources.get(i), true);
    }
    StreamerJob job = job(dir, targetPath, sources, metadataTable);
    for (String table : TABLES) {
      job.property(HoodieIncrMultiSourceConfig.forTable(HoodieIncrMultiSourceConfig.TABLE_FULL_TABLE_SCAN_FALLBACK, table)
          .key(), "true");
    }
    long retriedBefore = CompletedInstantReader.retriedReads();
    long heldBefore = CompletedInstantReader.instantsHeld();
    StreamerJob.ContinuousRun run = job.startContinuous(MIN_SYNC_INTERVAL_SECONDS, () -> { });
    ExecutorService threads = Executors.newFixedThreadPool(sources.size() + 1);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger measurements = new AtomicInteger();
    AtomicInteger failedMeasurements = new AtomicInteger();
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int i = 0; i < sources.size(); i++) {
        Source source = sources.get(i);
        Writer writer = writers.get(i);
        writes.add(threads.submit(() -> {
          for (int commit = 1; commit < commitsPerWriter && run.isRunning(); commit++) {
            writer.write(source, true);
          }
        }));
      }
      PipelineSpec pipeline = StreamerPipelineSpec.from(new DFSPropertiesConfiguration(
          SharedSpark.jsc().hadoopConfiguration(), new org.apache.hadoop.fs.Path(job.propertiesFile().toUri())).getProps(),
          targetPath, "joined");
      Future<?> measuring = threads.submit(() -> {
        try (FreshnessReporter reporter = new FreshnessReporter(Clock.systemUTC(),
            SharedSpark.jsc().hadoopConfiguration(), Map.of(), 10)) {
          while (writing.get()) {
            if (reporter.reportOnce(List.of(pipeline)).isEmpty()) {
              failedMeasurements.incrementAndGet();
            }
            measurements.incrementAndGet();
          }
        }
      });
      for (Future<?> write : writes) {
        write.get();
      }
      writing.set(false);
      measuring.get();
      assertTrue(run.isRunning(), () -> "the Streamer stopped while the sources were written: " + run.failure());
      awaitCatchUp(run, targetPath, sources);
    } finally {
      writing.set(false);
      threads.shutdownNow();
      assertTrue(run.stopGracefully(Duration.ofSeconds(120)), "the Streamer's thread did not end after the stop");
    }
    LOG.info("Stress (metadata table {}): {} source commits, {} cleans, {} archived instants, {} compactions of b; "
            + "{} rounds, {} target commits; {} reads met an instant file being written, {} instants held for a "
            + "batch; reporter measured {} times, {} failed; {} s", metadataTable,
        writers.stream().mapToInt(writer -> writer.commits).sum(),
        sources.stream().mapToInt(source -> HudiTables.completedInstants(source.path, HoodieTimeline.CLEAN_ACTION)
            .size()).sum(), sources.stream().mapToLong(source -> archivedInstants(source.path)).sum(),
        HudiTables.completedInstants(sources.get(1).path, HoodieTimeline.COMMIT_ACTION).size(), run.rounds(),
        ingestionCommits(targetPath).size(), CompletedInstantReader.retriedReads() - retriedBefore,
        CompletedInstantReader.instantsHeld() - heldBefore, measurements.get(), failedMeasurements.get(),
        (System.nanoTime() - started) / 1_000_000_000L);
    assertNull(run.failure(), () -> "the Streamer failed: " + run.failure());
    assertEquals(0, failedMeasurements.get(), "measurements of the reporter that failed");
    assertExactAtLatest(targetPath, sources);
    for (Source source : sources) {
      assertTrue(archivedInstants(source.path) > 0, "nothing of " + source.model.name() + " was archived");
    }
  }

  /** How many instants of a table its archival has moved to the archived timeline. */
  private static long archivedInstants(String tablePath) {
    return HoodieTableMetaClient.builder().setConf(SharedSpark.jsc().hadoopConfiguration()).setBasePath(tablePath)
        .build().getArchivedTimeline().countInstants();
  }

  /**
   * Async clustering of the target ({@code hoodie.clustering.async.enabled}): the Streamer schedules a plan after a
   * round once enough commits followed the last clustering, and its clustering thread executes the plans one at a time
   * while rounds go on. A graceful stop ({@code HoodieStreamer.shutdownGracefully}) ends the rounds, then lets the
   * clustering thread finish the plan it executes and stop: a plan it has not taken yet stays requested on the
   * timeline. This is Hudi 0.14's design ({@code AsyncClusteringService.startService} loops while no shutdown is
   * requested; {@code HoodieStreamer.StreamSyncService.shutdownAsyncServices} shuts it down without force). The next
   * start enqueues every pending plan when its first round with data sets up the write client
   * ({@code StreamSyncService.onInitializingWriteClient}, {@code ClusteringUtils.getPendingClusteringInstantTimes}), and
   * a plan found inflight is rolled back and executed again ({@code BaseHoodieTableServiceClient.cluster}).
   *
   * <p>So: no ingestion or compaction instant may be left pending by the stop, a clustering plan may; and the next
   * start completes it. If the stop left none, the test schedules one as an operator's {@code HoodieClusteringJob --mode
   * schedule} would, so that the next start always has a plan to complete.
   *
   * <p>While the target clusters, the sources gain new keys only: Hudi 0.14 rejects a write that updates a file group
   * of a pending plan ({@code SparkRejectUpdateStrategy}, the default {@code hoodie.clustering.updates.strategy}), and
   * the Streamer retries the round a minute later ({@code StreamSyncService.handleUpsertException}); cluster what no
   * longer receives updates. A plan here takes every file group, so the model's updates would stall rounds.
   */
  @Test
  void asyncClusteringOfTheTargetLosesNoRowAndTheNextStartCompletesPlansLeftPending() throws Exception {
    long started = System.nanoTime();
    String targetPath = dir.resolve("target").toUri().toString();
    List<Source> sources = sources(dir, false);
    Writer writer = new Writer(sources, new Random(7));
    sources.forEach(source -> writer.write(source, true));
    StreamerJob job = job(dir, targetPath, sources, false)
        .property("hoodie.clustering.async.enabled", "true")
        .property("hoodie.clustering.async.max.commits", String.valueOf(CLUSTERING_MAX_COMMITS))
        // Every file group of the target is small: each plan takes them all and writes one.
        .property("hoodie.clustering.plan.strategy.small.file.limit", String.valueOf(100L << 20))
        .property("hoodie.clustering.plan.strategy.target.file.max.bytes", String.valueOf(1L << 30))
        // Hudi 0.14's row-writer clustering fails with "Positive number of partitions required" (docs/operations.md).
        .property("hoodie.datasource.write.row.writer.enable", "false");

    StreamerJob.ContinuousRun run = job.startContinuous(MIN_SYNC_INTERVAL_SECONDS, () -> { });
    try {
      writer.writeWhileRoundsRun(run, false, () -> ingestionCommits(targetPath).size() >= MIN_CLUSTERED_TARGET_COMMITS
          && !HudiTables.completedInstants(targetPath, HoodieTimeline.REPLACE_COMMIT_ACTION).isEmpty());
      awaitCatchUp(run, targetPath, sources);
    } finally {
      assertTrue(run.stopGracefully(Duration.ofSeconds(120)), "the Streamer's thread did not end after the stop");
    }
    assertNull(run.failure(), () -> "the Streamer failed: " + run.failure());
    List<String> clusteredInRun = HudiTables.completedInstants(targetPath, HoodieTimeline.REPLACE_COMMIT_ACTION);
    List<String> pendingAtStop = HudiTables.pendingInstants(targetPath, HoodieTimeline.REPLACE_COMMIT_ACTION);
    int roundsInRun = run.rounds();
    int deltaCommitsInRun = ingestionCommits(targetPath).size();
    assertEquals(pendingAtStop.size(), HudiTables.pendingInstants(targetPath).size(),
        () -> "instants other than clustering plans left pending on the target by the stop: "
            + HudiTables.pendingInstants(targetPath));
    assertTrue(!clusteredInRun.isEmpty(), "no clustering of the target completed while the rounds ran");
    int clusteringsAfterCheckpoint = assertCheckpointFoundPastClusterings(targetPath);
    assertExactAtLatest(targetPath, sources);

    if (pendingAtStop.isEmpty()) {
      scheduleClustering(targetPath, job);
    }
    List<String> pendingAtRestart = HudiTables.pendingInstants(targetPath, HoodieTimeline.REPLACE_COMMIT_ACTION);
    assertTrue(!pendingAtRestart.isEmpty(), "no clustering plan pending before the next start");
    // New keys only, as above: the first round of the next start writes while the pending plan is executed.
    sources.forEach(source -> writer.write(source, false));
    StreamerJob.ContinuousRun restart = job.startContinuous(MIN_SYNC_INTERVAL_SECONDS, () -> { });
    try {
      awaitCatchUp(restart, targetPath, sources);
      long deadline = System.nanoTime() + STREAMER_TIMEOUT.toNanos();
      while (!HudiTables.completedInstants(targetPath, HoodieTimeline.REPLACE_COMMIT_ACTION).containsAll(pendingAtRestart)) {
        assertTrue(restart.isRunning(), () -> "the Streamer stopped before clustering: " + restart.failure());
        assertTrue(System.nanoTime() < deadline, () -> "the next start did not complete the plans pending at its start "
            + pendingAtRestart + " within " + STREAMER_TIMEOUT);
        Thread.sleep(200);
      }
    } finally {
      assertTrue(restart.stopGracefully(Duration.ofSeconds(120)), "the Streamer's thread did not end after the stop");
    }
    assertNull(restart.failure(), () -> "the Streamer failed after the restart: " + restart.failure());
    List<String> commits = ingestionCommits(targetPath);
    LOG.info("Continuous mode with async clustering: {} rounds, {} target delta commits, {} async compactions, {} "
            + "clusterings completed ({} after the commit holding the final checkpoint), {} clusterings pending at the "
            + "stop {}; the next start: {} rounds, completed {}; {} s", roundsInRun, deltaCommitsInRun,
        HudiTables.completedInstants(targetPath, HoodieTimeline.COMMIT_ACTION).size(), clusteredInRun.size(),
        clusteringsAfterCheckpoint, pendingAtStop.size(), pendingAtStop, restart.rounds(), pendingAtRestart,
        (System.nanoTime() - started) / 1_000_000_000L);
    assertEquals(List.of(), HudiTables.pendingInstants(targetPath, HoodieTimeline.DELTA_COMMIT_ACTION),
        "delta commits left pending by the second stop");
    assertCheckpointFoundPastClusterings(targetPath);
    assertExactAtLatest(targetPath, sources);
    assertCheckpointsAdvance(targetPath, commits);
    assertTrue(commits.size() > deltaCommitsInRun, "the next start committed nothing: " + commits);
  }

  /**
   * The stored checkpoint is found in the newest delta commit, whatever replacecommits came after it.
   *
   * @return the completed replacecommits after that delta commit
   */
  private static int assertCheckpointFoundPastClusterings(String targetPath) {
    List<String> deltaCommits = ingestionCommits(targetPath);
    String newestDeltaCommit = deltaCommits.get(deltaCommits.size() - 1);
    assertEquals(newestDeltaCommit, new StoredCheckpointReader(SharedSpark.jsc().hadoopConfiguration())
        .newest(targetPath, StoredCheckpointReader.UNBOUNDED).commit().orElse(null), "the commit holding the checkpoint");
    return (int) HudiTables.completedInstants(targetPath, HoodieTimeline.REPLACE_COMMIT_ACTION).stream()
        .filter(clustering -> HoodieTimeline.compareTimestamps(clustering, HoodieTimeline.GREATER_THAN, newestDeltaCommit))
        .count();
  }

  /** Schedules a clustering of the target as an operator's {@code HoodieClusteringJob --mode schedule} does. */
  private static void scheduleClustering(String targetPath, StreamerJob job) {
    HoodieClusteringJob.Config config = new HoodieClusteringJob.Config();
    config.basePath = targetPath;
    config.tableName = "joined";
    config.runningMode = "schedule";
    config.propsFilePath = job.propertiesFile().toUri().toString();
    // Async clustering waits for hoodie.clustering.async.max.commits new commits; an offline schedule does not.
    config.configs = List.of("hoodie.clustering.async.enabled=false");
    assertEquals(0, new HoodieClusteringJob(SharedSpark.jsc(), config).cluster(0), "HoodieClusteringJob --mode schedule");
  }

  /**
   * The sources of every test: a COPY_ON_WRITE table a and a MERGE_ON_READ table b.
   *
   * @param metadataTable whether their writers keep Hudi's metadata table (its default, which users keep on for file
   *                      listing), so that the source lists and reads them through it
   */
  private static List<Source> sources(Path dir, boolean metadataTable) {
    return List.of(new Source("a", "COPY_ON_WRITE", dir, metadataTable),
        new Source("b", "MERGE_ON_READ", dir, metadataTable));
  }

  /**
   * The job of every test: a MERGE_ON_READ target (compacted asynchronously by the Streamer every 2 delta commits, new
   * keys in new file groups) joining the sources with the union SQL, under commit-time alignment; with or without the
   * target's metadata table.
   */
  private static StreamerJob job(Path dir, String targetPath, List<Source> sources, boolean metadataTable) {
    StreamerJob job = new StreamerJob(dir, targetPath)
        .tableType("MERGE_ON_READ")
        .transformers(MultiDatasetSqlFileTransformer.class.getName())
        .property("hoodie.streamer.source.multi.hudi.tables", String.join(",", TABLES))
        .property(HoodieIncrMultiSourceConfig.ALIGNMENT.key(), AlignmentMode.COMMIT_TIME_CEILING.name())
        .property(HoodieIncrMultiSourceConfig.ALIGNMENT_IDLE_TIMEOUT_MS.key(), String.valueOf(IDLE_TIMEOUT_MS))
        .property("hoodie.datasource.write.recordkey.field", "rk")
        .property("hoodie.metadata.enable", String.valueOf(metadataTable))
        .property("hoodie.metrics.on", "true")
        .property("hoodie.metrics.reporter.type", "INMEMORY")
        .property("hoodie.compact.inline.max.delta.commits", "2")
        .property("hoodie.write.commit.callback.on", "true")
        .property("hoodie.write.commit.callback.class", FreshnessCommitCallback.class.getName())
        .property(HoodieFreshnessConfig.HISTORY_ENABLE.key(), "false")
        // New keys go to new file groups and updates to log files, which compactions then have to merge.
        .property("hoodie.parquet.small.file.limit", "0")
        .sql(SourceModel.unionSql(TABLES));
    for (Source source : sources) {
      job.property("hoodie.streamer.source.hudi." + source.model.name() + ".path", source.path)
          .property("hoodie.streamer.source.hudi." + source.model.name() + ".missing.checkpoint.strategy",
              "READ_UPTO_LATEST_COMMIT")
          .property("hoodie.streamer.source.hudi." + source.model.name() + ".num_instants", "100");
    }
    return job;
  }

  /** Waits until the Streamer has ended {@code rounds} rounds. */
  private static void awaitRounds(StreamerJob.ContinuousRun run, int rounds) throws InterruptedException {
    long deadline = System.nanoTime() + STREAMER_TIMEOUT.toNanos();
    while (run.rounds() < rounds) {
      assertTrue(run.isRunning(), () -> "the Streamer stopped: " + run.failure());
      assertTrue(System.nanoTime() < deadline, () -> "the Streamer did not end " + rounds + " rounds within "
          + STREAMER_TIMEOUT + ": " + run.rounds());
      Thread.sleep(100);
    }
  }

  /** Waits until the target's checkpoint is at every source's latest commit. */
  private static void awaitCatchUp(StreamerJob.ContinuousRun run, String targetPath, List<Source> sources)
      throws InterruptedException {
    long deadline = System.nanoTime() + STREAMER_TIMEOUT.toNanos();
    while (!caughtUp(targetPath, sources)) {
      assertTrue(run.isRunning(), () -> "the Streamer stopped before catching up: " + run.failure());
      assertTrue(System.nanoTime() < deadline, () -> "the Streamer did not catch up with the sources within "
          + STREAMER_TIMEOUT + " (a stale idle clock would hold the aligned tables forever): "
          + positions(targetPath) + " vs " + latest(sources));
      Thread.sleep(200);
    }
  }

  /**
   * The target's stored checkpoint is at every source's latest commit, and the target equals the model of the sources
   * there: no row lost, none duplicated.
   *
   * @return the positions of the checkpoint
   */
  private static Map<String, String> assertExactAtLatest(String targetPath, List<Source> sources) {
    Map<String, String> positions = positions(targetPath);
    assertEquals(latest(sources), positions, "the final checkpoint");
    SourceModel.ModelCheck checked = new SourceModel.ModelCheck();
    List<SourceModel> models = new ArrayList<>();
    sources.forEach(source -> models.add(source.model));
    int rows = SourceModel.checkTarget(targetPath, positions, models, checked);
    assertTrue(checked.clean(), () -> "target against the model at " + positions + ": " + checked.problems());
    LOG.info("Target at {}: {} rows, {}", positions, rows, checked);
    return positions;
  }

  /** Each table's position never goes back, and each of the target's delta commits moves at least one table. */
  private static void assertCheckpointsAdvance(String targetPath, List<String> commits) {
    List<Map<String, String>> checkpoints = new ArrayList<>();
    for (String commit : commits) {
      checkpoints.add(SourceModel.positionsOf(new StoredCheckpointReader(SharedSpark.jsc().hadoopConfiguration())
          .atCommit(targetPath, commit).checkpoint().get()));
    }
    for (int i = 1; i < checkpoints.size(); i++) {
      Map<String, String> before = checkpoints.get(i - 1);
      Map<String, String> after = checkpoints.get(i);
      assertTrue(!before.equals(after), "commit " + i + " did not move the checkpoint: " + after);
      for (String table : TABLES) {
        assertTrue(HoodieTimeline.compareTimestamps(before.get(table), HoodieTimeline.LESSER_THAN_OR_EQUALS,
            after.get(table)), "table " + table + " went back from " + before + " to " + after);
      }
    }
    for (String table : TABLES) {
      Set<String> seen = new HashSet<>();
      checkpoints.forEach(checkpoint -> seen.add(checkpoint.get(table)));
      assertTrue(seen.size() > 2, "table " + table + " moved in too few rounds: " + checkpoints);
    }
  }

  /** The freshness callback's gauge of a source (pipeline named after the target table, {@code joined}). */
  private static String pendingInstants(String table) {
    return new MetricNames("joined").source(table, SourceKind.HUDI.pendingMetric());
  }

  private static long tempViews() {
    return SharedSpark.session().catalog().listTables().collectAsList().stream().filter(Table::isTemporary).count();
  }

  private static List<String> ingestionCommits(String targetPath) {
    return Files.exists(Path.of(URI.create(targetPath)).resolve(".hoodie"))
        ? HudiTables.completedInstants(targetPath, HoodieTimeline.DELTA_COMMIT_ACTION) : List.of();
  }

  private static boolean caughtUp(String targetPath, List<Source> sources) {
    return !ingestionCommits(targetPath).isEmpty() && latest(sources).equals(positions(targetPath));
  }

  private static Map<String, String> positions(String targetPath) {
    return new StoredCheckpointReader(SharedSpark.jsc().hadoopConfiguration())
        .newest(targetPath, StoredCheckpointReader.UNBOUNDED).checkpoint().map(SourceModel::positionsOf)
        .orElse(Map.of());
  }

  private static Map<String, String> latest(List<Source> sources) {
    Map<String, String> latest = new TreeMap<>();
    sources.forEach(source -> latest.put(source.model.name(), HudiTables.lastCompletedInstant(source.path).get()));
    return latest;
  }

  /** Writes the sources: one commit at a time, each with a larger ordering value than the one before. */
  private static final class Writer {

    private final List<Source> sources;
    private final Random random;
    private long ts;
    private int commits;

    Writer(List<Source> sources, Random random) {
      this.sources = sources;
      this.random = random;
    }

    /** One commit to a source: a new key and, with {@code update}, an update of a live key. */
    void write(Source source, boolean update) {
      source.write(++ts, random, update);
      commits++;
    }

    /**
     * Commits to every source in turn while the Streamer's rounds run, a pass per two rounds (the second is sure to
     * start after the pass), until {@code enough} holds: the writer is never more than a pass ahead of the Streamer,
     * however the machine's load shares the time between them, so a source's cleaner (retaining
     * {@value #SOURCE_COMMITS_RETAINED} commits) never passes the Streamer's position, and the writer never runs out of
     * passes before the Streamer got where {@code enough} looks.
     *
     * @param update whether each commit also updates a live key
     */
    void writeWhileRoundsRun(StreamerJob.ContinuousRun run, boolean update, BooleanSupplier enough)
        throws InterruptedException {
      long deadline = System.nanoTime() + STREAMER_TIMEOUT.toNanos();
      while (!enough.getAsBoolean()) {
        assertTrue(run.isRunning(), () -> "the Streamer stopped while the sources were written: " + run.failure());
        assertTrue(System.nanoTime() < deadline, () -> "the Streamer's rounds did not get there within "
            + STREAMER_TIMEOUT + " (" + commits + " source commits, " + run.rounds() + " rounds)");
        int rounds = run.rounds();
        for (Source source : sources) {
          write(source, update);
        }
        awaitRounds(run, rounds + 2);
      }
      LOG.info("Writer stopped after {} source commits; waiting for the Streamer to catch up", commits);
    }
  }

  /**
   * The retention gauges the source published in its last round are the smallest headroom, in commits and in time,
   * over the sources whose retention bounds their final position.
   */
  private static void assertRetentionGauges(String targetPath, List<Source> sources, Map<String, String> positions) {
    List<WindowReadability> windows = sources.stream()
        .map(source -> source.retentionAt(positions.get(source.model.name())))
        .filter(window -> window.headroomCommits().isPresent()).collect(Collectors.toList());
    assertEquals(windows.stream().mapToLong(window -> window.headroomCommits().get()).min().orElse(-1L),
        TargetGauges.value(targetPath, MIN_HEADROOM_COMMITS), "smallest headroom in commits, " + windows);
    assertEquals(windows.stream().mapToLong(window -> window.headroomTime().get().getSeconds()).min().orElse(-1L),
        TargetGauges.value(targetPath, MIN_HEADROOM_SECONDS), "smallest headroom in seconds, " + windows);
  }

  /** A source table, its writer and its model. */
  private static final class Source {

    private final SourceModel model;
    private final String tableType;
    private final String path;
    private final boolean metadataTable;
    private final int commitsRetained;
    private final int minCommitsKept;
    private final int maxCommitsKept;

    Source(String name, String tableType, Path dir, boolean metadataTable) {
      this(name, tableType, dir, metadataTable, SOURCE_COMMITS_RETAINED, 20, 30);
    }

    /**
     * @param commitsRetained what the source's cleaner retains
     * @param minCommitsKept  how many commits its archival keeps active
     * @param maxCommitsKept  how many active commits make its archival run
     */
    Source(String name, String tableType, Path dir, boolean metadataTable, int commitsRetained, int minCommitsKept,
           int maxCommitsKept) {
      this.model = new SourceModel(name);
      this.tableType = tableType;
      this.path = dir.resolve(name).toUri().toString();
      this.metadataTable = metadataTable;
      this.commitsRetained = commitsRetained;
      this.minCommitsKept = minCommitsKept;
      this.maxCommitsKept = maxCommitsKept;
    }

    /**
     * One data commit: a new key and, with {@code update} once there are keys, an update of one (the cleaner needs old
     * versions).
     */
    void write(long ts, Random random, boolean update) {
      List<String> live = model.liveKeys();
      List<String> ids = new ArrayList<>(List.of("k" + model.keys().size()));
      if (update && !live.isEmpty()) {
        ids.add(live.get(random.nextInt(live.size())));
      }
      String action = tableType.equals("MERGE_ON_READ") ? HoodieTimeline.DELTA_COMMIT_ACTION : HoodieTimeline.COMMIT_ACTION;
      long[] values = new long[ids.size()];
      Row[] rows = new Row[ids.size()];
      for (int i = 0; i < ids.size(); i++) {
        values[i] = random.nextInt(1000);
        rows[i] = RowFactory.create(ids.get(i), values[i], ts, "p");
      }
      HudiTables.upsert(path, model.name(), tableType, "id", SourceModel.ROWS, Map.of(
          "hoodie.metadata.enable", String.valueOf(metadataTable),
          "hoodie.cleaner.commits.retained", String.valueOf(commitsRetained),
          "hoodie.keep.min.commits", String.valueOf(minCommitsKept),
          "hoodie.keep.max.commits", String.valueOf(maxCommitsKept),
          "hoodie.compact.inline", String.valueOf(tableType.equals("MERGE_ON_READ")),
          "hoodie.compact.inline.max.delta.commits", "2",
          "hoodie.parquet.small.file.limit", tableType.equals("MERGE_ON_READ") ? "0" : "104857600"), rows);
      String dataCommit = HudiTables.lastCompleted(path, action);
      for (int i = 0; i < ids.size(); i++) {
        model.record(dataCommit, ids.get(i), values[i], ts, null, false);
      }
    }

    /** The retention of its final timeline at its final position (the source does not change after the writer stopped). */
    WindowReadability retentionAt(String position) {
      WindowReadability window = SourceTimeline.load(path, SharedSpark.jsc().hadoopConfiguration()).get()
          .retention().readability(position);
      LOG.info("Source {} ({}): {}, headroom {} commits, {}", model.name(), tableType, window.retention(),
          window.headroomCommits(), window.headroomTime());
      return window;
    }
  }
}
