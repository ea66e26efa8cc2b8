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

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Prints history entries as a plain text table, one row per source and measurement, oldest first, so that a person
 * sees the trend without a metrics stack. A value that was not known prints as "-".
 */
public final class HistoryTable {

  private static final String[] COLUMNS =
      {"measured_at", "pipeline", "observer", "commit", "source", "state", "status", "lag_s", "raw_lag_s", "sla_ratio",
      "pending"};
  private static final String NONE = "-";

  private HistoryTable() {
  }

  /** Measurements just taken, in the same table as their history entries. */
  public static String formatMeasurements(List<PipelineFreshness> measurements) {
    return format(measurements.stream().map(FreshnessHistory::toJson).collect(Collectors.toList()));
  }

  /** History entries as read by {@link FreshnessHistory#newest}. */
  public static String format(List<? extends JsonNode> entries) {
    List<String[]> rows = new ArrayList<>();
    rows.add(COLUMNS);
    for (JsonNode entry : entries) {
      for (JsonNode source : entry.path("sources")) {
        rows.add(new String[] {text(entry, "measuredAt"), text(entry, "pipeline"), text(entry, "observer"), text(entry, "commit"),
            text(source, "source"), text(source, "state"), text(source, "status"), text(source, "lagSeconds"), text(source, "rawLagSeconds"),
            ratio(source), text(source, "pending")});
      }
    }
    int[] widths = new int[COLUMNS.length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    StringBuilder table = new StringBuilder();
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        table.append(i == 0 ? "" : "  ").append(String.format("%-" + widths[i] + "s", row[i]));
      }
      table.append(System.lineSeparator());
    }
    return table.toString();
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? NONE : value.asText();
  }

  private static String ratio(JsonNode source) {
    JsonNode value = source.get("slaRatio");
    return value == null ? NONE : String.format("%.3f", value.asDouble());
  }
}
