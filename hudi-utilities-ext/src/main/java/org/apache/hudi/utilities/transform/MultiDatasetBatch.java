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

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The datasets a {@link MultiDatasetTransformer} transforms in one batch, with the carrier's manifest when they came
 * from {@code HoodieIncrMultiSource}.
 */
public final class MultiDatasetBatch {

  private final List<Dataset<Row>> datasets;
  private final Option<CarrierManifest> manifest;

  public MultiDatasetBatch(List<Dataset<Row>> datasets, Option<CarrierManifest> manifest) {
    this.datasets = Collections.unmodifiableList(new ArrayList<>(datasets));
    this.manifest = manifest;
  }

  /** One dataset per source table, in the order of the configured tables. */
  public List<Dataset<Row>> datasets() {
    return datasets;
  }

  /** Tables and positions of the batch; empty for datasets that did not come in a carrier. */
  public Option<CarrierManifest> manifest() {
    return manifest;
  }
}
