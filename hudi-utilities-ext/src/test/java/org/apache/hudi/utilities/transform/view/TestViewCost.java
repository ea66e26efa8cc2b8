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

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cost model strategy AUTO decides by: given tables' rows and changes, a view's shape and its target, then the
 * estimated milliseconds of both plans are exactly what the rows they read, produce and write weigh.
 */
class TestViewCost {

  /** The defaults of HoodieViewConfig's auto.cost.* weights. */
  private static final ViewCost.Weights DEFAULTS = new ViewCost.Weights(0.7, 3.4, 16, 7, 1500);
  private static final double EXACT = 1e-6;

  private static ViewCost.TableChange sales(long changed, boolean images) {
    return new ViewCost.TableChange("sales", 1_000_000, changed, images,
        images ? ViewCost.RemovedKeysRead.none() : ViewCost.RemovedKeysRead.wholeTable());
  }

  private static ViewCost.TableChange customers(long changed) {
    return new ViewCost.TableChange("customers", 20_000, changed, false, ViewCost.RemovedKeysRead.none());
  }

  /**
   * Full: 2 020 000 rows scanned (both tables, then the target's keys) at 0.7 us, a million rows produced (3.4 us),
   * upserted (16 us) and rewritten (7 us). Incremental: the fact's pass reads its rows and keys at both states (4 000 000)
   * and the customers at both (40 000); the customers' pass reads its rows at both states (40 000) and the fact at both
   * (2 000 000); 1 200 + 20 x 50 rows produced and written; every file of the target rewritten.
   */
  @Test
  void joinOfALatestStateFactAndADimensionIntoCopyOnWrite() {
    ViewCost cost = ViewCost.estimate(Arrays.asList(sales(1200, false), customers(20)), false, false, true, DEFAULTS);

    assertEquals(1414 + 3400 + 16000 + 7000, cost.fullMillis(), EXACT);
    assertEquals(1500 + 0.7 * 6_080_000 / 1000 + 3.4 * 2200 / 1000 + 16.0 * 2200 / 1000 + 7000, cost.incrementalMillis(),
        EXACT);
    assertEquals(2200, cost.producedRows());
    assertEquals(1200 / 1e6 + 20 / 2e4, cost.changeFraction(), EXACT);
    assertTrue(cost.incrementalIsCheaper(), cost.toString());
  }

  /**
   * The customers' pass reaching the fact (joined to it by an equality, its 20 changed rows listed) reads the fact once,
   * as of the new state: 1 000 000 rows scanned instead of 2 000 000; the fact's own pass, whose changed rows are not
   * listed, still reads the customers at both states.
   */
  @Test
  void dimensionPassReachingTheFactScansItOnce() {
    ViewCost whole = ViewCost.estimate(Arrays.asList(sales(1200, false), customers(20)), false, false, true, DEFAULTS);
    ViewCost reaching = ViewCost.estimate(Arrays.asList(sales(1200, false),
        customers(20).reaching(Collections.singleton("sales"))), false, false, true, DEFAULTS);

    assertEquals(0.7 * 1_000_000 / 1000, whole.incrementalMillis() - reaching.incrementalMillis(), EXACT);
    assertEquals(whole.fullMillis(), reaching.fullMillis(), EXACT);
  }

  /**
   * The estimate reads the fact once for the customers' pass exactly when the batch's rule lists their changed rows:
   * 20 changed records at a limit of 20 are listed (700 ms less of scan), 21 are not.
   */
  @Test
  void dimensionPassReachesTheFactExactlyWhenTheBatchListsItsChangedRows() {
    ListLimit listLimit = new ListLimit(20);

    assertTrue(listLimit.lists(20));
    assertFalse(listLimit.lists(21));
    for (long changed : new long[] {20, 21}) {
      ViewCost whole = ViewCost.estimate(Arrays.asList(sales(1200, false), customers(changed)), false, false, true,
          DEFAULTS);
      ViewCost ifListed = ViewCost.estimate(Arrays.asList(sales(1200, false), customers(changed)
          .reachingIfListed(Collections.singleton("sales"), listLimit)), false, false, true, DEFAULTS);

      assertEquals(listLimit.lists(changed) ? 0.7 * 1_000_000 / 1000 : 0,
          whole.incrementalMillis() - ifListed.incrementalMillis(), EXACT, changed + " changed records");
    }
  }

  /** A CDC fact gives its pass the changed rows from the delta's images: 1 200 rows instead of 4 000 000 scanned. */
  @Test
  void cdcFactReadsItsChangedRowsFromTheDelta() {
    ViewCost latest = ViewCost.estimate(Arrays.asList(sales(1200, false), customers(20)), false, false, true,
        DEFAULTS);
    ViewCost cdc = ViewCost.estimate(Arrays.asList(sales(1200, true), customers(20)), false, false, true, DEFAULTS);

    assertEquals(0.7 * (4_000_000 - 1200) / 1000, latest.incrementalMillis() - cdc.incrementalMillis(), EXACT);
    assertEquals(latest.fullMillis(), cdc.fullMillis(), EXACT);
  }

