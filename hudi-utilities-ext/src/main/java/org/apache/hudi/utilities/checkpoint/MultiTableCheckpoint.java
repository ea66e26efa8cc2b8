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

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The read position of every source table of a multi-table pipeline: an immutable map from table name to the
 * instant up to which that table has been consumed.
 *
 * <p>A position is <em>inclusive</em>: every completed instant of the table at or before it has been read and
 * committed to the target, and the next read starts strictly after it. A table without a position has never
 * been read by this pipeline and starts from its missing-checkpoint strategy.
 *
 * <p>Tables are kept in name order, so equal states always compare, hash and serialize the same.
 */
public final class MultiTableCheckpoint {

  /**
   * The position before a table's first instant: the next read starts from the beginning. Equal to Hudi's initial
   * instant time, so that it sorts before every real instant.
   */
  public static final String BEFORE_FIRST_INSTANT = "00000000000000";

  private static final MultiTableCheckpoint EMPTY = new MultiTableCheckpoint(new TreeMap<>());

  private final SortedMap<String, String> positions;

  private MultiTableCheckpoint(SortedMap<String, String> positions) {
    this.positions = Collections.unmodifiableSortedMap(positions);
  }

  /** A checkpoint that holds no position. */
  public static MultiTableCheckpoint empty() {
    return EMPTY;
  }

  /**
   * A checkpoint holding the given positions.
   *
   * @param positions table name to inclusive instant; neither may be null or empty
   * @throws IllegalArgumentException if a table name or an instant is null or empty
   */
  public static MultiTableCheckpoint of(Map<String, String> positions) {
    SortedMap<String, String> copy = new TreeMap<>();
    positions.forEach((table, instant) -> copy.put(requireNonEmpty(table, "table name"),
        requireNonEmpty(instant, "instant of table " + table)));
    return copy.isEmpty() ? EMPTY : new MultiTableCheckpoint(copy);
  }

  /** The inclusive position of a table, or empty if the table has never been read. */
  public Option<String> position(String table) {
    return Option.ofNullable(positions.get(table));
  }

  /** The positions, by table name in name order. */
  public SortedMap<String, String> positions() {
    return positions;
  }

  /** The tables that have a position, in name order. */
  public Set<String> tables() {
    return positions.keySet();
  }

  public boolean isEmpty() {
    return positions.isEmpty();
  }

  /** A copy of this checkpoint in which {@code table} is at {@code instant}. */
  public MultiTableCheckpoint withPosition(String table, String instant) {
    SortedMap<String, String> copy = new TreeMap<>(positions);
    copy.put(requireNonEmpty(table, "table name"), requireNonEmpty(instant, "instant of table " + table));
    return new MultiTableCheckpoint(copy);
  }

  /** A copy of this checkpoint that keeps the positions of the given tables only. */
  public MultiTableCheckpoint retainTables(Collection<String> tables) {
    SortedMap<String, String> copy = new TreeMap<>(positions);
    copy.keySet().retainAll(tables);
    return copy.size() == positions.size() ? this : new MultiTableCheckpoint(copy);
  }

  private static String requireNonEmpty(String value, String what) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("Cannot build a multi-table checkpoint: " + what + " is empty");
    }
    return value;
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || (other instanceof MultiTableCheckpoint && positions.equals(((MultiTableCheckpoint) other).positions));
  }

  @Override
  public int hashCode() {
    return Objects.hash(positions);
  }

  @Override
  public String toString() {
    return "MultiTableCheckpoint" + positions;
  }
}
