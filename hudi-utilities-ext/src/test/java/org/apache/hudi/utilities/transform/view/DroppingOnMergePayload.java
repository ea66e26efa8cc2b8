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

package org.apache.hudi.utilities.transform.view;

import org.apache.hudi.common.model.OverwriteWithLatestAvroPayload;
import org.apache.hudi.common.util.Option;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;

import java.io.IOException;

/**
 * A payload that drops the stored record when an update with a negative amount is merged into it, as custom payloads
 * do: the drop happens on merge (reading a MERGE_ON_READ table, compacting it), so the commit that wrote the update
 * counts an update and no delete.
 */
public class DroppingOnMergePayload extends OverwriteWithLatestAvroPayload {

  public DroppingOnMergePayload(GenericRecord record, Comparable orderingVal) {
    super(record, orderingVal);
  }

  public DroppingOnMergePayload(Option<GenericRecord> record) {
    super(record);
  }

  @Override
  public Option<IndexedRecord> combineAndGetUpdateValue(IndexedRecord currentValue, Schema schema) throws IOException {
    Option<IndexedRecord> update = getInsertValue(schema);
    if (update.isPresent() && ((Number) ((GenericRecord) update.get()).get("amount")).doubleValue() < 0) {
      return Option.empty();
    }
    return super.combineAndGetUpdateValue(currentValue, schema);
  }
}
