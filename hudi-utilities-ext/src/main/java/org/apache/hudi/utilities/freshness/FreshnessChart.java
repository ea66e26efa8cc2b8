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
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.TreeMap;

/**
 * A pipeline's freshness history as a picture, for people who would rather look than read: the lag of each source
 * over time, one line per source in {@link #SOURCE_COLORS} order, and the SLA as a dashed {@link #SLA_COLOR} line.
 * Measurements in which a source had no lag leave a gap in its line rather than a made-up 0.
 */
public final class FreshnessChart {

  /** The colours of the sources' lines, in the order the sources first appear in the history; then repeated. */
  public static final List<Color> SOURCE_COLORS = List.of(new Color(0x1f, 0x77, 0xb4), new Color(0x2c, 0xa0, 0x2c),
      new Color(0xff, 0x7f, 0x0e), new Color(0x94, 0x67, 0xbd), new Color(0x8c, 0x56, 0x4b),
      new Color(0x17, 0xbe, 0xcf));
  public static final Color SLA_COLOR = new Color(0xd6, 0x27, 0x28);

  private FreshnessChart() {
  }

  /**
   * Writes the chart as a PNG.
   *
   * @param entries history entries of one pipeline ({@link FreshnessHistory#newest}), oldest first
   * @param sla     the pipeline's SLA, drawn as a horizontal line
   * @throws IllegalArgumentException if a size is below 100 pixels or there is no entry
   */
  public static void writePng(String pipeline, List<JsonNode> entries, Duration sla, int width, int height,
                              OutputStream out) throws IOException {
    if (width < 100 || height < 100) {
      throw new IllegalArgumentException("Cannot draw a freshness chart of " + width + "x" + height + " pixels: "
          + "use at least 100x100 (--chart-width, --chart-height)");
    }
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("Cannot draw the freshness chart of pipeline '" + pipeline + "': its history "
          + "has no entry (run the reporter or the commit callback with history on first)");
    }
    XYChart chart = new XYChartBuilder().width(width).height(height).title("Freshness of " + pipeline)
        .xAxisTitle("measured at (UTC)").yAxisTitle("lag (seconds)").build();
    XYStyler styler = chart.getStyler();
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setPlotBackgroundColor(Color.WHITE);
    styler.setPlotGridLinesColor(Color.LIGHT_GRAY);
    styler.setLegendPosition(LegendPosition.OutsideS);
    styler.setLegendLayout(LegendLayout.Horizontal);
    styler.setLegendBorderColor(Color.WHITE);
    styler.setTimezone(TimeZone.getTimeZone("UTC"));
    // Room between the time labels: at XChart's default hint of 74 pixels they touch.
    styler.setXAxisTickMarkSpacingHint(100);
    styler.setYAxisDecimalPattern("#,##0");
    styler.setYAxisMin(0.0);
    int i = 0;
    for (Map.Entry<String, TreeMap<Date, Double>> source : lagPerSource(entries).entrySet()) {
      Color color = SOURCE_COLORS.get(i++ % SOURCE_COLORS.size());
      XYSeries line = chart.addSeries(source.getKey(), new ArrayList<>(source.getValue().keySet()),
          new ArrayList<>(source.getValue().values()));
      line.setLineColor(color);
      line.setMarkerColor(color);
      line.setLineStyle(new BasicStroke(3.0f));
    }
    Date first = measuredAt(entries.get(0));
    Date last = measuredAt(entries.get(entries.size() - 1));
    if (!first.before(last)) {
      // A single measurement: give the time axis a span, else XChart draws it without ticks and the SLA line empty.
      first = new Date(first.getTime() - Duration.ofMinutes(1).toMillis());
      last = new Date(last.getTime() + Duration.ofMinutes(1).toMillis());
      styler.setXAxisMin((double) first.getTime());
      styler.setXAxisMax((double) last.getTime());
    }
    // A series rather than an annotation: its name explains the dashed line in the legend, and the lag axis reaches
    // up to it when every lag is far below it.
    XYSeries slaLine = chart.addSeries("SLA " + sla.toMinutes() + " min", List.of(first, last),
        List.of(sla.getSeconds(), sla.getSeconds()));
    slaLine.setMarker(SeriesMarkers.NONE);
    slaLine.setLineColor(SLA_COLOR);
    slaLine.setLineStyle(new BasicStroke(3.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10.0f,
        new float[] {12.0f, 6.0f}, 0.0f));
    BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
  }

  /** Each source's lag in seconds (null: not measured) by measurement time, the sources in order of appearance. */
  private static Map<String, TreeMap<Date, Double>> lagPerSource(List<JsonNode> entries) {
    Map<String, TreeMap<Date, Double>> series = new LinkedHashMap<>();
    for (JsonNode entry : entries) {
      Date measuredAt = measuredAt(entry);
      for (JsonNode source : entry.path("sources")) {
        JsonNode lag = source.get("lagSeconds");
        // Keyed by millisecond: the callback and the reporter may measure in the same one; the later entry wins.
        series.computeIfAbsent(source.path("source").asText(), name -> new TreeMap<>())
            .put(measuredAt, lag == null ? null : lag.asDouble());
      }
    }
    return series;
  }

  private static Date measuredAt(JsonNode entry) {
    return Date.from(Instant.parse(entry.path("measuredAt").asText()));
  }
}
