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

import org.apache.hudi.common.util.Option;

import org.apache.spark.sql.catalyst.expressions.CurrentBatchTimestamp;
import org.apache.spark.sql.catalyst.expressions.CurrentDate;
import org.apache.spark.sql.catalyst.expressions.CurrentTimestampLike;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.LocalTimestamp;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.TimestampNTZType$;

import java.time.Instant;
import java.time.LocalDateTime;

import scala.runtime.AbstractPartialFunction;

import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * The time a view's batch runs at, taken once per batch: every function of the query that reads the time
 * ({@code current_timestamp()}, {@code now()}, {@code current_date()}, {@code localtimestamp()}, {@code unix_timestamp()}
 * without arguments) reads this one instant in every plan the batch runs. Spark fixes the time once per query; a batch
 * runs several (the query over the new state, over the old one, the keys to delete), and they must agree on which rows
 * the time lets in, as one point in time.
 */
final class BatchTime {

  private final Instant instant;

  BatchTime(Instant instant) {
    this.instant = instant;
  }

  /**
   * The analyzed plan with each time function replaced by a literal of the batch's instant (a date or local time in
   * the function's time zone), in subqueries too.
   */
  LogicalPlan in(LogicalPlan analyzed) {
    AbstractPartialFunction<Expression, Expression> literals = new AbstractPartialFunction<Expression, Expression>() {
      @Override
      public boolean isDefinedAt(Expression expression) {
        return expression instanceof CurrentTimestampLike || expression instanceof CurrentDate
            || expression instanceof LocalTimestamp;
      }

      @Override
      public Expression apply(Expression expression) {
        long micros = DateTimeUtils.instantToMicros(instant);
        if (expression instanceof CurrentDate) {
          return new Literal(DateTimeUtils.microsToDays(micros, ((CurrentDate) expression).zoneId()), DataTypes.DateType);
        }
        if (expression instanceof LocalTimestamp) {
          LocalDateTime local = LocalDateTime.ofInstant(instant, ((LocalTimestamp) expression).zoneId());
          return new Literal(DateTimeUtils.localDateTimeToMicros(local), TimestampNTZType$.MODULE$);
        }
        return new Literal(micros, DataTypes.TimestampType);
      }
    };
    return analyzed.transformDownWithSubqueries(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return true;
      }

      @Override
      public LogicalPlan apply(LogicalPlan node) {
        return node.transformExpressions(literals);
      }
    });
  }

  /**
   * The first function in {@code expression} that reads the time a batch runs at, if any: Spark marks them
   * deterministic within a query, but a row they filter or compute changes without any table changing.
   */
  static Option<Expression> readIn(Expression expression) {
    if (expression instanceof CurrentTimestampLike || expression instanceof CurrentDate
        || expression instanceof LocalTimestamp || expression instanceof CurrentBatchTimestamp) {
      return Option.of(expression);
    }
    for (Expression child : seqAsJavaList(expression.children())) {
      Option<Expression> found = readIn(child);
      if (found.isPresent()) {
        return found;
      }
    }
    return Option.empty();
  }
}
