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

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper.MissingCheckpointStrategy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The settings of a multi-table job are parsed once, with defaults, and every invalid one fails when the source is
 * built, naming the key, its value and what is allowed.
 */
class TestMultiTableReadConf {

  private static TypedProperties twoTables() {
    TypedProperties props = new TypedProperties();
    props.setProperty("hoodie.streamer.source.multi.hudi.tables", "orders,db.users");
    props.setProperty("hoodie.streamer.source.hudi.orders.path", "/data/orders");
    props.setProperty("hoodie.deltastreamer.source.hudi.db_users.path", "/data/users");
    return props;
  }

  private static String failure(String key, String value) {
    TypedProperties props = twoTables();
    props.setProperty(key, value);
    return assertThrows(IllegalArgumentException.class, () -> MultiTableReadConf.from(props)).getMessage();
  }

  @Test
  void defaultsApplyToEverySettingLeftOut() {
    MultiTableReadConf conf = MultiTableReadConf.from(twoTables());

    assertEquals(List.of("orders", "db.users"), conf.tableNames());
    assertEquals("/data/users", conf.table("db.users").get().path());
    assertEquals(5, conf.table("orders").get().numInstants());
    assertEquals(MissingCheckpointStrategy.READ_LATEST, conf.table("orders").get().missingCheckpointStrategy());
    assertFalse(conf.table("orders").get().missingCheckpointStrategyExplicit());
    assertEquals(4, conf.readParallelism());
    assertEquals(AlignmentMode.NONE, conf.alignment());
    assertEquals(Duration.ofMinutes(10), conf.alignmentIdleTimeout());
    assertEquals(100, conf.snapshotPushdownMaxKeys());
    assertTrue(conf.snapshotPushdownKeyRange());
    assertEquals("db.users=2,orders=1,@order=orders|db.users",
        conf.checkpoints().format(conf.checkpoints().parse("orders=1,db.users=2")),
        "tables declared out of name order are recorded with their order");
    assertEquals("orders=5", conf.checkpoints().format(conf.checkpoints().parse("5")),
        "a bare instant belongs to the first table unless another is named");
  }

  @Test
  void enumNamesAreReadIgnoringCase() {
    TypedProperties props = twoTables();
    props.setProperty("hoodie.streamer.source.multi.hudi.alignment", "commit_time_ceiling");
    props.setProperty("hoodie.streamer.source.hudi.orders.missing.checkpoint.strategy", "read_upto_latest_commit");

    MultiTableReadConf conf = MultiTableReadConf.from(props);

    assertEquals(AlignmentMode.COMMIT_TIME_CEILING, conf.alignment());
    assertEquals(MissingCheckpointStrategy.READ_UPTO_LATEST_COMMIT, conf.table("orders").get().missingCheckpointStrategy());
    assertTrue(conf.table("orders").get().missingCheckpointStrategyExplicit());
  }

  @Test
  void perTableKeysOfEarlierReleasesStayAcceptedBesideHudisDottedSpelling() {
    TypedProperties props = twoTables();
    props.setProperty("hoodie.streamer.source.hudi.orders.missing_checkpoint_strategy", "READ_UPTO_LATEST_COMMIT");
    props.setProperty("hoodie.deltastreamer.source.hudi.db_users.skip_on_schema_failure", "true");

    MultiTableReadConf conf = MultiTableReadConf.from(props);

    assertEquals(MissingCheckpointStrategy.READ_UPTO_LATEST_COMMIT, conf.table("orders").get().missingCheckpointStrategy());
    assertTrue(conf.table("orders").get().missingCheckpointStrategyExplicit());
    assertTrue(conf.table("db.users").get().skipOnSchemaFailure());
    assertEquals(Collections.emptyList(), HoodieIncrMultiSourceConfig.unknownKeys(props, Arrays.asList("orders", "db.users")));
  }

  @Test
  void theLegacyTableNamedInTheConfigOwnsABareCheckpoint() {
    TypedProperties props = twoTables();
    props.setProperty("hoodie.streamer.source.multi.hudi.checkpoint.legacy.table", "db.users");

    MultiTableReadConf conf = MultiTableReadConf.from(props);

    assertEquals("db.users=20261130101010123", conf.checkpoints().format(conf.checkpoints().parse("20261130101010123")));
  }

