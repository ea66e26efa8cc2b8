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

package org.apache.hudi.utilities.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark's results as an aligned text table (also valid Markdown), and the median of repeated timings.
 */
public final class ResultTable {

  private final List<String[]> rows = new ArrayList<>();

  public ResultTable(String... columns) {
    rows.add(columns);
  }

  public ResultTable row(Object... cells) {
    if (cells.length != rows.get(0).length) {
      throw new IllegalArgumentException("Cannot add a row of " + cells.length + " cells to a table of "
          + rows.get(0).length + " columns " + Arrays.toString(rows.get(0)));
    }
    rows.add(Arrays.stream(cells).map(ResultTable::text).toArray(String[]::new));
    return this;
  }

  /** The median of the timings, in milliseconds. */
  public static double medianMillis(List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    sorted.sort(Long::compare);
    int middle = sorted.size() / 2;
    double median = sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2.0;
    return median / 1_000_000.0;
  }

  @Override
  public String toString() {
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    StringBuilder table = new StringBuilder();
    for (int r = 0; r < rows.size(); r++) {
      appendRow(table, rows.get(r), widths);
      if (r == 0) {
        String[] rule = new String[widths.length];
        for (int i = 0; i < widths.length; i++) {
          rule[i] = "-".repeat(widths[i]);
        }
        appendRow(table, rule, widths);
      }
    }
    return table.toString();
  }

  private static void appendRow(StringBuilder table, String[] cells, int[] widths) {
    table.append('|');
    for (int i = 0; i < cells.length; i++) {
      table.append(' ').append(String.format("%-" + widths[i] + "s", cells[i])).append(" |");
    }
    table.append(System.lineSeparator());
  }

  private static String text(Object cell) {
    return cell instanceof Double ? String.format(Locale.ROOT, "%.1f", (Double) cell) : String.valueOf(cell);
  }
}
