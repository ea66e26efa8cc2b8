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

import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.hudi014.SourceTimeline;
import org.apache.hudi.utilities.hudi014.StoredCheckpointReader;

import org.apache.hadoop.conf.Configuration;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Hudi tables the reporter reads, targets and sources alike, kept across rounds by base path: a table's meta
 * client is built once, and each round lists its timeline once however many pipelines read it (one listing of
 * {@code .hoodie}, see {@link SourceTimeline#reload}). A target's checkpoint is read again only when its newest
 * completed commit changed (when that commit stores no checkpoint itself, once more to confirm the one found below it).
 */
public final class HudiTableCache {

  private final Configuration hadoopConf;
  private final StoredCheckpointReader checkpoints;
  private final Map<String, Table> tables = new ConcurrentHashMap<>();
  private final AtomicLong round = new AtomicLong();

  public HudiTableCache(Configuration hadoopConf) {
    this.hadoopConf = hadoopConf;
    this.checkpoints = new StoredCheckpointReader(hadoopConf);
  }

  /** A new round: each table's timeline is listed again on its first use in it. */
  public void beginRound() {
    round.incrementAndGet();
  }

  /** The table's timeline in this round; empty if the path holds no Hudi table. */
  public Option<SourceTimeline> timeline(String basePath) {
    return table(basePath).timeline(round.get());
  }

  /**
   * The newest checkpoint the target stores, searching at most {@code maxCommits} commits: read from the target's
   * commits when its newest completed commit changed since the last round, else the one found then.
   *
   * @return {@link StoredCheckpoint#none} if the target does not exist or no commit looked at decides
   */
  public StoredCheckpoint checkpoint(String targetBasePath, int maxCommits) {
    return table(targetBasePath).checkpoint(round.get(), maxCommits);
  }

  /**
   * The checkpoint the target's last read found, without reading anything: what a round can batch its Kafka positions
   * by before its pipelines read their targets again.
   */
  public Option<StoredCheckpoint> lastCheckpoint(String targetBasePath) {
    Table table = tables.get(targetBasePath);
    return table == null ? Option.empty() : table.lastFound();
  }

  private Table table(String basePath) {
    return tables.computeIfAbsent(basePath, Table::new);
  }

  /** One table; a lock per table, so that pipelines sharing it wait for one listing and other tables do not. */
  private final class Table {
    private final String basePath;
    private long listedInRound = -1;
    private Option<SourceTimeline> timeline = Option.empty();
    /** The checkpoint found at the newest commit {@link #newestCommit}; only kept when that commit decided it. */
    private StoredCheckpoint checkpoint;
    private HoodieInstant newestCommit;
    private int searchedUpTo;
    /** The checkpoint found below the newest commit {@link #unconfirmedAt} by the last read, to confirm. */
    private StoredCheckpoint unconfirmed;
    private HoodieInstant unconfirmedAt;
    /**
     * Read without the table's lock: a round's start asks for it on the round's thread, which must not wait for a
     * worker stuck in this table's store (a hung target would stall every later round before its deadlines start).
     */
    private volatile StoredCheckpoint lastFound;

    Table(String basePath) {
      this.basePath = basePath;
    }

    synchronized Option<SourceTimeline> timeline(long currentRound) {
      if (listedInRound != currentRound) {
        timeline = timeline.isPresent() ? timeline.get().reload() : SourceTimeline.load(basePath, hadoopConf);
        listedInRound = currentRound;
      }
      return timeline;
    }

    Option<StoredCheckpoint> lastFound() {
      return Option.ofNullable(lastFound);
    }

    synchronized StoredCheckpoint checkpoint(long currentRound, int maxCommits) {
      lastFound = read(currentRound, maxCommits);
      return lastFound;
    }

    private StoredCheckpoint read(long currentRound, int maxCommits) {
      Option<SourceTimeline> current = timeline(currentRound);
      if (!current.isPresent()) {
        return StoredCheckpoint.none(0);
      }
      Option<HoodieInstant> newest = StoredCheckpointReader.newestIngestionCommit(current.get().metaClient());
      if (checkpoint != null && newest.isPresent() && newest.get().equals(newestCommit) && maxCommits == searchedUpTo) {
        return checkpoint;
      }
      StoredCheckpoint found = checkpoints.newest(current.get().metaClient(), maxCommits);
      // Kept when the newest commit itself decided. When newer commits were passed over (they store no checkpoint: a
      // table service's commit, or a round with nothing to ingest), one of them may instead have had its file still
      // being written, and decide next time: kept only once a second read at the same newest commit found the same.
      // A write in progress lasts milliseconds (CompletedInstantReader retries for 620 ms before passing it over);
      // reading the passed-over commits every round cost a fleet with such targets two requests a commit a round.
      boolean decidedByNewest = newest.isPresent() && found.commit().isPresent()
          && found.commit().get().equals(newest.get().getTimestamp());
      boolean confirmed = newest.isPresent() && newest.get().equals(unconfirmedAt) && found.equals(unconfirmed)
          && maxCommits == searchedUpTo;
      boolean keep = decidedByNewest || confirmed;
      checkpoint = keep ? found : null;
      newestCommit = keep ? newest.get() : null;
      unconfirmed = keep ? null : found;
      unconfirmedAt = keep || !newest.isPresent() ? null : newest.get();
      searchedUpTo = maxCommits;
      return found;
    }
  }
}