  @Test
  void misspeltSettingInThePluginsNamespacesFailsNamingIt() {
    TypedProperties props = twoTables();
    props.setProperty("hoodie.streamer.source.multi.alignment", "COMMIT_TIME_CEILING");
    props.setProperty("hoodie.deltastreamer.source.hudi.orders.num_instant", "3");
    props.setProperty("hoodie.streamer.source.hudi.db_users.num_instants", "3");

    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> MultiTableReadConf.from(props));

    assertEquals("Cannot read the tables: [hoodie.deltastreamer.source.hudi.orders.num_instant, "
        + "hoodie.streamer.source.multi.alignment] are no setting of the multi-table source (check the spelling "
        + "against docs/configuration.md, or remove them)", error.getMessage());
  }

  @Test
  void settingsOfATableThatIsNotListedAreIgnored() {
    TypedProperties props = twoTables();
    props.setProperty("hoodie.streamer.source.hudi.returns.path", "/data/returns");

    assertEquals(List.of("orders", "db.users"), MultiTableReadConf.from(props).tableNames());
  }

  @Test
  void parallelismIsAPositiveWholeNumber() {
    assertEquals("Cannot read the tables: hoodie.streamer.source.multi.hudi.read.parallelism=0 is not a whole number "
        + "of at least 1", failure("hoodie.streamer.source.multi.hudi.read.parallelism", "0"));
    assertEquals("Cannot read the tables: hoodie.streamer.source.multi.hudi.read.parallelism=many is not a whole "
        + "number of at least 1", failure("hoodie.deltastreamer.source.multi.hudi.read.parallelism", "many"));
  }

  @Test
  void numInstantsIsAPositiveWholeNumberPerTable() {
    assertEquals("Cannot read table 'db.users': hoodie.streamer.source.hudi.db_users.num_instants=-2 is not a whole "
        + "number of at least 1", failure("hoodie.streamer.source.hudi.db_users.num_instants", "-2"));
  }

  @Test
  void perTableSchemaProviderKeysAreRejectedAtStartupUnderEitherPrefix() {
    assertEquals("Cannot configure a schema provider for table 'db.users': a multi-table source reads each table's "
        + "schema from its Hudi metadata (remove hoodie.deltastreamer.source.hudi.db_users.schemaprovider.class; "
        + "reshape columns in the transformer SQL, or set hoodie.streamer.schemaprovider.class for the target)",
        failure("hoodie.deltastreamer.source.hudi.db_users.schemaprovider.class", "x.FilebasedSchemaProvider"));
    assertTrue(failure("hoodie.streamer.source.hudi.orders.schemaprovider.source.schema.file", "/s.avsc")
        .startsWith("Cannot configure a schema provider for table 'orders'"));
  }

  @Test
  void theJobWideSchemaProviderIsNotAPerTableKey() {
    TypedProperties props = twoTables();
    props.setProperty("hoodie.streamer.schemaprovider.target.schema.file", "/target.avsc");

    assertEquals(List.of("orders", "db.users"), MultiTableReadConf.from(props).tableNames());
  }

  @Test
  void alignmentAndStrategiesAreOneOfTheirValues() {
    assertEquals("Cannot align the tables: hoodie.streamer.source.multi.hudi.alignment=CEILING is not one of "
        + "[NONE, COMMIT_TIME_CEILING]", failure("hoodie.streamer.source.multi.hudi.alignment", "CEILING"));
    assertEquals("Cannot read table 'orders': hoodie.streamer.source.hudi.orders.missing.checkpoint.strategy=LATEST is "
        + "not one of [READ_LATEST, READ_UPTO_LATEST_COMMIT]",
        failure("hoodie.streamer.source.hudi.orders.missing.checkpoint.strategy", "LATEST"));
  }

  @Test
  void snapshotPushdownKeysAreAtMostWhatHudisDataSkippingCanAnalyse() {
    String key = "hoodie.streamer.source.multi.hudi.snapshot.pushdown.max.keys";
    TypedProperties off = twoTables();
    off.setProperty(key, "0");
    assertEquals(0, MultiTableReadConf.from(off).snapshotPushdownMaxKeys());
    assertTrue(failure(key, "201").startsWith("Cannot push delta keys into snapshot reads: " + key + "=201 is above "
        + "200"), failure(key, "201"));
    assertTrue(failure(key, "-1").contains(key + "=-1 is not a whole number of at least 0"), failure(key, "-1"));
  }

  @Test
  void snapshotPushdownKeyRangeCanBeTurnedOffUnderEitherPrefix() {
    for (String prefix : List.of("hoodie.streamer.", "hoodie.deltastreamer.")) {
      TypedProperties props = twoTables();
      props.setProperty(prefix + "source.multi.hudi.snapshot.pushdown.key.range", "false");
      assertFalse(MultiTableReadConf.from(props).snapshotPushdownKeyRange(), prefix);
    }
    assertEquals("Cannot push delta key ranges into snapshot reads: "
        + "hoodie.streamer.source.multi.hudi.snapshot.pushdown.key.range=on is neither true nor false",
        failure("hoodie.streamer.source.multi.hudi.snapshot.pushdown.key.range", "on"));
  }

  @Test
  void idleTimeoutIsNotNegative() {
    assertEquals("Cannot align the tables: hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms=-1 is not a "
        + "whole number of at least 0", failure("hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms", "-1"));
  }

  @Test
  void booleansAreTrueOrFalse() {
    assertEquals("Cannot read the checkpoint: hoodie.streamer.source.multi.hudi.checkpoint.lenient=yes is neither "
        + "true nor false", failure("hoodie.streamer.source.multi.hudi.checkpoint.lenient", "yes"));
  }

  @Test
  void settingGivenTwoValuesUnderItsTwoNamesIsAConflict() {
    TypedProperties props = twoTables();
    props.setProperty("hoodie.streamer.source.multi.hudi.read.parallelism", "2");
    props.setProperty("hoodie.deltastreamer.source.multi.hudi.read.parallelism", "8");

    assertEquals("Cannot decide between hoodie.streamer.source.multi.hudi.read.parallelism=2 and "
        + "hoodie.deltastreamer.source.multi.hudi.read.parallelism=8: they name the same setting. Remove one of them.",
        assertThrows(IllegalArgumentException.class, () -> MultiTableReadConf.from(props)).getMessage());
  }

  @Test
  void alignmentCannotBeCombinedWithASnapshotLoadQuerySplitter() {
    TypedProperties props = twoTables();
    props.setProperty("hoodie.streamer.source.multi.hudi.alignment", "COMMIT_TIME_CEILING");
    props.setProperty("hoodie.deltastreamer.snapshotload.query.splitter.class.name", "com.example.Splitter");

    assertEquals("Cannot align the tables with hoodie.streamer.source.multi.hudi.alignment=COMMIT_TIME_CEILING while "
        + "hoodie.deltastreamer.snapshotload.query.splitter.class.name is set: aligned snapshot reads end at the "
        + "ceiling, which that splitter would move. Remove the splitter, or set "
        + "hoodie.streamer.source.multi.hudi.alignment=NONE.",
        assertThrows(IllegalArgumentException.class, () -> MultiTableReadConf.from(props)).getMessage());
  }

  @Test
  void deltaFormatIsPerTableAndExcludesWhatACdcDeltaCannotCarry() {
    TypedProperties props = twoTables();
    props.setProperty("hoodie.deltastreamer.source.hudi.db_users.incr.format", "cdc");
    MultiTableReadConf conf = MultiTableReadConf.from(props);
    assertEquals(DeltaFormat.LATEST_STATE, conf.table("orders").get().deltaFormat());
    assertEquals(DeltaFormat.CDC, conf.table("db.users").get().deltaFormat());

    assertEquals("Cannot read table 'orders': hoodie.streamer.source.hudi.orders.incr.format=json is not one of "
        + "[LATEST_STATE, CDC]", failure("hoodie.streamer.source.hudi.orders.incr.format", "json"));
    props.setProperty("hoodie.streamer.source.hudi.db_users.partition.fields", "region");
    assertEquals("Cannot read table 'db.users' as CDC: hoodie.streamer.source.hudi.db_users.partition.fields adds "
        + "columns to the delta's rows, which a CDC delta keeps in its before and after images (remove "
        + "hoodie.streamer.source.hudi.db_users.partition.fields, or set "
        + "hoodie.streamer.source.hudi.db_users.incr.format=LATEST_STATE)",
        assertThrows(IllegalArgumentException.class, () -> MultiTableReadConf.from(props)).getMessage());
    props.remove("hoodie.streamer.source.hudi.db_users.partition.fields");
    props.setProperty("hoodie.datasource.read.incr.fallback.fulltablescan.enable", "true");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> MultiTableReadConf.from(props)).getMessage()
        .startsWith("Cannot read table 'db.users' as CDC with its full-table-scan fallback on"));
  }
}
