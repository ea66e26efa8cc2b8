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

package org.apache.hudi.utilities.config;

/**
 * The shape of a table's delta, the rows of {@code <SRC:t>}: the names are those of Hudi's
 * {@code hoodie.datasource.query.incremental.format}.
 */
public enum DeltaFormat {

  /** The rows as they are at the end of the window, one per record changed in it; deleted records are absent. */
  LATEST_STATE,

  /**
   * The net change of each record over the window, from Hudi's CDC query: {@code op} ('i', 'u' or 'd'), {@code ts_ms}
   * (the instant of its last change), {@code before} (the record as of the window's start; null if it did not exist)
   * and {@code after} (as of the window's end; null if deleted). Needs {@code hoodie.table.cdc.enabled=true}.
   */
  CDC
}
