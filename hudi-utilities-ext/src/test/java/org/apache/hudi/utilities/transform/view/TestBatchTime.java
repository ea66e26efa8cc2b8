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

import org.apache.hudi.utilities.testutils.SharedSpark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Given the analyzed plan of a query that reads the time in every way Spark offers, in a subquery too, when the batch's
 * time is put in, then every one of them reads that instant (dates and local times in the session's time zone).
 */
class TestBatchTime {

  @Test
  void everyTimeFunctionOfThePlanReadsTheBatchsInstant() {
    SparkSession spark = SharedSpark.session();
    Instant at = Instant.parse("2030-01-01T23:30:00.123456Z");
    ZoneId zone = ZoneId.of(spark.sessionState().conf().sessionLocalTimeZone());

    Row row = Dataset.ofRows(spark, new BatchTime(at).in(spark.sql("SELECT current_timestamp() AS ts, now() AS n, "
        + "current_date() AS d, localtimestamp() AS l, unix_timestamp() AS u, "
        + "(SELECT max(current_timestamp()) FROM range(1)) AS sub").queryExecution().analyzed())).first();

    assertEquals(at, row.getTimestamp(0).toInstant());
    assertEquals(at, row.getTimestamp(1).toInstant());
    assertEquals(LocalDate.ofInstant(at, zone), row.getDate(2).toLocalDate());
    assertEquals(LocalDateTime.ofInstant(at, zone), row.<LocalDateTime>getAs(3));
    assertEquals(at.getEpochSecond(), row.getLong(4));
    assertEquals(at, row.getTimestamp(5).toInstant());
  }
}
