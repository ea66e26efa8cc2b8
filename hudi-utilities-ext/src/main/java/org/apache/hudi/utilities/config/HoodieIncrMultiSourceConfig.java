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

import org.apache.hudi.common.config.ConfigClassProperty;
import org.apache.hudi.common.config.ConfigGroups;
import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.config.HoodieConfig;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.hive.MultiPartKeysValueExtractor;
import org.apache.hudi.utilities.sources.helpers.IncrSourceHelper;

import javax.annotation.concurrent.Immutable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ConfigUtils.DELTA_STREAMER_CONFIG_PREFIX;
import static org.apache.hudi.common.util.ConfigUtils.STREAMER_CONFIG_PREFIX;
import static org.apache.hudi.common.util.ConfigUtils.enumNames;
import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * Configs of {@code HoodieIncrMultiSource}: which Hudi tables to read incrementally in one Streamer batch, and how
 * each one is read.
 *
 * <p>Per-table configs are templates whose key contains {@value #TABLE_PLACEHOLDER}; {@link #forTable} turns a template
 * into the concrete {@link ConfigProperty} of one table, so that every per-table key is built in one place.
 */
@Immutable
@ConfigClassProperty(name = "Hudi Incremental Multi-Table Source Configs",
    groupName = ConfigGroups.Names.HUDI_STREAMER,
    subGroupName = ConfigGroups.SubGroupNames.DELTA_STREAMER_SOURCE,
    description = "Configurations controlling the incremental reading of several Hudi tables in one Hudi Streamer "
        + "batch, each with its own checkpoint, all committed together.")
public class HoodieIncrMultiSourceConfig extends HoodieConfig {

  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.\\-]*");

  /** Stands for the key form of a table name in per-table config keys. */
  public static final String TABLE_PLACEHOLDER = "{table}";

  private static final String MULTI_PREFIX = "source.multi.hudi.";
  /** This project's namespace of job-wide keys; Hudi declares no key under it. */
  private static final String MULTI_NAMESPACE = "source.multi.";
  /** This project's namespace of per-table keys; Hudi declares no key under it. */
  private static final String TABLES_NAMESPACE = "source.hudi.";
  private static final String TABLE_PREFIX = TABLES_NAMESPACE + TABLE_PLACEHOLDER + ".";

  public static final ConfigProperty<String> TABLES = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "tables")
      .noDefaultValue()
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "tables")
      .withDocumentation("Ordered, comma-separated names of the source Hudi tables. The i-th table is <SRC_i> in the "
          + "SQL of a multi-dataset transformer, and <SRC:name> by name. Names may contain letters, digits, '_', '-' "
          + "and '.'; a dot becomes '_' in per-table config keys only (db.orders -> hoodie.streamer.source.hudi."
          + "db_orders.path) and is kept in the checkpoint.");

  public static final ConfigProperty<Boolean> CHECKPOINT_ENABLE = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "checkpoint.enable")
      .defaultValue(true)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "checkpoint.enable")
      .markAdvanced()
      .withDocumentation("true: the checkpoint holds one position per table, 'table1=instant1,table2=instant2'. "
          + "false: the checkpoint is one bare instant, as written by HoodieIncrSource; allowed with a single table "
          + "only (one instant cannot hold the positions of several tables without losing or re-reading data), "
          + "so that a pipeline can move between HoodieIncrSource and this source in both directions.");

  public static final ConfigProperty<String> CHECKPOINT_LEGACY_TABLE = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "checkpoint.legacy.table")
      .noDefaultValue("the first table of " + STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "tables")
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "checkpoint.legacy.table")
      .markAdvanced()
      .withDocumentation("The table that a bare checkpoint (one instant, no '=') belongs to, e.g. the checkpoint of a "
          + "HoodieIncrSource job being upgraded to this source. The other tables then start from their "
          + "missing.checkpoint.strategy. The next commit stores the multi-table form.");

  public static final ConfigProperty<Boolean> CHECKPOINT_LENIENT = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "checkpoint.lenient")
      .defaultValue(false)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "checkpoint.lenient")
      .markAdvanced()
      .withDocumentation("false: a malformed checkpoint entry fails the batch before anything is read, naming the entry "
          + "and the --checkpoint that repairs it. true: malformed entries are skipped with a WARN and counted in the "
          + "multi_table_checkpoint_malformed_entries metric; a table that may have lost its position that way then "
          + "starts from its missing.checkpoint.strategy only if that strategy is set explicitly, and fails the batch "
          + "otherwise, so that no table silently jumps to latest.");

  public static final ConfigProperty<Integer> READ_PARALLELISM = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "read.parallelism")
      .defaultValue(4)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "read.parallelism")
      .markAdvanced()
      .withDocumentation("Most tables planned and read at the same time in one batch (driver-side timeline loading, "
          + "window planning, schema resolution and the Spark jobs these start). 1 reads the tables one after another "
          + "on the Streamer's thread. Results and checkpoints do not depend on it; a table that fails still fails "
          + "the batch before anything is committed.");

  /** Most keys a snapshot.pushdown.max.keys may allow (see there). */
  public static final int SNAPSHOT_PUSHDOWN_KEYS_LIMIT = 200;

  public static final ConfigProperty<Integer> SNAPSHOT_PUSHDOWN_MAX_KEYS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "snapshot.pushdown.max.keys")
      .defaultValue(100)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "snapshot.pushdown.max.keys")
      .markAdvanced()
      .withDocumentation("Most distinct join keys of a delta (<SRC:t>) pushed into a snapshot read (<SNAP:u>, "
          + "<PREV:u>) it is joined with: where the SQL file joins the two directly on a column of the "
          + "snapshot equal to a column or struct field of the delta (u.after.user_id) and the snapshot "
          + "side cannot produce rows of its own (inner join, or the right side of LEFT/SEMI/ANTI joins), the snapshot "
          + "is read with 'column IN (the delta's keys)', which the source table's column stats (data skipping) and "
          + "Parquet statistics use to skip files and row groups. A delta with more distinct keys restricts the "
          + "snapshot to the range of its keys instead (snapshot.pushdown.key.range). 0 turns the pushdown off; at "
          + "most " + SNAPSHOT_PUSHDOWN_KEYS_LIMIT + ", because Hudi 0.14's data skipping turns 'IN (keys)' into a "
          + "chain of ORs one key deep each, which Spark's analyzer walks recursively (a thousand keys "
          + "overflow the driver thread's stack). Results do not depend on it.");

  public static final ConfigProperty<Boolean> SNAPSHOT_PUSHDOWN_KEY_RANGE = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "snapshot.pushdown.key.range")
      .defaultValue(true)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "snapshot.pushdown.key.range")
      .markAdvanced()
      .withDocumentation("Where a delta has more distinct join keys than snapshot.pushdown.max.keys: true reads the "
          + "snapshot joined with it with 'column >= the least key AND column <= the greatest key', which column stats "
          + "and Parquet statistics use to skip the files and row groups whose key range misses it (it skips only "
          + "where the source table is laid out by the join key and the delta's keys are clustered); false reads that "
          + "snapshot in full. Finding the range reads such a delta once more. No effect when "
          + "snapshot.pushdown.max.keys is 0. Results do not depend on it.");

  public static final ConfigProperty<String> ALIGNMENT = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "alignment")
      .defaultValue(AlignmentMode.NONE.name())
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "alignment")
      .withValidValues(enumNames(AlignmentMode.class))
      .markAdvanced()
      .withDocumentation("How the read windows of the tables relate in time. Possible values: "
          + Arrays.toString(AlignmentMode.values()) + ". NONE: each table reads its own window (up to its "
          + "num_instants) independently. COMMIT_TIME_CEILING: every window ends at a shared commit-time ceiling that "
          + "no table's checkpoint passes; tables that are ahead wait. The rule and its guarantees: "
          + "docs/how-a-batch-works.md#alignment-modes.");

  public static final ConfigProperty<Long> ALIGNMENT_IDLE_TIMEOUT_MS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "alignment.idle.timeout.ms")
      .defaultValue(600_000L)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "alignment.idle.timeout.ms")
      .markAdvanced()
      .withDocumentation("With alignment COMMIT_TIME_CEILING: how long, in milliseconds from its newest readable "
          + "commit, a table without new commits holds the other tables; after it the table is idle. 0: only tables "
          + "with new commits set the ceiling. See docs/how-a-batch-works.md#alignment-modes.");

  public static final ConfigProperty<Integer> RETENTION_WARN_HEADROOM_COMMITS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "retention.warn.headroom.commits")
      .defaultValue(2)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "retention.warn.headroom.commits")
      .markAdvanced()
      .withDocumentation("Retention guard: a WARN when a table's position is fewer than this many source commits "
          + "ahead of the earliest instant its cleaner and archival retain (its headroom: the smallest is the "
          + "multi_table_retention_min_headroom_commits metric); 0 never warns. Fixes: retain more commits on the source (hoodie.cleaner.commits.retained, "
          + "hoodie.keep.min.commits), run the Streamer more often, or allow the table's full-scan fallback. See "
          + "docs/operations.md#retention-guard.");

  public static final ConfigProperty<Boolean> RETENTION_FAIL_FAST = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "retention.fail.fast")
      .defaultValue(false)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + MULTI_PREFIX + "retention.fail.fast")
      .markAdvanced()
      .withDocumentation("Retention guard: true fails the batch, before anything is committed, when a table's headroom "
          + "is below retention.warn.headroom.commits, so that an operator acts while the position is still readable. "
          + "false only warns. A position whose window the cleaner has already removed fails the batch either way, "
          + "unless the table's full-scan fallback is on.");

  public static final ConfigProperty<String> TABLE_PATH = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "path")
      .noDefaultValue()
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "path")
      .withDocumentation("Base path of the source Hudi table.");

  public static final ConfigProperty<Integer> TABLE_NUM_INSTANTS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "num_instants")
      .defaultValue(HoodieIncrSourceConfig.NUM_INSTANTS_PER_FETCH.defaultValue())
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "num_instants")
      .markAdvanced()
      .withDocumentation("Max number of completed instants of this table read in one batch.");

  public static final ConfigProperty<String> TABLE_MISSING_CHECKPOINT_STRATEGY = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "missing.checkpoint.strategy")
      .defaultValue(IncrSourceHelper.MissingCheckpointStrategy.READ_LATEST.name())
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "missing.checkpoint.strategy",
          // the spelling of releases before Hudi's dotted one
          STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "missing_checkpoint_strategy",
          DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "missing_checkpoint_strategy")
      .withValidValues(enumNames(IncrSourceHelper.MissingCheckpointStrategy.class))
      .markAdvanced()
      .withDocumentation("Where this table starts when the checkpoint has no position for it (first run, or a table "
          + "newly added to the list). Possible values: "
          + Arrays.toString(IncrSourceHelper.MissingCheckpointStrategy.values()));

  public static final ConfigProperty<Boolean> TABLE_SKIP_ON_SCHEMA_FAILURE = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "skip.on.schema.failure")
      .defaultValue(false)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "skip.on.schema.failure",
          // the spelling of releases before Hudi's dotted one
          STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "skip_on_schema_failure",
          DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "skip_on_schema_failure")
      .markAdvanced()
      .withDocumentation("When this table's schema cannot be resolved (e.g. it has no completed commit yet): false "
          + "fails the batch before anything is committed; true gives the transformer an empty dataset without "
          + "columns for it and keeps its checkpoint where it was.");

  public static final ConfigProperty<Boolean> TABLE_FULL_TABLE_SCAN_FALLBACK = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "incr.fallback.fulltablescan.enable")
      .defaultValue(false)
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "incr.fallback.fulltablescan.enable")
      .markAdvanced()
      .withDocumentation("What to do when this table's position is older than its active timeline (archived) or "
          + "its files were cleaned: true reads the window with a full table scan filtered on commit time; false "
          + "fails the batch before anything is committed, naming the table and the fix, because an incremental read "
          + "would silently skip the archived commits. Defaults to the job-wide "
          + "hoodie.datasource.read.incr.fallback.fulltablescan.enable.");

  public static final ConfigProperty<String> TABLE_INCR_FORMAT = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "incr.format")
      .defaultValue(DeltaFormat.LATEST_STATE.name())
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "incr.format")
      .withValidValues(enumNames(DeltaFormat.class))
      .markAdvanced()
      .withDocumentation("The shape of this table's delta (<SRC:t>), as Hudi's hoodie.datasource.query.incremental.format. "
          + "LATEST_STATE: the changed rows as they are at the window's end; deleted rows are absent. CDC: one row per "
          + "record changed in the window, its net change over the window from Hudi's CDC query: op ('i', 'u', 'd'), "
          + "ts_ms, before (the record at the window's start, null if new) and after (at its end, null if deleted), "
          + "both structs of the table's columns, so that deletes and key changes come from the delta itself. CDC needs "
          + "hoodie.table.cdc.enabled=true in the table's hoodie.properties (checked at startup). Same windows and "
          + "checkpoints either way. See docs/exact-joins.md#delete-aware-join-over-cdc-deltas.");

  public static final ConfigProperty<String> TABLE_PARTITION_FIELDS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "partition.fields")
      .noDefaultValue()
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "partition.fields")
      .markAdvanced()
      .withDocumentation("Comma-separated columns to add to this table's dataset, parsed from _hoodie_partition_path "
          + "by the partition extractor; a column that the dataset already has is left as it is.");

  public static final ConfigProperty<String> TABLE_PARTITION_EXTRACTOR_CLASS = ConfigProperty
      .key(STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "partition.extractor.class")
      .defaultValue(MultiPartKeysValueExtractor.class.getName())
      .withAlternatives(DELTA_STREAMER_CONFIG_PREFIX + TABLE_PREFIX + "partition.extractor.class")
      .markAdvanced()
      .withDocumentation("PartitionValueExtractor that splits _hoodie_partition_path into the values of "
          + "partition.fields, in order. The default reads both 'a=1/b=2' and '1/2' paths.");

  /**
   * The configured source tables.
   *
   * @return the names of {@link #TABLES}, in declaration order
   * @throws IllegalArgumentException if the list is missing or empty, or a name is invalid, repeated, or has the same
   *     key form as another
   */
  public static List<String> tables(TypedProperties props) {
    String value = ConfigValues.raw(props, TABLES).orElse("");
    checkArgument(!value.isEmpty(), "Cannot read multiple Hudi tables: " + TABLES.key()
        + " is not set. List the source tables in order, e.g. " + TABLES.key() + "=orders,users");
    List<String> tables = new ArrayList<>();
    Map<String, String> byKeyName = new HashMap<>();
    for (String raw : value.split(",", -1)) {
      String table = raw.trim();
      checkArgument(TABLE_NAME.matcher(table).matches(), String.format("Cannot use '%s' from %s='%s' as a table name: "
          + "names are non-empty and use letters, digits, '_', '-' and '.' only", table, TABLES.key(), value));
      checkArgument(!tables.contains(table), String.format(
          "Cannot read table '%s' twice: it is listed more than once in %s='%s'", table, TABLES.key(), value));
      String clash = byKeyName.put(tableKeyName(table), table);
      checkArgument(clash == null, String.format("Cannot tell tables '%s' and '%s' apart in config keys (both are "
          + "'%s'): rename one of them in %s", clash, table, tableKeyName(table), TABLES.key()));
      tables.add(table);
    }
    return tables;
  }

  /**
   * The concrete config of one table.
   *
   * @param template a per-table config of this class, whose key contains {@value #TABLE_PLACEHOLDER}
   * @param table    the table name as listed in {@link #TABLES}
   * @return the config with the key form of the table name in its key and alternatives, same default and docs
   */
  public static <T> ConfigProperty<T> forTable(ConfigProperty<T> template, String table) {
    String keyName = tableKeyName(table);
    String[] alternatives = template.getAlternatives().stream()
        .map(alternative -> alternative.replace(TABLE_PLACEHOLDER, keyName))
        .toArray(String[]::new);
    ConfigProperty.PropertyBuilder builder = ConfigProperty.key(template.key().replace(TABLE_PLACEHOLDER, keyName));
    ConfigProperty<T> concrete = template.hasDefaultValue()
        ? builder.defaultValue(template.defaultValue())
        : (ConfigProperty<T>) builder.noDefaultValue();
    return concrete.withAlternatives(alternatives).withDocumentation(template.doc());
  }

  /**
   * The prefixes of every per-table key of a table, under its current and its legacy ({@code hoodie.deltastreamer.})
   * name, for checks over keys this class does not declare.
   */
  public static List<String> tableKeyPrefixes(String table) {
    String tablePrefix = TABLE_PREFIX.replace(TABLE_PLACEHOLDER, tableKeyName(table));
    return Arrays.asList(STREAMER_CONFIG_PREFIX + tablePrefix, DELTA_STREAMER_CONFIG_PREFIX + tablePrefix);
  }

  /**
   * The keys of this project's namespaces ({@code hoodie.streamer.source.multi.} and the per-table
   * {@code hoodie.streamer.source.hudi.&lt;table&gt;.}, each also under {@code hoodie.deltastreamer.}) that no setting of
   * this class declares: misspelt settings, which would otherwise be silently ignored.
   *
   * @param tables the configured tables; keys of other tables are not looked at (see {@link #keysOfOtherTables})
   */
  public static List<String> unknownKeys(TypedProperties props, List<String> tables) {
    Set<String> known = new HashSet<>();
    for (ConfigProperty<?> property : ConfigValues.declared(HoodieIncrMultiSourceConfig.class)) {
      if (!property.key().contains(TABLE_PLACEHOLDER)) {
        known.add(property.key());
        known.addAll(property.getAlternatives());
      }
      for (String table : tables) {
        ConfigProperty<?> concrete = forTable(property, table);
        known.add(concrete.key());
        known.addAll(concrete.getAlternatives());
      }
    }
    List<String> namespaces = new ArrayList<>(Arrays.asList(STREAMER_CONFIG_PREFIX + MULTI_NAMESPACE,
        DELTA_STREAMER_CONFIG_PREFIX + MULTI_NAMESPACE));
    tables.forEach(table -> namespaces.addAll(tableKeyPrefixes(table)));
    return props.stringPropertyNames().stream()
        .filter(key -> namespaces.stream().anyMatch(key::startsWith) && !known.contains(key))
        .sorted().collect(Collectors.toList());
  }

  /**
   * Per-table keys ({@code hoodie.streamer.source.hudi.&lt;table&gt;.}) of tables that are not configured: left behind when
   * a table was removed from {@link #TABLES}, or a misspelt table name.
   */
  public static List<String> keysOfOtherTables(TypedProperties props, List<String> tables) {
    List<String> configured = tables.stream().flatMap(table -> tableKeyPrefixes(table).stream())
        .collect(Collectors.toList());
    return props.stringPropertyNames().stream()
        .filter(key -> (key.startsWith(STREAMER_CONFIG_PREFIX + TABLES_NAMESPACE)
            || key.startsWith(DELTA_STREAMER_CONFIG_PREFIX + TABLES_NAMESPACE))
            && configured.stream().noneMatch(key::startsWith))
        .sorted().collect(Collectors.toList());
  }

  /**
   * The form of a table name used inside config keys: dots become underscores so that property files and
   * key prefixes do not split the name.
   */
  public static String tableKeyName(String table) {
    return table.replace('.', '_');
  }
}
