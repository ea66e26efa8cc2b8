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

import org.apache.hudi.utilities.checkpoint.StoredCheckpoint;
import org.apache.hudi.utilities.cli.FreshnessReporterCli;
import org.apache.hudi.utilities.config.HoodieFreshnessConfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chart command draws a pipeline's history: a PNG of the asked size in which each source's line and the SLA line
 * are drawn in their colours, the late source above the caught-up one.
 */
class TestFreshnessChart {

  private static final Instant T0 = Instant.parse("2026-11-30T06:00:00Z");
  private static final FreshnessPolicy POLICY = FreshnessPolicy.of(Duration.ofMinutes(60), Duration.ofDays(7));
  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @TempDir
  Path dir;

  @Test
  void drawsTheLagOfEachSourceAndTheSlaLineAsAPngOfTheAskedSize() throws Exception {
    String target = dir.resolve("joined").toUri().toString();
    FreshnessHistory history = FreshnessHistory.open(target + "/" + HoodieFreshnessConfig.DEFAULT_HISTORY_FOLDER, 100,
        new Configuration());
    // orders falls behind by 10 minutes every 10 minutes, past the SLA; users stays caught up.
    for (int minutes = 0; minutes <= 90; minutes += 10) {
      Instant at = T0.plus(Duration.ofMinutes(minutes));
      history.append(new PipelineFreshness("joined", target, Observer.REPORTER, at,
          StoredCheckpoint.found("20261130055900000", "orders=1,users=1", 1), List.of(
              SourceFreshness.measure("orders", SourceKind.HUDI, "1",
                  QueueHead.waitingSince(T0.minus(Duration.ofMinutes(5)), 1), at, POLICY),
              SourceFreshness.measure("users", SourceKind.HUDI, "1", QueueHead.caughtUp(), at, POLICY))));
    }
    Path config = Files.writeString(dir.resolve("reporter.yaml"), String.join("\n", "pipelines:",
        "  - name: joined",
        "    basePath: " + target,
        "    properties:",
        "      hoodie.streamer.freshness.sla.minutes: 60",
        "      hoodie.streamer.source.multi.hudi.tables: orders,users",
        "      hoodie.streamer.source.hudi.orders.path: /data/orders",
        "      hoodie.streamer.source.hudi.users.path: /data/users", ""));
    Path png = dir.resolve("joined.png");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    assertEquals(0, FreshnessReporterCli.run(new String[] {"--config", config.toString(), "--chart", png.toString(),
        "--chart-width", "800", "--chart-height", "400"}, new PrintStream(printed, true, StandardCharsets.UTF_8),
        System.err, Clock.systemUTC(), new Configuration()), printed.toString(StandardCharsets.UTF_8));

    byte[] bytes = Files.readAllBytes(png);
    assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, PNG_SIGNATURE.length));
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(800, image.getWidth());
    assertEquals(400, image.getHeight());
    Color orders = FreshnessChart.SOURCE_COLORS.get(0);
    Color users = FreshnessChart.SOURCE_COLORS.get(1);
    assertTrue(pixels(image, orders) > 300, "orders' line: " + pixels(image, orders) + " pixels");
    assertTrue(pixels(image, users) > 300, "users' line: " + pixels(image, users) + " pixels");
    assertTrue(pixels(image, FreshnessChart.SLA_COLOR) > 300, "the SLA line: "
        + pixels(image, FreshnessChart.SLA_COLOR) + " pixels");
    assertEquals(0, pixels(image, FreshnessChart.SOURCE_COLORS.get(2)), "a third source's colour");
    // Image rows grow downwards. orders' lag rises from 5 to 95 minutes: it starts under the 60-minute SLA line and
    // ends over it; users, caught up, stays at 0 under both.
    int slaRow = topRow(image, FreshnessChart.SLA_COLOR);
    int usersTop = topRow(image, users);
    assertTrue(usersTop < Integer.MAX_VALUE, "users' line above the legend");
    assertTrue(topRow(image, orders) < slaRow, "orders' highest point over the SLA line: " + topRow(image, orders)
        + " < " + slaRow);
    assertTrue(leftmostRow(image, orders) > slaRow, "orders' first point under the SLA line: "
        + leftmostRow(image, orders) + " > " + slaRow);
    assertTrue(usersTop > slaRow, "users under the SLA line: " + usersTop + " > " + slaRow);
    assertTrue(printed.toString(StandardCharsets.UTF_8).contains("Drew 10 history entries of pipeline 'joined'"));
  }

  @Test
  void oneMeasurementStillGetsATimeSpanAndTheWholeSlaLine() throws Exception {
    JsonNode entry = new ObjectMapper().readTree("{\"measuredAt\": \"2026-11-30T06:00:00Z\", \"sources\": "
        + "[{\"source\": \"orders\", \"lagSeconds\": 300}]}");
    ByteArrayOutputStream png = new ByteArrayOutputStream();

    FreshnessChart.writePng("joined", List.of(entry), Duration.ofMinutes(60), 400, 300, png);

    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png.toByteArray()));
    // Without a span the line has no length: only its sample in the legend (under 50 pixels) would be drawn.
    assertTrue(pixels(image, FreshnessChart.SLA_COLOR) > 300, "the SLA line: "
        + pixels(image, FreshnessChart.SLA_COLOR) + " pixels");
    assertTrue(pixels(image, FreshnessChart.SOURCE_COLORS.get(0)) > 0, "the one measurement of orders");
  }

  private static int pixels(BufferedImage image, Color color) {
    int count = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        count += (image.getRGB(x, y) & 0xffffff) == (color.getRGB() & 0xffffff) ? 1 : 0;
      }
    }
    return count;
  }

  /** The row of the leftmost pixel of the colour (the topmost of that column); the legend's band left out. */
  private static int leftmostRow(BufferedImage image, Color color) {
    for (int x = 0; x < image.getWidth(); x++) {
      for (int y = 0; y < image.getHeight() * 7 / 8; y++) {
        if ((image.getRGB(x, y) & 0xffffff) == (color.getRGB() & 0xffffff)) {
          return y;
        }
      }
    }
    return -1;
  }

  /** The first row, from the top, holding a pixel of the colour; the last eighth, the legend's band, left out. */
  private static int topRow(BufferedImage image, Color color) {
    for (int y = 0; y < image.getHeight() * 7 / 8; y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if ((image.getRGB(x, y) & 0xffffff) == (color.getRGB() & 0xffffff)) {
          return y;
        }
      }
    }
    return Integer.MAX_VALUE;
  }
}
