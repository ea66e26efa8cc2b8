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

package org.apache.hudi.utilities.freshness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Streamer's Kafka checkpoint, {@code topic,partition:nextOffset,...}.
 */
class TestKafkaCheckpoint {

  @Test
  void readsTopicAndNextOffsetsOfEveryPartition() {
    KafkaCheckpoint checkpoint = KafkaCheckpoint.parse("clicks,1:980,0:1200");
    assertEquals("clicks", checkpoint.topic());
    assertEquals(new TreeMap<>(Map.of(0, 1200L, 1, 980L)), checkpoint.nextOffsets());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "clicks|it names no partition",
      "clicks,0|entry '0' is not <partition>:<offset>",
      "clicks,0:x|entry '0:x' is not <partition>:<offset> in digits",
      "clicks,0:1,0:2|partition 0 is repeated",
      "clicks,0:-1|entry '0:-1' is negative",
      "0:5,1:6|it does not start with a topic name"})
  void rejectsMalformedCheckpointsNamingTheProblem(String text, String problem) {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> KafkaCheckpoint.parse(text));
    assertTrue(error.getMessage().startsWith("Cannot read the Kafka checkpoint '" + text + "': " + problem),
        error.getMessage());
  }
}
