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

import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.keygen.SimpleKeyGenerator;
import org.apache.hudi.utilities.hudi014.RetentionGuard;
import org.apache.hudi.utilities.hudi014.StoredCheckpointReader;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.SourceModel;
import org.apache.hudi.utilities.testutils.StreamerJob;
import org.apache.hudi.utilities.testutils.TargetGauges;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table services during the pipeline, under randomized schedules: two source tables are written and serviced between
 * Streamer rounds (MERGE_ON_READ compaction, clustering, cleaning, archival, all inline with their writes), the target
 * is serviced by the Streamer's own writes (compaction if MERGE_ON_READ, clustering, cleaning, archival), and after
 * every round the target must equal the model of the sources at the positions of its stored checkpoint: no row lost,
 * none duplicated, none newer than its table's position.
 *
 * <p>Drawn per seed: the target's table type; per source its table type, whether it is partitioned, its num_instants
 * (batches cut short or not), how often it is compacted (MERGE_ON_READ) and clustered, the commits its cleaner retains;
 * whether one source gains a nullable column between batches (and the SQL starts selecting it); whether the sources
 * delete rows; whether the target is clustered. A deleted row stays in the target in the version of the last
 * committed batch that read it (an incremental read does not carry deletes), derived from every round's positions.
 * Drawn too: whether the SQL adds the delete-aware exact join of docs/exact-joins.md of the two sources on {@code id}
 * (snapshots at the positions, PREV for deletes); its rows must be exactly the join of both models at the positions,
 * deletes included; and whether, each step, one source's commit
 * (with the services it triggers) lands from a writer thread while the round runs. Such a commit falls before or after
 * the batch's listing by timing, so a replayed seed draws the same setup and writes but its positions may differ.
 *
 * <p>Quick by default: one fixed seed, {@value #QUICK_SEED}, {@value #DEFAULT_STEPS} steps, so that every build draws
 * the same setup and writes, and sees the sources cleaned and archived behind the positions, and the target compacted,
 * cleaned and archived (asserted by count). Randomized with {@code -Dschedule.seeds=N} (the first seed is {@code schedule.seed} or the clock,
 * the next ones follow from it) and {@code -Dschedule.steps=M}. Every seed is printed; replay one with
 * {@code -Dschedule.seed=<seed>} and the same steps.
 *
 * <p>Every seed runs twice: with the metadata table off, and on as users keep it (Hudi's default for Spark writers),
 * with column stats, on every source and on the target. Hudi 0.14 archives a table's instants only behind its metadata
 * table's latest compaction, so there the metadata table compacts every {@value #METADATA_COMPACT_EVERY} of its delta
 * commits (Hudi's default is 10) for archival to happen within a quick run.
 */
class TestTableServiceSchedule {

  private static final Logger LOG = LoggerFactory.getLogger(TestTableServiceSchedule.class);

  private static final String SEED_PROPERTY = "schedule.seed";
  private static final String SEEDS_PROPERTY = "schedule.seeds";
  private static final String STEPS_PROPERTY = "schedule.steps";
  private static final int DEFAULT_STEPS = 8;
  /**
   * The quick default's seed: a MERGE_ON_READ target; partitioned sources, a MERGE_ON_READ one compacted at every
   * commit, a COPY_ON_WRITE one clustered every second commit and read two commits a batch; a column added at step 3;
   * deletes; the delete-aware exact join; a source commit landing during each round. Its sources are cleaned and
   * archived from about 8 steps on.
   */
  private static final long QUICK_SEED = 1172;
  /** Extra rounds run while a source is more commits than this behind, so its cleaner never passes the position. */
  private static final int MAX_LAG = 1;
  /** Most instants one step adds to a source: a data commit, then a compaction and a clustering it may trigger. */
  private static final int MAX_INSTANTS_PER_STEP = 3;

  /**
   * Off for every writer here: Hudi 0.14's clustering with the row writer (its default) reads each group as of the
   * clustering instant through the write client's timeline, and intermittently read a group as empty, failing the
   * write that triggered it ("Positive number of partitions required" from the empty list of write statuses);
   * without it clustering reads the group's files directly.
   */
  private static final String ROW_WRITER = "hoodie.datasource.write.row.writer.enable";

  private static final int METADATA_COMPACT_EVERY = 3;

  private static final StructType ROWS_WITH_NOTE = SourceModel.ROWS.add("note", DataTypes.StringType);

  /** Kept when the test fails: every seed's sources and target. */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @ParameterizedTest(name = "metadata table on: {0}")
  @ValueSource(booleans = {false, true})
  void sourcesAndTargetServicedBetweenRoundsLoseAndDuplicateNothing(boolean metadataTable) throws Exception {
    boolean randomized = System.getProperty(SEEDS_PROPERTY) != null;
    long firstSeed = Long.getLong(SEED_PROPERTY, randomized ? System.nanoTime() : QUICK_SEED);
    int seeds = Integer.getInteger(SEEDS_PROPERTY, 1);
    int steps = Integer.getInteger(STEPS_PROPERTY, DEFAULT_STEPS);
    List<Tally> tallies = new ArrayList<>();
    SplittableRandom seedSequence = new SplittableRandom(firstSeed);
    for (int run = 0; run < seeds; run++) {
      long seed = run == 0 ? firstSeed : seedSequence.nextLong();
      LOG.info("Table-service schedule with seed {}, metadata table on: {} (replay it with -D{}={} -D{}={})", seed,
          metadataTable, SEED_PROPERTY, seed, STEPS_PROPERTY, steps);
      Tally tally = new Tally(seed, metadataTable);
      tallies.add(tally);
      long started = System.nanoTime();
      try {
        new Schedule(seed, metadataSettings(metadataTable), Files.createDirectories(dir.resolve("seed-" + seed)), tally)
            .run(steps);
      } finally {
        tally.seconds = (System.nanoTime() - started) / 1_000_000_000L;
        LOG.info("Table-service schedule tally: {}", tally);
      }
    }
    LOG.info("Table-service schedules: {} seeds, {} rounds, {} rows checked, {} losses, {} duplicates, {} s", seeds,
        tallies.stream().mapToInt(t -> t.rounds).sum(), tallies.stream().mapToLong(t -> t.check.rowsChecked()).sum(),
        tallies.stream().mapToLong(t -> t.check.losses()).sum(), tallies.stream().mapToLong(t -> t.check.duplicates()).sum(),
        tallies.stream().mapToLong(t -> t.seconds).sum());
    for (Tally tally : tallies) {
      assertTrue(tally.rounds > steps && tally.sourceServices() > 0, "too little happened: " + tally);
    }
    if (!randomized && steps >= DEFAULT_STEPS) {
      Tally quick = tallies.get(0);
      for (Map.Entry<String, Map<String, Integer>> source : quick.sourceServicesSeen.entrySet()) {
        assertTrue(source.getValue().get("cleans") > 0 && source.getValue().get("archived") > 0,
            "source " + source.getKey() + " neither cleaned nor archived behind the positions: " + quick);
      }
      assertTrue(quick.targetServices.get("compactions") > 0 && quick.targetServices.get("cleans") > 0
          && quick.targetServices.get("archived") > 0, "the target was not compacted, cleaned and archived: " + quick);
    }
  }

  /** The metadata table's settings of every writer, the Streamer's included. */
  private static Map<String, String> metadataSettings(boolean on) {
    return on ? Map.of("hoodie.metadata.enable", "true", "hoodie.metadata.index.column.stats.enable", "true",
        "hoodie.metadata.compact.max.delta.commits", String.valueOf(METADATA_COMPACT_EVERY))
        : Map.of("hoodie.metadata.enable", "false");
  }

  /** One seed's run: the setup drawn, the sources and their model, the job, the rounds. */
  private static final class Schedule {

    private final Random random;
    private final Tally tally;
    private final String targetPath;
    private final String targetType;
    private final boolean targetClustering;
    private final boolean exactJoin;
    private final boolean concurrentWrites;
    private final List<Source> sources = new ArrayList<>();
    private final StreamerJob job;
    private final int addColumnAtStep;
    /** The target's positions after each round, oldest first: the window ends of its committed batches. */
    private final List<Map<String, String>> committedPositions = new ArrayList<>();
    private long version;

    Schedule(long seed, Map<String, String> metadataSettings, Path dir, Tally tally) {
      // Scrambled: java.util.Random's first draws hardly differ between nearby seeds (System.nanoTime() values drew
      // the same target type every time), and the target type is the first draw.
      this.random = new Random(new SplittableRandom(seed).nextLong());
      this.tally = tally;
      this.targetPath = dir.resolve("target").toUri().toString();
      this.targetType = random.nextBoolean() ? "COPY_ON_WRITE" : "MERGE_ON_READ";
      this.targetClustering = random.nextBoolean();
      boolean deletes = random.nextBoolean();
      this.exactJoin = random.nextBoolean();
      this.concurrentWrites = random.nextBoolean();
      for (String name : List.of("a", "b")) {
        sources.add(new Source(name, dir.resolve(name).toUri().toString(), random, deletes, exactJoin,
            metadataSettings));
      }
      this.addColumnAtStep = random.nextInt(3) == 0 ? -1 : 1 + random.nextInt(DEFAULT_STEPS - 1);
      this.job = new StreamerJob(dir, targetPath)
          .tableType(targetType)
          .transformers(MultiDatasetSqlFileTransformer.class.getName())
          .property("hoodie.streamer.source.multi.hudi.tables", "a,b")
          .property("hoodie.datasource.write.recordkey.field", "rk")
          .property("hoodie.metrics.on", "true")
          .property("hoodie.metrics.reporter.type", "INMEMORY")
          .property("hoodie.cleaner.commits.retained", "2")
          .property("hoodie.keep.min.commits", "3")
          .property("hoodie.keep.max.commits", "4")
          .property("hoodie.compact.inline.max.delta.commits", "2")
          .property("hoodie.clustering.inline", String.valueOf(targetClustering))
          .property("hoodie.clustering.inline.max.commits", "2")
          .property(ROW_WRITER, "false")
          .sql(sql(false));
      metadataSettings.forEach(job::property);
      for (Source source : sources) {
        job.property("hoodie.streamer.source.hudi." + source.name + ".path", source.path)
            .property("hoodie.streamer.source.hudi." + source.name + ".missing.checkpoint.strategy",
                "READ_UPTO_LATEST_COMMIT")
            .property("hoodie.streamer.source.hudi." + source.name + ".num_instants", String.valueOf(source.numInstants));
      }
      tally.setup = String.format("target %s%s, add column at step %s, deletes %s, SQL %s, %s; %s", targetType,
          targetClustering ? " clustered" : "", addColumnAtStep < 0 ? "never" : addColumnAtStep, deletes,
          exactJoin ? "deltas and their delete-aware exact join" : "deltas",
          concurrentWrites ? "a source commit lands while each round reads" : "sources written between rounds", sources);
      LOG.info("Setup: {}", tally.setup);
    }

    void run(int steps) throws Exception {
      for (Source source : sources) {
        source.write(++version, tally);
      }
      round(Option.empty());
      for (int step = 1; step <= steps; step++) {
        if (step == addColumnAtStep) {
          sources.get(0).addNote();
          job.sql(sql(true));
          tally.columnsAdded++;
        }
        List<Source> writing = new ArrayList<>();
        for (Source source : sources) {
          // The source that gains the column writes with it in the same step, before the round: the SQL now selects
          // it, and a column no commit of the table has yet cannot be resolved (a user changes the SQL once the
          // column exists).
          boolean gainsColumn = step == addColumnAtStep && source == sources.get(0);
          if (random.nextInt(4) != 0 || gainsColumn) {
            writing.add(source);
          }
        }
        Option<Source> duringRound = concurrentWrites && !writing.isEmpty()
            && !(step == addColumnAtStep && writing.get(writing.size() - 1) == sources.get(0))
            ? Option.of(writing.remove(writing.size() - 1)) : Option.empty();
        for (Source source : writing) {
          source.write(++version, tally);
        }
        long ts = duringRound.isPresent() ? ++version : 0;
        round(duringRound.map(source -> () -> source.write(ts, tally)));
        catchUp(MAX_LAG);
      }
      catchUp(0);
      for (Source source : sources) {
        assertEquals(source.latestInstant(), positions().get(source.name), "the last round must have caught up with "
            + source.name + " (seed " + tally.seed + ")");
      }
      tally.targetServices = targetServices();
    }

    /** Extra rounds, without source writes, until no source is more than {@code lag} commits ahead of its position. */
    private void catchUp(int lag) throws Exception {
      while (sources.stream().anyMatch(source -> source.lag(positions()) > lag)) {
        Map<String, String> before = positions();
        round(Option.empty());
        assertTrue(!before.equals(positions()), "a round behind the sources did not move (seed " + tally.seed + "): "
            + before);
      }
    }

    /**
     * Each source's delta, one row per source row; with the exact join also one row per id that both sources hold
     * ({@code j:<id>}), from the delete-aware recipe of docs/exact-joins.md: deltas joined with the other table's
     * snapshot at the batch's position, and deletes of the ids that left a source since its previous position.
     */
    private String sql(boolean withNote) {
      String note = withNote ? ", note" : "";
      String noNote = withNote ? ", CAST(NULL AS STRING)" : "";
      String kept = exactJoin ? ", false AS _hoodie_is_deleted" : "";
      String deltas = "SELECT concat('a:', id) AS rk, 'a' AS src, id, v, ts" + note + kept + " FROM <SRC:a>\n"
          + "UNION ALL\n"
          + "SELECT concat('b:', id), 'b', id, v, ts" + noNote + (exactJoin ? ", false" : "") + " FROM <SRC:b>";
      if (!exactJoin) {
        return deltas;
      }
      String joined = "SELECT concat('j:', x.id), 'j', x.id, x.v * 1000 + y.v, greatest(x.ts, y.ts)" + noNote + ", false";
      String left = "SELECT concat('j:', p.id), 'j', p.id, p.v, p.ts" + noNote + ", true";
      return deltas + "\nUNION ALL\n"
          + joined + " FROM <SRC:a> x JOIN <SNAP:b> y ON x.id = y.id\n"
          + "UNION ALL\n"
          + joined + " FROM <SNAP:a> x JOIN <SRC:b> y ON x.id = y.id\n"
          + "UNION ALL\n"
          + left + " FROM <PREV:a> p LEFT ANTI JOIN <SNAP:a> s ON p.id = s.id\n"
          + "UNION ALL\n"
          + left + " FROM <PREV:b> p LEFT ANTI JOIN <SNAP:b> s ON p.id = s.id";
    }

    /** The join rows against the join of both models at the positions: exactly the ids live in both, no other. */
    private void checkJoin(Map<String, String> positions, Map<String, Row> target) {
      SourceModel a = sources.get(0).model;
      SourceModel b = sources.get(1).model;
      Set<String> ids = new TreeSet<>(a.keys());
      ids.addAll(b.keys());
      for (String id : ids) {
        Option<SourceModel.Version> x = a.liveAt(id, positions.get(a.name()));
        Option<SourceModel.Version> y = b.liveAt(id, positions.get(b.name()));
        Row row = target.get("j:" + id);
        tally.check.checked();
        if (x.isPresent() && y.isPresent()) {
          long v = x.get().value() * 1000 + y.get().value();
          long ts = Math.max(x.get().ts(), y.get().ts());
          if (row == null || row.getLong(4) != v || row.getLong(5) != ts) {
            tally.check.lost("j:" + id + " at " + positions + " should be v=" + v + ", ts=" + ts + ", is " + row);
          }
        } else if (row != null) {
          tally.check.unexpected("j:" + id + " joins nothing at " + positions + ", is " + row);
        }
      }
    }

    /** One Streamer round, then the target against the model at its stored positions. */
    private void round(Option<Runnable> duringRound) throws Exception {
      // The source's own writer thread: its commit (and the services it triggers) may land before, while or after the
      // batch lists, reads and snapshots that table; the check below needs only the positions the round stored.
      Option<CompletableFuture<Void>> writer = duringRound.map(CompletableFuture::runAsync);
      try {
        job.syncInProcess();
      } finally {
        if (writer.isPresent()) {
          writer.get().join();
          tally.concurrentCommits++;
        }
      }
      tally.rounds++;
      Map<String, String> positions = positions();
      committedPositions.add(positions);
      Map<String, Row> byKey = SourceModel.checkTarget(targetPath, committedPositions,
          sources.stream().map(source -> source.model).collect(Collectors.toList()),
          rk -> exactJoin && rk.startsWith("j:"), tally.check);
      if (exactJoin) {
        checkJoin(positions, byKey);
      }
      long headroom = TargetGauges.value(targetPath, RetentionGuard.MIN_HEADROOM_COMMITS_METRIC);
      tally.minHeadroom = Math.min(tally.minHeadroom, headroom >= 0 ? headroom : Long.MAX_VALUE);
      LOG.info("Round {}: checkpoint {}, {} target rows; {}", tally.rounds, positions, byKey.size(), tally);
      assertTrue(tally.check.clean(), "round " + tally.rounds + " (seed " + tally.seed + ", " + tally.setup + "): "
          + tally.check.problems());
    }

    /** The positions of the target's stored checkpoint, found as the Streamer finds it, across its table services. */
    private Map<String, String> positions() {
      String checkpoint = new StoredCheckpointReader(SharedSpark.jsc().hadoopConfiguration())
          .newest(targetPath, StoredCheckpointReader.UNBOUNDED).checkpoint()
          .orElseThrow(() -> new AssertionError("the target stores no checkpoint"));
      Map<String, String> positions = SourceModel.positionsOf(checkpoint);
      assertEquals(Set.of("a", "b"), positions.keySet(), "checkpoint tables: " + checkpoint);
      return positions;
    }

    private Map<String, Integer> targetServices() {
      return Services.performedOn(targetPath);
    }
  }

  /**
   * A source table, its writer and its model: every version of every key with the instant of the data commit that
   * wrote it. A row's ts is unique across both tables and increases with every commit.
   */
  private static final class Source {

    private final String name;
    private final String path;
    private final Random random;
    private final boolean deletes;
    private final String tableType;
    private final boolean partitioned;
    private final int numInstants;
    private final int compactEvery;
    private final int clusterEvery;
    private final int commitsRetained;
    private final Map<String, String> metadataSettings;
    private final SourceModel model;
    private boolean withNote;
    private int nextId;

    Source(String name, String path, Random random, boolean deletes, boolean exactJoin,
           Map<String, String> metadataSettings) {
      this.name = name;
      this.metadataSettings = metadataSettings;
      this.model = new SourceModel(name);
      this.path = path;
      this.random = random;
      this.deletes = deletes;
      this.tableType = random.nextBoolean() ? "COPY_ON_WRITE" : "MERGE_ON_READ";
      this.partitioned = random.nextBoolean();
      this.numInstants = new int[] {1, 2, 3, 100}[random.nextInt(4)];
      this.compactEvery = tableType.equals("MERGE_ON_READ") ? random.nextInt(4) : 0;
      // Not both inline on one MERGE_ON_READ writer: Hudi 0.14's inline clustering right after an inline compaction
      // fails the source's own write ("Positive number of partitions required", seed 309 before this rule).
      this.clusterEvery = compactEvery > 0 ? 0 : random.nextInt(3);
      // As few commits as keep a position within MAX_LAG readable after one more step: the cleaner's bound then
      // reaches the first commit after it (headroom 0), so cleans happen within a quick run.
      // The exact join reads the table as of its previous position (PREV): one commit more keeps that version too.
      this.commitsRetained = MAX_LAG + MAX_INSTANTS_PER_STEP + random.nextInt(2) + (exactJoin ? 1 : 0);
    }

    void addNote() {
      withNote = true;
    }

    /** One data commit of upserts or (sometimes) deletes, with the inline services it may trigger. */
    void write(long ts, Tally tally) {
      Set<String> before = instants(path);
      List<String> live = model.liveKeys();
      boolean delete = deletes && live.size() > 2 && random.nextInt(4) == 0;
      Map<String, Row> rows = new LinkedHashMap<>();
      Map<String, Long> values = new HashMap<>();
      for (int i = 1 + random.nextInt(3); i > 0; i--) {
        String id = !delete && (live.isEmpty() || random.nextInt(2) == 0) ? "k" + nextId++ : live.get(random.nextInt(live.size()));
        long v = random.nextInt(1000);
        values.put(id, v);
        rows.put(id, row(id, v, ts));
      }
      Map<String, String> options = new HashMap<>(Map.of(
          "hoodie.cleaner.commits.retained", String.valueOf(commitsRetained),
          "hoodie.keep.min.commits", String.valueOf(commitsRetained + 1),
          "hoodie.keep.max.commits", String.valueOf(commitsRetained + 3),
          "hoodie.compact.inline", String.valueOf(compactEvery > 0),
          "hoodie.compact.inline.max.delta.commits", String.valueOf(Math.max(1, compactEvery)),
          "hoodie.clustering.inline", String.valueOf(clusterEvery > 0),
          "hoodie.clustering.inline.max.commits", String.valueOf(Math.max(1, clusterEvery))));
      options.put(ROW_WRITER, "false");
      options.putAll(metadataSettings);
      if (partitioned) {
        options.put("hoodie.datasource.write.partitionpath.field", "part");
        options.put("hoodie.datasource.write.keygenerator.class", SimpleKeyGenerator.class.getName());
      }
      if (delete) {
        options.put("hoodie.datasource.write.operation", "delete");
      }
      HudiTables.upsert(path, name, tableType, "id", withNote ? ROWS_WITH_NOTE : SourceModel.ROWS, options,
          rows.values().toArray(new Row[0]));
      String dataCommit = newInstants(before, tableType.equals("MERGE_ON_READ")
          ? HoodieTimeline.DELTA_COMMIT_ACTION : HoodieTimeline.COMMIT_ACTION);
      for (Map.Entry<String, Row> row : rows.entrySet()) {
        model.record(dataCommit, row.getKey(), values.get(row.getKey()), ts,
            withNote ? row.getValue().getString(4) : null, delete);
      }
      tally.sourceCommits++;
      tally.sourceDeletes += delete ? 1 : 0;
      tally.sourceServicesSeen.put(name, Services.performedOn(path));
    }

    private Row row(String id, long v, long ts) {
      String part = "p" + Math.floorMod(id.hashCode(), 3);
      return withNote ? RowFactory.create(id, v, ts, part, random.nextBoolean() ? "n" + ts : null)
          : RowFactory.create(id, v, ts, part);
    }

    /** The one completed instant of the given action the write added (others are its services). */
    private String newInstants(Set<String> before, String action) {
      List<String> added = completed(path).getInstantsAsStream()
          .filter(instant -> instant.getAction().equals(action) && !before.contains(instant.getTimestamp()))
          .map(HoodieInstant::getTimestamp).collect(Collectors.toList());
      assertEquals(1, added.size(), "data commits added to " + name + ": " + added);
      return added.get(0);
    }

    /** Completed commits of the source after its position in the checkpoint. */
    int lag(Map<String, String> positions) {
      return completed(path).findInstantsAfter(positions.get(name), Integer.MAX_VALUE).countInstants();
    }

    String latestInstant() {
      return completed(path).lastInstant().get().getTimestamp();
    }

    private static HoodieTimeline completed(String path) {
      return HoodieTableMetaClient.builder().setConf(SharedSpark.jsc().hadoopConfiguration()).setBasePath(path)
          .setLoadActiveTimelineOnLoad(true).build().getCommitsTimeline().filterCompletedInstants();
    }

    private static Set<String> instants(String path) {
      if (!Files.exists(Path.of(java.net.URI.create(path)).resolve(".hoodie"))) {
        return Set.of();
      }
      return completed(path).getInstantsAsStream().map(HoodieInstant::getTimestamp).collect(Collectors.toSet());
    }

    @Override
    public String toString() {
      return String.format("%s: %s%s, num_instants %d, compact every %d, cluster every %d, clean keeps %d", name,
          tableType, partitioned ? " partitioned" : "", numInstants, compactEvery, clusterEvery, commitsRetained);
    }
  }

  /** The services a table's timeline shows, by kind, archived ones included (archived: how many instants were). */
  private static final class Services {

    static Map<String, Integer> performedOn(String path) {
      HoodieTableMetaClient metaClient = HoodieTableMetaClient.builder().setConf(SharedSpark.jsc().hadoopConfiguration())
          .setBasePath(path).setLoadActiveTimelineOnLoad(true).build();
      HoodieTimeline completed = metaClient.getActiveTimeline().filterCompletedInstants();
      HoodieTimeline archived = metaClient.getArchivedTimeline().filterCompletedInstants();
      boolean mergeOnRead = metaClient.getTableType().name().equals("MERGE_ON_READ");
      Map<String, Integer> services = new TreeMap<>();
      services.put("compactions", mergeOnRead ? count(completed, archived, HoodieTimeline.COMMIT_ACTION) : 0);
      services.put("clusterings", count(completed, archived, HoodieTimeline.REPLACE_COMMIT_ACTION));
      services.put("cleans", count(completed, archived, HoodieTimeline.CLEAN_ACTION));
      services.put("archived", archived.countInstants());
      return services;
    }

    private static int count(HoodieTimeline active, HoodieTimeline archived, String action) {
      return (int) Stream.concat(active.getInstantsAsStream(), archived.getInstantsAsStream())
          .filter(instant -> instant.getAction().equals(action)).count();
    }
  }

  private static final class Tally {

    final long seed;
    final boolean metadataTable;
    String setup;
    int rounds;
    int sourceCommits;
    int sourceDeletes;
    int columnsAdded;
    int concurrentCommits;
    final Map<String, Map<String, Integer>> sourceServicesSeen = new TreeMap<>();
    Map<String, Integer> targetServices = Map.of();
    final SourceModel.ModelCheck check = new SourceModel.ModelCheck();
    long minHeadroom = Long.MAX_VALUE;
    long seconds;

    Tally(long seed, boolean metadataTable) {
      this.seed = seed;
      this.metadataTable = metadataTable;
    }

    int sourceServices() {
      return sourceServicesSeen.values().stream().mapToInt(services -> services.get("compactions")
          + services.get("clusterings") + services.get("cleans")).sum();
    }

    @Override
    public String toString() {
      return String.format("seed=%d, metadata table on: %s, rounds=%d, source commits=%d (delete commits %d, during a "
              + "round %d), columns "
              + "added=%d, source services=%s, target services=%s, %s, least retention headroom seen=%s, time=%d s",
          seed, metadataTable, rounds, sourceCommits, sourceDeletes, concurrentCommits, columnsAdded, sourceServicesSeen,
          targetServices, check, minHeadroom == Long.MAX_VALUE ? "none" : minHeadroom, seconds);
    }
  }
}
