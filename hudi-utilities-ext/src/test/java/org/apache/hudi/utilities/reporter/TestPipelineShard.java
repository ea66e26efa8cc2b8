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

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reporters sharing a fleet by shard measure every pipeline exactly once, whatever the names. */
class TestPipelineShard {

  private static final List<String> NAMES = IntStream.range(0, 10_000)
      .mapToObj(i -> i % 3 == 0 ? "db.orders_" + i : i % 3 == 1 ? "clicks-" + i + "-v2" : "tâble_" + i)
      .collect(Collectors.toList());

  @Test
  void twoShardsTogetherHoldEveryPipelineExactlyOnce() {
    PipelineShard first = PipelineShard.of(0, 2);
    PipelineShard second = PipelineShard.of(1, 2);
    List<String> inFirst = NAMES.stream().filter(first::contains).collect(Collectors.toList());
    List<String> inSecond = NAMES.stream().filter(second::contains).collect(Collectors.toList());

    Set<String> overlap = new HashSet<>(inFirst);
    overlap.retainAll(inSecond);
    assertEquals(Set.of(), overlap);
    List<String> union = new ArrayList<>(inFirst);
    union.addAll(inSecond);
    assertEquals(new HashSet<>(NAMES), new HashSet<>(union));
    assertEquals(NAMES.size(), union.size());
    // A usable split, not everything on one side.
    assertTrue(inFirst.size() > 4_500 && inSecond.size() > 4_500, inFirst.size() + " / " + inSecond.size());
  }

  @Test
  void pipelineStaysOnItsShardInEveryProcessBecauseTheHashIsTheCrc32OfItsUtf8Name() {
    // CRC32("joined") = 0x55FD0903 = 1442646275: shard 1 of 2, shard 2 of 3, in any JVM (String.hashCode is not
    // part of the contract).
    assertTrue(PipelineShard.of(1, 2).contains("joined"));
    assertTrue(PipelineShard.of(2, 3).contains("joined"));
  }

  @Test
  void oneShardHoldsEveryPipeline() {
    assertTrue(NAMES.stream().allMatch(PipelineShard.ALL::contains));
  }

  @Test
  void shardOutsideTheCountIsRefusedWithTheOptionToFix() {
    assertEquals("Cannot measure shard 2 of 2: --shard-index must be from 0 to 1",
        assertThrows(IllegalArgumentException.class, () -> PipelineShard.of(2, 2)).getMessage());
    assertEquals("Cannot split the pipelines into 0 shards: --shard-count must be at least 1",
        assertThrows(IllegalArgumentException.class, () -> PipelineShard.of(0, 0)).getMessage());
  }
}
