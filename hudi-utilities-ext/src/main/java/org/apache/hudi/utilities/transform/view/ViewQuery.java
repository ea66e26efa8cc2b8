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

package org.apache.hudi.utilities.transform.view;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The query of a view over whole tables, its tables bound to temp views: analyzed once per binding of the tables to
 * datasets (their states at some instant, or parts of them), so that one query text yields every plan a batch runs.
 * The temp views belong to this query and are dropped by {@link #close}.
 */
public final class ViewQuery implements AutoCloseable {

  private final SparkSession spark;
  private final String boundSql;
  private final Map<String, String> viewOfTable;

  /**
   * @param boundSql    the query, each table placeholder replaced by its temp view's name
   * @param viewOfTable the temp view name of each table the query reads, in the order of the job's tables
   */
  public ViewQuery(SparkSession spark, String boundSql, Map<String, String> viewOfTable) {
    this.spark = spark;
    this.boundSql = boundSql;
    this.viewOfTable = Collections.unmodifiableMap(new LinkedHashMap<>(viewOfTable));
  }

  /** The tables the query reads, in the order of the job's tables. */
  public List<String> tables() {
    return new ArrayList<>(viewOfTable.keySet());
  }

  /** The temp view name of each table, by table. */
  public Map<String, String> viewOfTable() {
    return viewOfTable;
  }

  public String sql() {
    return boundSql;
  }

  /**
   * The analyzed plan of the query with each table bound to a dataset, its comma joins written as joins on their
   * equalities ({@link CommaJoins}): the plan every pass of a view reads and every batch runs.
   *
   * @param tables a dataset for every table of {@link #tables()}
   */
  public LogicalPlan analyze(Map<String, Dataset<Row>> tables) {
    viewOfTable.forEach((table, view) -> tables.get(table).createOrReplaceTempView(view));
    // Analysis embeds each temp view's plan: rebinding the views later leaves this plan as it is.
    return CommaJoins.asJoinConditions(spark.sql(boundSql).queryExecution().analyzed());
  }

  @Override
  public void close() {
    viewOfTable.values().forEach(view -> spark.catalog().dropTempView(view));
  }
}
