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

package org.apache.hudi.utilities.sources.multi;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.testutils.SharedSpark;

import org.junit.jupiter.api.Test;

import java.time.Clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Invalid parallel-read and alignment settings fail when the source is built, naming the key and the fix.
 */
class TestMultiTableReaderSettings {

  private static String failure(String key, String value) {
    TypedProperties props = new TypedProperties();
    props.setProperty(key, value);
    return assertThrows(IllegalArgumentException.class, () -> MultiTableReader.from(props,
        new IncrementalTableReader(props, SharedSpark.jsc(), SharedSpark.session()), SharedSpark.jsc(),
        SharedSpark.session(), Clock.systemUTC())).getMessage();
  }

  @Test
  void parallelismIsAPositiveWholeNumber() {
    assertEquals("Cannot read the tables with hoodie.streamer.source.multi.hudi.read.parallelism=0: it must be a "
        + "positive whole number (1 reads one table at a time)", failure("hoodie.streamer.source.multi.hudi.read.parallelism", "0"));
    assertEquals("Cannot read the tables with hoodie.streamer.source.multi.hudi.read.parallelism=many: it is not a "
        + "whole number", failure("hoodie.deltastreamer.source.multi.hudi.read.parallelism", "many"));
  }

  @Test
  void alignmentIsOneOfTheModes() {
    assertEquals("Cannot align the tables with hoodie.streamer.source.multi.hudi.alignment=CEILING: it is not one of "
        + "[NONE, COMMIT_TIME_CEILING]", failure("hoodie.streamer.source.multi.hudi.alignment", "CEILING"));
  }

  @Test
  void idleTimeoutIsNotNegative() {
    assertEquals("Cannot align the tables with hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms=-1: it "
        + "must be 0 or more milliseconds (0: a table without new commits never holds the others)",
        failure("hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms", "-1"));
  }

  @Test
  void alignmentCannotBeCombinedWithASnapshotLoadQuerySplitter() {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.alignment", "COMMIT_TIME_CEILING");
    props.setProperty("hoodie.deltastreamer.snapshotload.query.splitter.class.name", "com.example.Splitter");

    String message = assertThrows(IllegalArgumentException.class, () -> MultiTableReader.from(props,
        new IncrementalTableReader(props, SharedSpark.jsc(), SharedSpark.session()), SharedSpark.jsc(),
        SharedSpark.session(), Clock.systemUTC())).getMessage();

    assertEquals("Cannot align the tables with hoodie.streamer.source.multi.hudi.alignment=COMMIT_TIME_CEILING while "
        + "hoodie.deltastreamer.snapshotload.query.splitter.class.name is set: aligned snapshot reads end at the "
        + "ceiling, which that splitter would move. Remove the splitter, or set "
        + "hoodie.streamer.source.multi.hudi.alignment=NONE.", message);
  }
}
