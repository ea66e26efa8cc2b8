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

package org.apache.hudi.utilities.transform;

import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.keygen.constant.KeyGeneratorOptions;
import org.apache.hudi.utilities.config.HoodieIncrMultiSourceConfig;
import org.apache.hudi.utilities.config.SqlTransformerConfig;
import org.apache.hudi.utilities.exception.HoodieTransformPlanException;
import org.apache.hudi.utilities.transform.sql.SourcePlaceholders;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.parser.ParseException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.apache.hudi.common.util.ConfigUtils.getStringWithAltKeys;

/**
 * The fingerprint of a view's definition: what the target's rows depend on besides the tables' data. Every commit of a
 * view records it in its checkpoint ({@code @view=...}), so that a batch can tell that the query was edited since the
 * target was written, instead of merging rows of the new query into rows of the old one.
 *
 * <p>It hashes the query as Spark's parser reads it, its placeholders bound to the tables' names, and the target's
 * record key: an edit of what the query computes (a filter, a column, a join, a literal) or of the key changes it; an
 * edit of blanks, comments or keyword case does not. A source table's schema is not part of it: its columns reach the
 * target through Hudi's schema evolution, as for any Streamer job.
 */
public final class ViewDefinitionFingerprint {

  private static final int HEX_DIGITS = 16;
  private static final Pattern EXPRESSION_ID = Pattern.compile("#\\d+");

  private ViewDefinitionFingerprint() {
  }

  /**
   * The fingerprint of the job's view, read from its SQL file; empty when the job has no SQL file or its file is not a
   * view (&lt;TABLE:name&gt; placeholders) of one query.
   *
   * @throws org.apache.hudi.utilities.exception.HoodieTransformExecutionException if the SQL file cannot be read
   */
  public static Option<String> ofJob(JavaSparkContext jsc, SparkSession spark, TypedProperties properties) {
    String sqlFile = getStringWithAltKeys(properties, SqlTransformerConfig.TRANSFORMER_SQL_FILE, true);
    if (sqlFile == null) {
      return Option.empty();
    }
    List<String> tables = HoodieIncrMultiSourceConfig.tables(properties);
    List<String> statements = MultiDatasetSqlFileTransformer.statements(jsc, sqlFile);
    SourcePlaceholders placeholders = new SourcePlaceholders(tables, tables.size());
    if (statements.size() != 1 || !MultiTableView.isView(statements, placeholders)) {
      return Option.empty();
    }
    return Option.of(of(spark, statements.get(0), sqlFile, placeholders, tables, properties));
  }

  /**
   * @param sql          the view's query, with its placeholders
   * @param sqlFile      the file it was read from, named in errors
   * @param placeholders what its placeholders mean
   * @param tables       the configured tables, in declaration order
   * @param properties   the job's properties, for the target's record key
   * @return 16 hex digits
   * @throws HoodieTransformPlanException if Spark cannot parse the query
   */
  static String of(SparkSession spark, String sql, String sqlFile, SourcePlaceholders placeholders, List<String> tables,
                   TypedProperties properties) {
    // Bound by name: a table list reordered under <TABLE:name> placeholders reads the same tables.
    String bound = placeholders.bind(sql, reference -> "`" + tables.get(reference.index()) + "`");
    String parsed;
    try {
      parsed = spark.sessionState().sqlParser().parsePlan(bound).treeString();
    } catch (ParseException e) {
      throw new HoodieTransformPlanException(String.format("Cannot parse the view of %s: %s. Nothing was committed. "
          + "Correct the query.", sqlFile, e.getMessage()), e);
    }
    String recordKey = Arrays.stream(properties.getString(KeyGeneratorOptions.RECORDKEY_FIELD_NAME.key(), "")
        .split(",")).map(String::trim).collect(Collectors.joining(","));
    return sha256(withExpressionIdsInOrder(parsed) + "\nrecord key: " + recordKey).substring(0, HEX_DIGITS);
  }

  /**
   * The parser gives each alias a new expression id ({@code AS n#1234}) from a counter of the JVM: numbered instead by
   * order of appearance, the same query prints the same every time.
   */
  private static String withExpressionIdsInOrder(String plan) {
    Map<String, Integer> ordinals = new HashMap<>();
    Matcher matcher = EXPRESSION_ID.matcher(plan);
    StringBuffer numbered = new StringBuffer();
    while (matcher.find()) {
      int ordinal = ordinals.computeIfAbsent(matcher.group(), id -> ordinals.size());
      matcher.appendReplacement(numbered, "#" + ordinal);
    }
    return matcher.appendTail(numbered).toString();
  }

  private static String sha256(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (byte b : digest) {
        hex.append(String.format("%02x", b));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java platform provides SHA-256", e);
    }
  }
}
