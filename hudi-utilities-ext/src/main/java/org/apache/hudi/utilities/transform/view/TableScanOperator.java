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
import org.apache.hudi.utilities.transform.view.LineagePlan.TableKey;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static scala.collection.JavaConverters.asScalaBuffer;
import static scala.collection.JavaConverters.seqAsJavaList;

/**
 * A read of one of the job's tables: the alias of the temp view the table is bound to. A leaf of every pass, whatever
 * plan the temp view holds: the table's rows are what the view is maintained over.
 */
final class TableScanOperator extends ViewOperator {

  private final SubqueryAlias scan;
  /** The temp view's name, in lower case. */
  private final String view;

  TableScanOperator(SubqueryAlias scan, String view) {
    this.scan = scan;
    this.view = view;
  }

  /** Unique by the table's record key. */
  @Override
  ViewShape.Node keys(ViewShape.Analysis analysis) {
    String table = analysis.read(view);
    List<String> recordKey = analysis.recordKeyOf(table);
    if (recordKey == null || recordKey.isEmpty()) {
      throw new ViewRefusal(String.format("table '%s' has no record key, by which its changes are matched", table));
    }
    Set<ExprId> key = new HashSet<>();
    for (String column : recordKey) {
      Attribute attribute = seqAsJavaList(scan.output()).stream().filter(a -> a.name().equals(column)).findFirst()
          .orElseThrow(() -> new ViewRefusal(String.format("table '%s' has no column '%s' of its record key", table,
              column)));
      key.add(attribute.exprId());
    }
    return new ViewShape.Node(Collections.singleton(key));
  }

  /**
   * The table's record key added right above the scan, as {@code __view_key_i}, so that the query's own columns (also a
   * {@code *}) are the table's.
   */
  @Override
  LineagePlan.Rewritten lineage(LineagePlan.Rewrite rewrite) {
    TableKey key = rewrite.keyOf(view);
    Map<String, Attribute> columns = new LinkedHashMap<>();
    seqAsJavaList(scan.output()).forEach(attribute -> columns.put(attribute.name().toLowerCase(Locale.ROOT), attribute));
    List<NamedExpression> projected = new ArrayList<>(seqAsJavaList(scan.output()));
    String name = LineagePlan.keyColumn(key.index());
    projected.add((NamedExpression) key.of(column -> new Column(columns.get(column.toLowerCase(Locale.ROOT)))).as(name).expr());
    return new LineagePlan.Rewritten(new Project(asScalaBuffer(projected).toSeq(), scan),
        new LinkedHashSet<>(Collections.singletonList(name)));
  }

  /** Every column of the table whose equality an IN list decides as a join does. */
  @Override
  Map<ExprId, JoinEdges.TableColumn> tableColumns(JoinEdges.Walk walk) {
    String table = walk.read(view);
    Map<ExprId, JoinEdges.TableColumn> columns = new HashMap<>();
    for (Attribute attribute : seqAsJavaList(scan.output())) {
      if (JoinEdges.isListable(attribute.dataType())) {
        columns.put(attribute.exprId(), new JoinEdges.TableColumn(table, attribute.name(), attribute.dataType()));
      }
    }
    return columns;
  }

  /** A table is read as it is: whatever its temp view's plan holds is not the view's grouping. */
  @Override
  Option<GroupingOperator> grouping(ViewGrouping.Search search) {
    return Option.empty();
  }
}
