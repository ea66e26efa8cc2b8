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

package org.apache.hudi.utilities.testutils;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The oracle of the end-to-end tests: which version of a deleted key a target must hold, given the window ends of its
 * committed batches (an incremental read carries no delete).
 */
class TestSourceModel {

  private static final StructType TARGET = new StructType()
      .add("rk", DataTypes.StringType, false)
      .add("src", DataTypes.StringType)
      .add("id", DataTypes.StringType)
      .add("v", DataTypes.LongType)
      .add("ts", DataTypes.LongType);

  private static final AtomicInteger TARGETS = new AtomicInteger();

  @TempDir
  Path dir;

  /** Table a: x written at 1 and 2, deleted at 4; y written at 1. */
  private static SourceModel modelOfUpdatesThenDelete() {
    SourceModel a = new SourceModel("a");
    a.record("001", "x", 1, 1, null, false);
    a.record("001", "y", 10, 1, null, false);
    a.record("002", "x", 2, 2, null, false);
    a.record("004", "x", 0, 4, null, true);
    return a;
  }

  @Test
  void deletedKeyStaysInTheVersionOfTheLastBatchThatReadIt() {
    // Batch (, 003] read x at 2; batch (003, 005] found x deleted and read nothing of it.
    List<String> windowEnds = List.of("003", "005");

    assertEquals(List.of(), problems(windowEnds, row("x", 2, 2), row("y", 10, 1)));
    assertEquals(1, problems(windowEnds, row("x", 1, 1), row("y", 10, 1)).size(), "an older version than was read");
    assertEquals(1, problems(windowEnds, row("y", 10, 1)).size(), "the read version lost");
  }

  @Test
  void keyUpdatedAndDeletedInsideOneWindowStaysInTheVersionBeforeIt() {
    // Batch (, 001] read x at 1; batch (001, 005] saw x's latest state deleted: version 2 was never read.
    List<String> windowEnds = List.of("001", "005");

    assertEquals(List.of(), problems(windowEnds, row("x", 1, 1), row("y", 10, 1)));
    assertEquals(1, problems(windowEnds, row("x", 2, 2), row("y", 10, 1)).size(), "a version no batch read");
  }

  @Test
  void keyDeletedBeforeItsFirstReadIsAbsent() {
    List<String> windowEnds = List.of("005");

    assertEquals(List.of(), problems(windowEnds, row("y", 10, 1)));
    List<String> problems = problems(windowEnds, row("x", 2, 2), row("y", 10, 1));
    assertTrue(problems.size() == 1 && problems.get(0).startsWith("no committed batch of a read this version"),
        problems.toString());
  }

  private static Row row(String id, long v, long ts) {
    return RowFactory.create("a:" + id, "a", id, v, ts);
  }

  /** The problems the check finds in a target holding {@code rows}, committed by batches ending at {@code windowEnds}. */
  private List<String> problems(List<String> windowEnds, Row... rows) {
    String target = dir.resolve("target-" + TARGETS.incrementAndGet()).toUri().toString();
    HudiTables.upsert(target, "target", "COPY_ON_WRITE", "rk", TARGET, rows);
    SourceModel.ModelCheck check = new SourceModel.ModelCheck();
    List<Map<String, String>> committed = windowEnds.stream().map(end -> Map.of("a", end)).collect(Collectors.toList());
    SourceModel.checkTarget(target, committed, List.of(modelOfUpdatesThenDelete()), key -> false, check);
    return check.problems();
  }
}
