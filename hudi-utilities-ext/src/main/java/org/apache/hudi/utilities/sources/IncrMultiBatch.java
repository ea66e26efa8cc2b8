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

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpoint;
import org.apache.hudi.utilities.config.MultiTableReadConf;
import org.apache.hudi.utilities.hudi014.MultiTableReader;
import org.apache.hudi.utilities.hudi014.MultiTableReader.BatchTimelines;
import org.apache.hudi.utilities.hudi014.RetentionGuard;
import org.apache.hudi.utilities.sources.multi.CommitTimeCeiling;
import org.apache.hudi.utilities.sources.multi.ResumePositions;
import org.apache.hudi.utilities.sources.multi.TableBatch;
import org.apache.hudi.utilities.transform.CarrierManifest;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The next batch of a {@link HoodieIncrMultiSource}, in the one sequence that the source runs and that explain shows:
 * list every table's timeline once, resolve the positions the batch resumes from ({@link ResumePositions}), check them
 * ({@link #check}), read each table's window ({@link #read}), then advance, merge and format the checkpoint to commit
 * and tell whether every table is caught up.
 */
public final class IncrMultiBatch {

  private final MultiTableReadConf conf;
  private final MultiTableReader reader;
  private final Option<String> resumeString;
  private final BatchTimelines timelines;
  private final ResumePositions resume;
  private final Option<String> viewDefinition;

  private IncrMultiBatch(MultiTableReadConf conf, MultiTableReader reader, Option<String> resumeString,
                         BatchTimelines timelines, ResumePositions resume, Option<String> viewDefinition) {
    this.conf = conf;
    this.reader = reader;
    this.resumeString = resumeString;
    this.timelines = timelines;
    this.resume = resume;
    this.viewDefinition = viewDefinition;
  }

  /**
   * Lists the tables' timelines for this batch and resolves the positions it resumes from.
   *
   * @param resumeString     what the Streamer hands the source: the stored checkpoint or a {@code --checkpoint}
   * @param storedCheckpoint the target's stored checkpoint, read only if the resume string does not decide alone
   * @param viewDefinition   the fingerprint of the job's view ({@code ViewDefinitionFingerprint}), recorded in the
   *                         checkpoint the batch commits; empty if the job's SQL is no view
   * @throws IllegalArgumentException if a checkpoint cannot be parsed or a reset names a table that is not configured
   */
  public static IncrMultiBatch resume(MultiTableReadConf conf, MultiTableReader reader, Option<String> resumeString,
                                      Supplier<Option<String>> storedCheckpoint, Option<String> viewDefinition) {
    BatchTimelines timelines = reader.loadTimelines();
    ResumePositions resume = ResumePositions.resolve(conf, resumeString, storedCheckpoint,
        timelines::latestCompletedInstant);
    return new IncrMultiBatch(conf, reader, resumeString, timelines, resume, viewDefinition);
  }

  public BatchTimelines timelines() {
    return timelines;
  }

  public ResumePositions resumePositions() {
    return resume;
  }

  /** The inclusive position of each table that has one, where this batch starts. */
  public MultiTableCheckpoint previous() {
    return resume.positions();
  }

  /**
   * Checks that the batch may run: no table lost its position to lenient parsing, and every table's window is still
   * readable after its source's cleaner and archival.
   *
   * @return the retention metrics of the tables, by metric name
   * @throws IllegalArgumentException if a table would silently start over
   * @throws org.apache.hudi.utilities.exception.HoodieReadFromSourceException if a window is cleaned away (or, under
   *     fail-fast, its headroom is too small)
   */
  public Map<String, Long> check(RetentionGuard guard) {
    resume.checkNoPositionLost();
    return guard.check(timelines, previous());
  }

  /** Reads every table's window (lazily, as datasets) and works out the checkpoint the batch commits. */
  public Outcome read() {
    return outcome(reader.read(timelines, previous()));
  }

  /** As {@link #read()}, reading exactly these aligned windows (the ones explain has shown), not aligning anew. */
  public Outcome read(CommitTimeCeiling aligned) {
    return outcome(reader.read(timelines, aligned));
  }

  private Outcome outcome(List<TableBatch> batches) {
    MultiTableCheckpoint advanced = TableBatch.advancedPositions(batches);
    MultiTableCheckpoint next = conf.checkpoints().merge(previous(), advanced);
    // A view whose definition changed is not caught up: its next commit records the new one, or its batch refuses.
    String nextString = conf.checkpoints().format(next, viewDefinition);
    boolean caughtUp = advanced.isEmpty() && nextString.equals(resumeString.orElse(""));
    CarrierManifest manifest = new CarrierManifest(conf.tableNames(), resume.storedOrder(), previous().positions(),
        next.positions()).withViewDefinitions(resume.storedViewDefinition(), viewDefinition);
    return new Outcome(batches, advanced, nextString, caughtUp, manifest);
  }

  /** What a batch read and the checkpoint it commits. */
  public static final class Outcome {
    private final List<TableBatch> batches;
    private final MultiTableCheckpoint advanced;
    private final String checkpoint;
    private final boolean caughtUp;
    private final CarrierManifest manifest;

    private Outcome(List<TableBatch> batches, MultiTableCheckpoint advanced, String checkpoint, boolean caughtUp,
                    CarrierManifest manifest) {
      this.batches = batches;
      this.advanced = advanced;
      this.checkpoint = checkpoint;
      this.caughtUp = caughtUp;
      this.manifest = manifest;
    }

    /** One batch per table, in table order. */
    public List<TableBatch> batches() {
      return batches;
    }

    /** The positions of the tables that read something. */
    public MultiTableCheckpoint advanced() {
      return advanced;
    }

    /** The checkpoint string to commit: every table's position after this batch. */
    public String checkpoint() {
      return checkpoint;
    }

    /**
     * Whether no table read anything and the checkpoint is the one the batch resumed from: the Streamer then skips the
     * round without a commit. With nothing read but positions moved (an override, a table removed), the commit still
     * records the move.
     */
    public boolean caughtUp() {
      return caughtUp;
    }

    /** The positions before and after, for the SQL's {@code <PREV>} and {@code <SNAP>} placeholders. */
    public CarrierManifest manifest() {
      return manifest;
    }
  }
}
