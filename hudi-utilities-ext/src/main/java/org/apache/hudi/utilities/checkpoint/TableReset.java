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

package org.apache.hudi.utilities.checkpoint;

import org.apache.hudi.common.util.Option;

import java.util.Locale;

/**
 * A position an operator can ask for by name instead of an instant, in a {@code --checkpoint} override.
 */
public enum TableReset {

  /** Skip what the table holds now: resume after its latest completed instant. */
  LATEST,

  /** Read the table from its first instant again. */
  EARLIEST;

  /** The reset a checkpoint value names, ignoring case, if it names one. */
  public static Option<TableReset> named(String value) {
    for (TableReset reset : values()) {
      if (reset.name().equals(value.toUpperCase(Locale.ROOT))) {
        return Option.of(reset);
      }
    }
    return Option.empty();
  }
}
