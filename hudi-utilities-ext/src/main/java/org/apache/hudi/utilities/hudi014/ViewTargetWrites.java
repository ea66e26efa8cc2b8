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
import org.apache.hudi.common.model.DefaultHoodieRecordPayload;
import org.apache.hudi.common.model.HoodieAvroRecordMerger;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.OverwriteWithLatestAvroPayload;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.utilities.config.HoodieViewConfig;
import org.apache.hudi.utilities.config.ViewStrategy;
import org.apache.hudi.utilities.exception.HoodieTransformPlanException;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a view's rows need of the Streamer's writes into its target, checked before anything is committed: each row
 * replaces the target's row of its key whole (all rows carry the same ordering value), or deletes it when
 * {@code _hoodie_is_deleted} is true; and the target holds each key once, so that there is one row to replace.
 */
public final class ViewTargetWrites {

  /**
   * The payloads that replace: in Hudi 0.14, {@code OverwriteWithLatestAvroPayload.preCombine} keeps the incoming
   * record unless the other's ordering value is greater, its {@code combineAndGetUpdateValue} returns the incoming
   * record whatever is stored (nothing when it is a delete); {@code DefaultHoodieRecordPayload}'s
   * {@code needUpdatingPersistedRecord} keeps the stored record only when its ordering value is greater.
   */
  private static final List<String> REPLACING_PAYLOADS = Arrays.asList(OverwriteWithLatestAvroPayload.class.getName(),
      DefaultHoodieRecordPayload.class.getName());
  /** How many of the keys the target holds more than once a failure names. */
  private static final int NAMED_KEYS = 5;

  private ViewTargetWrites() {
  }

  /**
   * Checks the payload and record merger the target's writes use. The Streamer builds every record with its
   * {@code --payload-class}, which a transformer does not see; Hudi 0.14 writes it into the table config of a
   * MERGE_ON_READ target ({@code hoodie.compaction.payload.class}) when the Streamer creates the target and whenever it
   * loads it with another class, before each round reads its batch, and not into a COPY_ON_WRITE target's. The
   * properties may name a payload too (the write config takes them over the command line's for compaction and
   * MERGE_ON_READ merges).
   *
   * @param target the target as the batch finds it; empty if no Streamer created it
   * @throws HoodieTransformPlanException when a payload other than those known to replace, a record merger other than
   *     Hudi's Avro one, or a delete field other than {@code _hoodie_is_deleted} is configured
   */
  public static void checkRowsReplace(String sqlFile, TypedProperties properties, Option<ViewTarget> target) {
    for (String key : Arrays.asList(HoodieWriteConfig.WRITE_PAYLOAD_CLASS_NAME.key(),
        HoodieTableConfig.PAYLOAD_CLASS_NAME.key())) {
      if (properties.containsKey(key)) {
        checkPayload(sqlFile, properties.getString(key).trim(), "property " + key,
            "Set " + key + "=" + REPLACING_PAYLOADS.get(0) + ", or remove it");
      }
    }
    target.flatMap(ViewTarget::payloadClass).ifPresent(payload -> checkPayload(sqlFile, payload, "--payload-class, "
        + "in the target's table config as " + HoodieTableConfig.PAYLOAD_CLASS_NAME.key(), "Run the Streamer with "
        + "--payload-class " + REPLACING_PAYLOADS.get(0) + " (its default)"));
    String mergers = properties.getString(HoodieWriteConfig.RECORD_MERGER_IMPLS.key(),
        HoodieWriteConfig.RECORD_MERGER_IMPLS.defaultValue());
    List<String> otherMergers = Arrays.stream(mergers.split(",")).map(String::trim)
        .filter(merger -> !merger.isEmpty() && !merger.equals(HoodieAvroRecordMerger.class.getName()))
        .collect(Collectors.toList());
    if (!otherMergers.isEmpty()) {
      throw refusal(sqlFile, "may merge records with record merger(s) " + otherMergers + " (property "
          + HoodieWriteConfig.RECORD_MERGER_IMPLS.key() + ")", "Remove " + HoodieWriteConfig.RECORD_MERGER_IMPLS.key()
          + ", or set it to " + HoodieAvroRecordMerger.class.getName() + ", which merges through the payload");
    }
    String deleteField = properties.getString(DefaultHoodieRecordPayload.DELETE_KEY, "").trim();
    if (!deleteField.isEmpty()) {
      throw refusal(sqlFile, "deletes records by field '" + deleteField + "' (property "
          + DefaultHoodieRecordPayload.DELETE_KEY + "), not by " + HoodieRecord.HOODIE_IS_DELETED_FIELD,
          "Remove " + DefaultHoodieRecordPayload.DELETE_KEY + " and " + DefaultHoodieRecordPayload.DELETE_MARKER);
    }
  }

  /**
   * Checks that no record key is held by two of the target's rows (written by {@code --op INSERT} or
   * {@code BULK_INSERT}, or by another writer): one aggregation over the target's snapshot.
   *
   * @throws HoodieTransformPlanException naming up to {@value #NAMED_KEYS} such keys
   */
  public static void checkKeysUnique(String sqlFile, ViewTarget target) {
    target.stored().ifPresent(rows -> {
      List<Row> repeated = rows.groupBy(HoodieRecord.RECORD_KEY_METADATA_FIELD).count()
          .filter(functions.col("count").gt(1))
          .orderBy(HoodieRecord.RECORD_KEY_METADATA_FIELD)
          .limit(NAMED_KEYS)
          .collectAsList();
      if (!repeated.isEmpty()) {
        String keys = repeated.stream().map(row -> "'" + row.getString(0) + "' (" + row.getLong(1) + " rows)")
            .collect(Collectors.joining(", ")) + (repeated.size() == NAMED_KEYS ? ", and maybe more," : "");
        throw refusal(sqlFile, "holds record key(s) " + keys + " more than once (written by --op INSERT or "
                + "BULK_INSERT, or by another writer): a view's row would replace one of them and leave the others",
            "Delete those keys from the target and run one batch with " + HoodieViewConfig.STRATEGY.key() + "="
                + ViewStrategy.FULL + ", which writes the query's rows of every key again; let only the view write the "
                + "target, with --op UPSERT (the Streamer's default)");
      }
    });
  }

  private static void checkPayload(String sqlFile, String payload, String where, String fix) {
    if (!REPLACING_PAYLOADS.contains(payload)) {
      throw refusal(sqlFile, "merges records with payload " + payload + " (" + where + ")", fix);
    }
  }

  private static HoodieTransformPlanException refusal(String sqlFile, String problem, String fix) {
    return new HoodieTransformPlanException(String.format("Cannot run SQL file %s as a view: the target %s; a view's "
        + "rows must replace the target's rows of their keys whole, or delete them by %s. Nothing was committed. %s.",
        sqlFile, problem, HoodieRecord.HOODIE_IS_DELETED_FIELD, fix));
  }
}
