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

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.SQLUserDefinedType;
import org.apache.spark.sql.types.UserDefinedType;

/**
 * The type of the guard column of a {@link MultiDatasetCarrier}. No row ever holds a value of it: it exists so that
 * a carrier that reaches the writer unsplit fails while the write schema is derived (Avro has no such type), which
 * is before any commit is started, with this type's name as the instruction to fix the job.
 *
 * <p>Splitting the carrier prunes the column, so a correctly configured job never sees it.
 */
public final class UnsplitMultiDatasetType extends UserDefinedType<UnsplitMultiDatasetType.NoValue> {

  /** The user class Spark's encoders require of a UDT; never instantiated. */
  @SQLUserDefinedType(udt = UnsplitMultiDatasetType.class)
  public static final class NoValue {
    private NoValue() {
    }
  }

  static final String DESCRIPTION = "UNSPLIT_MULTI_DATASET: the datasets of HoodieIncrMultiSource reached the writer "
      + "without being split. Configure a MultiDatasetTransformer (e.g. --transformer-class "
      + "org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer) as the first transformer; other "
      + "transformers may follow it";

  @Override
  public DataType sqlType() {
    return DataTypes.BooleanType;
  }

  @Override
  public Object serialize(NoValue value) {
    return null;
  }

  @Override
  public NoValue deserialize(Object datum) {
    return null;
  }

  @Override
  public Class<NoValue> userClass() {
    return NoValue.class;
  }

  @Override
  public String toString() {
    return DESCRIPTION;
  }
}
