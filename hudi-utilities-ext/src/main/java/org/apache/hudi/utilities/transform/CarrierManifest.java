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

package org.apache.hudi.utilities.transform;

import org.apache.hudi.common.util.Option;

import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link MultiDatasetCarrier} says about its batch besides the rows: the table of each slot, where each table
 * was before this batch and where it will be after its commit, the table order of the previous commit, and the target
 * table the batch is written to, when the source knows it.
 *
 * <p>It travels in the schema (column metadata), so it is known without running a job and survives re-wrapping.
 */
public final class CarrierManifest {

  private static final String TABLES = "tables";
  private static final String PREVIOUS_ORDER = "previousOrder";
  private static final String PREVIOUS_POSITIONS = "previousPositions";
  private static final String NEXT_POSITIONS = "nextPositions";
  private static final String TARGET = "target";
  private static final String PREVIOUS_VIEW_DEFINITION = "previousViewDefinition";
  private static final String VIEW_DEFINITION = "viewDefinition";
  private static final String NO_POSITION = "";

  private final List<String> tables;
  private final List<String> previousOrder;
  private final Map<String, String> previousPositions;
  private final Map<String, String> nextPositions;
  private final Option<String> target;
  private final Option<String> previousViewDefinition;
  private final Option<String> viewDefinition;

  /**
   * @param tables            the table of each slot, in slot order
   * @param previousOrder     the tables in the order the previous commit declared them; empty if unknown
   * @param previousPositions the inclusive instant each table was consumed up to before this batch; absent for none
   * @param nextPositions     the inclusive instant each table is consumed up to once this batch commits
   */
  public CarrierManifest(List<String> tables, List<String> previousOrder, Map<String, String> previousPositions,
                         Map<String, String> nextPositions) {
    this(tables, previousOrder, previousPositions, nextPositions, Option.empty(), Option.empty(), Option.empty());
  }

  private CarrierManifest(List<String> tables, List<String> previousOrder, Map<String, String> previousPositions,
                          Map<String, String> nextPositions, Option<String> target,
                          Option<String> previousViewDefinition, Option<String> viewDefinition) {
    this.tables = Collections.unmodifiableList(new ArrayList<>(tables));
    this.previousOrder = Collections.unmodifiableList(new ArrayList<>(previousOrder));
    this.previousPositions = Collections.unmodifiableMap(new LinkedHashMap<>(previousPositions));
    this.nextPositions = Collections.unmodifiableMap(new LinkedHashMap<>(nextPositions));
    this.target = target;
    this.previousViewDefinition = previousViewDefinition;
    this.viewDefinition = viewDefinition;
  }

  /** This manifest, naming the base path of the target table the batch is written to. */
  public CarrierManifest withTarget(String targetBasePath) {
    return new CarrierManifest(tables, previousOrder, previousPositions, nextPositions, Option.of(targetBasePath),
        previousViewDefinition, viewDefinition);
  }

  /**
   * This manifest, with the fingerprints of the view definitions ({@link ViewDefinitionFingerprint}) of the previous
   * commit and of the checkpoint this batch commits.
   */
  public CarrierManifest withViewDefinitions(Option<String> previous, Option<String> next) {
    return new CarrierManifest(tables, previousOrder, previousPositions, nextPositions, target, previous, next);
  }

  public List<String> tables() {
    return tables;
  }

  public List<String> previousOrder() {
    return previousOrder;
  }

  public Option<String> previousPosition(String table) {
    return Option.ofNullable(previousPositions.get(table));
  }

  public Option<String> nextPosition(String table) {
    return Option.ofNullable(nextPositions.get(table));
  }

  /** The base path of the target table the batch is written to; empty when the source was not told it. */
  public Option<String> target() {
    return target;
  }

  /** The view definition that wrote the previous commit, as its checkpoint records it; empty if it records none. */
  public Option<String> previousViewDefinition() {
    return previousViewDefinition;
  }

  /** The view definition this batch's checkpoint records; empty when the source found no view in the job's SQL. */
  public Option<String> viewDefinition() {
    return viewDefinition;
  }

  /**
   * The tables whose position in the list differs from the previous commit's, among those in both lists: what
   * positional placeholders would silently rebind.
   */
  public List<String> reorderedTables() {
    List<String> moved = new ArrayList<>();
    for (String table : tables) {
      int before = previousOrder.indexOf(table);
      if (before >= 0 && before != tables.indexOf(table)) {
        moved.add(table);
      }
    }
    return moved;
  }

  Metadata toMetadata() {
    MetadataBuilder metadata = new MetadataBuilder()
        .putStringArray(TABLES, tables.toArray(new String[0]))
        .putStringArray(PREVIOUS_ORDER, previousOrder.toArray(new String[0]))
        .putStringArray(PREVIOUS_POSITIONS, aligned(previousPositions))
        .putStringArray(NEXT_POSITIONS, aligned(nextPositions));
    target.ifPresent(path -> metadata.putString(TARGET, path));
    previousViewDefinition.ifPresent(fingerprint -> metadata.putString(PREVIOUS_VIEW_DEFINITION, fingerprint));
    viewDefinition.ifPresent(fingerprint -> metadata.putString(VIEW_DEFINITION, fingerprint));
    return metadata.build();
  }

  static Option<CarrierManifest> fromMetadata(Metadata metadata) {
    if (!metadata.contains(TABLES)) {
      return Option.empty();
    }
    List<String> tables = Arrays.asList(metadata.getStringArray(TABLES));
    return Option.of(new CarrierManifest(tables, Arrays.asList(metadata.getStringArray(PREVIOUS_ORDER)),
        byTable(tables, metadata.getStringArray(PREVIOUS_POSITIONS)), byTable(tables, metadata.getStringArray(NEXT_POSITIONS)),
        stringOf(metadata, TARGET), stringOf(metadata, PREVIOUS_VIEW_DEFINITION), stringOf(metadata, VIEW_DEFINITION)));
  }

  private static Option<String> stringOf(Metadata metadata, String key) {
    return metadata.contains(key) ? Option.of(metadata.getString(key)) : Option.empty();
  }

  private String[] aligned(Map<String, String> positions) {
    return tables.stream().map(table -> positions.getOrDefault(table, NO_POSITION)).toArray(String[]::new);
  }

  private static Map<String, String> byTable(List<String> tables, String[] aligned) {
    Map<String, String> positions = new LinkedHashMap<>();
    for (int i = 0; i < tables.size(); i++) {
      if (!aligned[i].equals(NO_POSITION)) {
        positions.put(tables.get(i), aligned[i]);
      }
    }
    return positions;
  }
}
