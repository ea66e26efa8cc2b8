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

package org.apache.hudi.utilities.hudi014;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;
import org.apache.hudi.utilities.sources.HoodieIncrSource;
import org.apache.hudi.utilities.sources.InputBatch;
import org.apache.hudi.utilities.testutils.HudiTables;
import org.apache.hudi.utilities.testutils.SharedSpark;
import org.apache.hudi.utilities.testutils.TimelineListingCounter;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.apache.hudi.utilities.testutils.HudiTables.ORDERS;
import static org.apache.hudi.utilities.testutils.HudiTables.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each source table's timeline is listed once per batch by the plugin, where the stock {@code HoodieIncrSource} read
 * of a table with new commits lists it more often (to plan the read, then in its relation): a copy-on-write window is
 * read from its files, named by its commits' metadata on the batch's timeline. A caught-up table costs that one
 * listing too. The plugin builds a table's meta client (reading its {@code hoodie.properties}) in the first batch only;
 * later batches reload its timeline.
 */
class TestTimelineLoadsPerBatch {

  @TempDir
  Path dir;

  private String withNews;
  private String caughtUp;
  private String withNewsPosition;
  private String caughtUpPosition;

  @BeforeEach
  void twoTablesOneWithANewCommit() {
    withNews = dir.resolve("orders").toUri().toString();
    caughtUp = dir.resolve("returns").toUri().toString();
    withNewsPosition = HudiTables.upsert(withNews, "orders", "COPY_ON_WRITE", "order_id", ORDERS,
        order("o1", "u1", 1.0, 1L));
    HudiTables.upsert(withNews, "orders", "COPY_ON_WRITE", "order_id", ORDERS, order("o2", "u1", 2.0, 2L));
    caughtUpPosition = HudiTables.upsert(caughtUp, "returns", "COPY_ON_WRITE", "order_id", ORDERS,
        order("r1", "u1", 1.0, 1L));
    TimelineListingCounter.install(SharedSpark.jsc().hadoopConfiguration());
  }

  @AfterEach
  void uninstallCounter() {
    TimelineListingCounter.uninstall(SharedSpark.jsc().hadoopConfiguration());
  }

  @Test
  void thePluginListsEachTimelineOnceABatchWhereTheStockReadListsItMoreOften() {
    int stockWithNews = stockListings(withNews, withNewsPosition);
    int stockCaughtUp = stockListings(caughtUp, caughtUpPosition);
    assertTrue(stockWithNews > stockCaughtUp, "the stock read of new commits lists more than a caught-up one");

    HoodieIncrMultiSource source = new HoodieIncrMultiSource(multiTableProps("NONE"), SharedSpark.jsc(),
        SharedSpark.session(), null);
    String checkpoint = "orders=" + withNewsPosition + ",returns=" + caughtUpPosition;
    fetch(source, checkpoint); // the first batch learns the caught-up table's columns
    TimelineListingCounter.reset();
    fetch(source, checkpoint);
    int multiWithNews = TimelineListingCounter.timelineListings(withNews);
    int multiCaughtUp = TimelineListingCounter.timelineListings(caughtUp);

    System.out.printf("Timeline listings per table and batch: with new commits stock %d, multi %d; caught up stock %d, "
        + "multi %d%n", stockWithNews, multiWithNews, stockCaughtUp, multiCaughtUp);
    assertTrue(stockWithNews > 1, "the stock read lists the timeline to plan the read and again in its relation");
    assertEquals(1, multiWithNews, "only the batch's own timeline: a copy-on-write window is read from its files, named "
        + "by its commits' metadata on that timeline");
    assertEquals(1, multiCaughtUp, "a caught-up table is only listed for the batch's own timeline");
  }

  @Test
  void thePluginReadsATablesPropertiesInItsFirstBatchOnly() {
    TimelineListingCounter.reset();
    stockListings(withNews, withNewsPosition);
    int stockWithNews = TimelineListingCounter.propertiesReads(withNews);
    assertTrue(stockWithNews > 0, "the stock read builds meta clients");

    HoodieIncrMultiSource source = new HoodieIncrMultiSource(multiTableProps("NONE"), SharedSpark.jsc(),
        SharedSpark.session(), null);
    String checkpoint = "orders=" + withNewsPosition + ",returns=" + caughtUpPosition;
    TimelineListingCounter.reset();
    fetch(source, checkpoint);
    int firstWithNews = TimelineListingCounter.propertiesReads(withNews);
    int firstCaughtUp = TimelineListingCounter.propertiesReads(caughtUp);
    TimelineListingCounter.reset();
    fetch(source, checkpoint);

    System.out.printf("hoodie.properties reads per table and batch: with new commits stock %d, multi first batch %d, "
        + "later %d; caught up multi first batch %d, later %d%n", stockWithNews, firstWithNews,
        TimelineListingCounter.propertiesReads(withNews), firstCaughtUp, TimelineListingCounter.propertiesReads(caughtUp));
    assertEquals(1, firstWithNews, "the plugin's meta client in the first batch; reading the window's files builds none");
    assertEquals(0, TimelineListingCounter.propertiesReads(withNews), "later batches reload the plugin's meta client");
    assertEquals(0, TimelineListingCounter.propertiesReads(caughtUp), "a caught-up table builds none in a later batch");
  }

  @Test
  void alignedPlanningAddsHudisOwnPlanOnTop() {
    int stockWithNews = stockListings(withNews, withNewsPosition);

    HoodieIncrMultiSource source = new HoodieIncrMultiSource(multiTableProps("COMMIT_TIME_CEILING"), SharedSpark.jsc(),
        SharedSpark.session(), null);
    String checkpoint = "orders=" + withNewsPosition + ",returns=" + caughtUpPosition;
    fetch(source, checkpoint);
    TimelineListingCounter.reset();
    fetch(source, checkpoint);

    System.out.printf("Timeline listings per table and batch under alignment: with new commits stock %d, multi %d; "
        + "caught up multi %d%n", stockWithNews, TimelineListingCounter.timelineListings(withNews),
        TimelineListingCounter.timelineListings(caughtUp));
    assertEquals(2, TimelineListingCounter.timelineListings(withNews),
        "the batch's own timeline and Hudi's planning of the window, which is then read from its files");
    assertEquals(2, TimelineListingCounter.timelineListings(caughtUp), "the batch's own timeline and Hudi's planning");
  }

  private int stockListings(String path, String position) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.hoodieincr.path", path);
    TimelineListingCounter.reset();
    new HoodieIncrSource(props, SharedSpark.jsc(), SharedSpark.session(), null).fetchNext(Option.of(position),
        Long.MAX_VALUE);
    return TimelineListingCounter.timelineListings(path);
  }

  private TypedProperties multiTableProps(String alignment) {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders,returns");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", withNews);
    props.setProperty("hoodie.streamer.source.hudi.returns.path", caughtUp);
    props.setProperty("hoodie.streamer.source.multi.hudi.alignment", alignment);
    props.setProperty("hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms", "0");
    return props;
  }

  private static Dataset<Row> fetch(HoodieIncrMultiSource source, String checkpoint) {
    InputBatch<Dataset<Row>> batch = source.fetchNext(Option.of(checkpoint), Long.MAX_VALUE);
    assertTrue(batch.getBatch().isPresent(), "the orders table has a new commit");
    return batch.getBatch().get();
  }
}
