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

package org.apache.hudi.utilities.checkpoint;

import org.apache.hudi.common.util.Option;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a resume string asks for: the checkpoint stored by the last commit, or an operator's {@code --checkpoint}
 * override, which may name only some tables and may ask for a {@link TableReset} instead of an instant.
 *
 * <p>In lenient parsing, the entries that could not be read are kept as text, so that the tables they may concern
 * are known.
 */
public final class RequestedCheckpoint {

  private final MultiTableCheckpoint positions;
  private final SortedMap<String, TableReset> resets;
  private final List<String> malformedEntries;
  private final List<String> tableOrder;
  private final Option<String> viewDefinition;

  RequestedCheckpoint(MultiTableCheckpoint positions, SortedMap<String, TableReset> resets,
                      List<String> malformedEntries, List<String> tableOrder, Option<String> viewDefinition) {
    this.positions = positions;
    this.resets = Collections.unmodifiableSortedMap(new TreeMap<>(resets));
    this.malformedEntries = Collections.unmodifiableList(new ArrayList<>(malformedEntries));
    this.tableOrder = Collections.unmodifiableList(new ArrayList<>(tableOrder));
    this.viewDefinition = viewDefinition;
  }

  /** The tables asked to be at an instant. */
  public MultiTableCheckpoint positions() {
    return positions;
  }

  /** The tables asked to be reset, by name. */
  public SortedMap<String, TableReset> resets() {
    return resets;
  }

  /**
   * The order in which the pipeline that wrote this checkpoint declared its tables, as far as the checkpoint tells;
   * empty when it holds no position.
   */
  public List<String> tableOrder() {
    return tableOrder;
  }

  /**
   * The fingerprint of the view definition that wrote the commit holding this checkpoint ({@code @view=...}); empty for
   * a job whose SQL is no view, a commit of an earlier version, or an override that does not name one.
   */
  public Option<String> viewDefinition() {
    return viewDefinition;
  }

  /** Entries skipped by lenient parsing, as written. */
  public List<String> malformedEntries() {
    return malformedEntries;
  }

  /**
   * Whether this request alone determines every table's position: it names each of {@code tables} with an instant,
   * asks for no reset and skipped no entry.
   */
  public boolean isCompleteFor(Collection<String> tables) {
    return resets.isEmpty() && malformedEntries.isEmpty() && positions.tables().containsAll(tables);
  }

  /** Whether a skipped entry names {@code table}, or names no table at all and so may have been its position. */
  public boolean mayHaveLostPositionOf(String table) {
    return malformedEntries.stream().anyMatch(entry -> {
      int separator = entry.indexOf(MultiTableCheckpointManager.POSITION_SEPARATOR);
      return separator <= 0 || entry.substring(0, separator).trim().equals(table);
    });
  }
}
