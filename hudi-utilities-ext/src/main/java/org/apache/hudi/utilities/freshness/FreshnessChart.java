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
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.DateAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.time.FixedMillisecond;
import org.jfree.data.time.TimeSeries;
import org.jfree.data.time.TimeSeriesCollection;

import javax.imageio.ImageIO;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;

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
    JFreeChart chart = ChartFactory.createTimeSeriesChart("Freshness of " + pipeline, "measured at (UTC)",
        "lag (seconds)", lagPerSource(entries), true, false, false);
    XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    ((DateAxis) plot.getDomainAxis()).setTimeZone(TimeZone.getTimeZone("UTC"));
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < plot.getDataset().getSeriesCount(); i++) {
      renderer.setSeriesPaint(i, SOURCE_COLORS.get(i % SOURCE_COLORS.size()));
      renderer.setSeriesStroke(i, new BasicStroke(3.0f));
    }
    plot.setRenderer(renderer);
    ValueMarker slaLine = new ValueMarker(sla.getSeconds(), SLA_COLOR, new BasicStroke(3.0f, BasicStroke.CAP_BUTT,
        BasicStroke.JOIN_MITER, 10.0f, new float[] {12.0f, 6.0f}, 0.0f));
    slaLine.setLabel("SLA " + sla.toMinutes() + " min");
    slaLine.setLabelPaint(SLA_COLOR);
    slaLine.setLabelAnchor(RectangleAnchor.TOP_LEFT);
    slaLine.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
    plot.addRangeMarker(slaLine);
    // Keep the SLA line in view when every lag is far below it.
    plot.getRangeAxis().setLowerBound(0.0);
    plot.getRangeAxis().setUpperBound(Math.max(plot.getRangeAxis().getUpperBound(), sla.getSeconds() * 1.1));
    BufferedImage image = chart.createBufferedImage(width, height);
    ImageIO.write(image, "png", out);
  }

  private static TimeSeriesCollection lagPerSource(List<JsonNode> entries) {
    Map<String, TimeSeries> series = new LinkedHashMap<>();
    for (JsonNode entry : entries) {
      Date measuredAt = Date.from(Instant.parse(entry.path("measuredAt").asText()));
      for (JsonNode source : entry.path("sources")) {
        TimeSeries line = series.computeIfAbsent(source.path("source").asText(), TimeSeries::new);
        JsonNode lag = source.get("lagSeconds");
        // addOrUpdate: the callback and the reporter may measure in the same millisecond.
        line.addOrUpdate(new FixedMillisecond(measuredAt), lag == null ? null : lag.asDouble());
      }
    }
    TimeSeriesCollection dataset = new TimeSeriesCollection();
    series.values().forEach(dataset::addSeries);
    return dataset;
  }
}
