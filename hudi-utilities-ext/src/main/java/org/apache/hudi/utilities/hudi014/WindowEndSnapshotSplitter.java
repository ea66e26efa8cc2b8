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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.sources.SnapshotLoadQuerySplitter;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Ends a snapshot read of {@code HoodieIncrSource} at the end of a planned window instead of at the table's latest
 * commit: the one hook the stock source offers to bound a snapshot read, which num_instants does not bound.
 */
public final class WindowEndSnapshotSplitter extends SnapshotLoadQuerySplitter {

  /** Set on the properties of one table's read only: the inclusive instant its snapshot read ends at. */
  static final String WINDOW_END = "hoodie.streamer.source.multi.hudi.window.end";

  public WindowEndSnapshotSplitter(TypedProperties properties) {
    super(properties);
  }

  @Override
  public Option<String> getNextCheckpoint(Dataset<Row> snapshot, String beginCheckpoint) {
    return Option.of(properties.getString(WINDOW_END));
  }
}