  /**
   * A window whose deletes fall in two file groups has those groups' keys read at both states (40 000 rows) instead of
   * the table's (2 000 000), and the text says so.
   */
  @Test
  void removedKeysFromTheFileGroupsDeletedFromAreChargedTheirRowsOnly() {
    ViewCost wholeTable = ViewCost.estimate(Arrays.asList(sales(1200, false), customers(20)), false, false, true,
        DEFAULTS);
    ViewCost fileGroups = ViewCost.estimate(Arrays.asList(new ViewCost.TableChange("sales", 1_000_000, 1200, false,
        ViewCost.RemovedKeysRead.fromFileGroups(2, 40_000)), customers(20)), false, false, true, DEFAULTS);

    assertEquals(0.7 * (2_000_000 - 40_000) / 1000, wholeTable.incrementalMillis() - fileGroups.incrementalMillis(),
        EXACT);
    assertTrue(wholeTable.toString().contains("sales: 1200 changed of ~1000000 rows, rows read from both states, "
        + "removed keys from its keys at both states, produces ~1200 rows"), wholeTable.toString());
    assertTrue(fileGroups.toString().contains("sales: 1200 changed of ~1000000 rows, rows read from both states, "
        + "removed keys from 2 file group(s) at both states (~40000 rows), produces ~1200 rows"), fileGroups.toString());
  }

  /** A MERGE_ON_READ target appends upserts to logs: neither plan counts a rewrite of its files. */
  @Test
  void mergeOnReadTargetRewritesNoFiles() {
    ViewCost copyOnWrite = ViewCost.estimate(Arrays.asList(sales(1200, true), customers(20)), false, false, true,
        DEFAULTS);
    ViewCost mergeOnRead = ViewCost.estimate(Arrays.asList(sales(1200, true), customers(20)), false, false, false,
        DEFAULTS);

    assertEquals(7000, copyOnWrite.fullMillis() - mergeOnRead.fullMillis(), EXACT);
    assertEquals(7000, copyOnWrite.incrementalMillis() - mergeOnRead.incrementalMillis(), EXACT);
  }

  /**
   * A grouped view keeping aggregate state over a CDC fact: at a million rows the full recompute's scan (700 ms) is
   * cheaper than the incremental batch's fixed cost; at ten million (7 000 ms) it is not.
   */
  @Test
  void groupedViewWithStateWinsOnceTheFullScanOutweighsTheFixedCost() {
    ViewCost million = ViewCost.estimate(Collections.singletonList(sales(1200, true)), true, true, true, DEFAULTS);
    ViewCost tenMillion = ViewCost.estimate(Collections.singletonList(new ViewCost.TableChange("sales", 10_000_000,
        12_000, true, ViewCost.RemovedKeysRead.none())), true, true, true, DEFAULTS);

    assertEquals(700, million.fullMillis(), EXACT);
    assertEquals(1500 + 0.7 * 1200 / 1000 + 3.4 * 1200 / 1000, million.incrementalMillis(), EXACT);
    assertFalse(million.incrementalIsCheaper(), million.toString());
    assertEquals(7000, tenMillion.fullMillis(), EXACT);
    assertTrue(tenMillion.incrementalIsCheaper(), tenMillion.toString());
  }

  /** Without aggregate state the changed groups are recomputed from their rows: the tables are scanned once more. */
  @Test
  void groupedViewWithoutStateReadsItsTablesAgain() {
    ViewCost kept = ViewCost.estimate(Collections.singletonList(sales(1200, true)), true, true, true, DEFAULTS);
    ViewCost notKept = ViewCost.estimate(Collections.singletonList(sales(1200, true)), true, false, true, DEFAULTS);

    assertEquals(0.7 * 1_000_000 / 1000, notKept.incrementalMillis() - kept.incrementalMillis(), EXACT);
  }

  /** A dimension's changed rows reach at most twice the fact's rows, however many there are. */
  @Test
  void producedRowsAreCappedAtTwiceTheLargestTable() {
    ViewCost cost = ViewCost.estimate(Arrays.asList(sales(0, false), new ViewCost.TableChange("regions", 20, 60,
        false, ViewCost.RemovedKeysRead.none())), false, false, false, DEFAULTS);

    assertEquals(2_000_000, cost.producedRows());
  }

  /** A batch whose tables did not change writes nothing: incremental, at no cost. */
  @Test
  void noChangeCostsNothingIncrementally() {
    ViewCost cost = ViewCost.estimate(Arrays.asList(sales(0, false), customers(0)), false, false, true, DEFAULTS);

    assertEquals(0, cost.incrementalMillis(), EXACT);
    assertTrue(cost.incrementalIsCheaper());
    assertEquals("no table changed; a full recompute ~27814 ms", cost.toString());
  }

  @Test
  void negativeWeightIsRefused() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> new ViewCost.Weights(0.7, -1, 16, 7, 1500));

    assertEquals("A view's cost weights are times, never negative", error.getMessage());
  }
}
