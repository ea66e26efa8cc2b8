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

import org.apache.hudi.utilities.freshness.PipelineSpec;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * The part of a fleet one reporter measures: the pipelines whose name hashes to this shard's index. Reporters started
 * with the same count and every index from 0 to count - 1 measure every pipeline exactly once. The hash is the CRC32
 * of the name's UTF-8 bytes: the same in every JVM and release, so a pipeline stays on its shard across restarts.
 */
public final class PipelineShard {

  /** One reporter for the whole fleet. */
  public static final PipelineShard ALL = new PipelineShard(0, 1);

  private final int index;
  private final int count;

  private PipelineShard(int index, int count) {
    this.index = index;
    this.count = count;
  }

  /**
   * @throws IllegalArgumentException if {@code count} is below 1 or {@code index} outside 0 to {@code count - 1}
   */
  public static PipelineShard of(int index, int count) {
    checkArgument(count >= 1, () -> "Cannot split the pipelines into " + count + " shards: --shard-count must be at "
        + "least 1");
    checkArgument(index >= 0 && index < count, () -> "Cannot measure shard " + index + " of " + count + ": "
        + "--shard-index must be from 0 to " + (count - 1));
    return new PipelineShard(index, count);
  }

  public int index() {
    return index;
  }

  public int count() {
    return count;
  }

  public boolean contains(String pipelineName) {
    CRC32 crc = new CRC32();
    crc.update(pipelineName.getBytes(StandardCharsets.UTF_8));
    return crc.getValue() % count == index;
  }

  /** The pipelines of this shard, in their order. */
  public List<PipelineSpec> select(List<PipelineSpec> pipelines) {
    return count == 1 ? pipelines
        : pipelines.stream().filter(pipeline -> contains(pipeline.name())).collect(Collectors.toList());
  }

  @Override
  public String toString() {
    return index + "-of-" + count;
  }
}
