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

package org.apache.hudi.utilities.freshness;

import org.apache.hudi.utilities.freshness.testutils.Promtool;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped alert rules are valid and do what their unit tests (series over time, expected alerts) say:
 * {@code promtool check rules} and {@code promtool test rules}, run as CI runs them.
 */
class TestFreshnessAlertRules {

  private static final Path FOLDER = Paths.get("..", "docs", "freshness", "prometheus");

  @Test
  void theRuleFileIsValid() throws Exception {
    Promtool.Result checked = Promtool.run(List.of("check", "rules"), FOLDER.resolve("freshness-rules.yml"));

    assertEquals(0, checked.exitCode, checked.output);
    assertTrue(checked.output.contains("SUCCESS: 12 rules found"), checked.output);
  }

  @Test
  void theRulesPassTheirUnitTests() throws Exception {
    Promtool.Result tested = Promtool.run(List.of("test", "rules"), FOLDER.resolve("freshness-rules-test.yml"));

    assertEquals(0, tested.exitCode, tested.output);
    assertTrue(tested.output.contains("SUCCESS"), tested.output);
  }
}
