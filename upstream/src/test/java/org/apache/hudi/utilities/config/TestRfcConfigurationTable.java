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

import org.apache.hudi.utilities.testutils.ConfigTable;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RFC-108's configuration table is what the patch series' {@link HoodieIncrMultiSourceConfig} defines, not the plugin's
 * config class: the checked-in table, between its markers, equals the one rendered from the patched class. Not a test
 * of a patch: upstream/build.sh runs it after the last patch. With {@code -Dconfig.doc.write=true} it writes the table.
 */
class TestRfcConfigurationTable {

  private static final String RFC = "rfc/rfc-108/rfc-108.md";
  private static final String TABLE_START = "<!-- generated table: HoodieIncrMultiSourceConfig -->";
  private static final String TABLE_END = "<!-- end of generated table -->";
  private static final String WRITE_PROPERTY = "config.doc.write";
  private static final String REGENERATE_COMMAND = "MAVEN_ARGS=-D" + WRITE_PROPERTY + "=true bash upstream/build.sh";

  @Test
  void rfcConfigurationTableIsWhatThePatchedConfigClassDefines() throws IOException {
    Path rfc = Paths.get(System.getProperty("repository.root")).resolve(RFC);
    String text = new String(Files.readAllBytes(rfc), StandardCharsets.UTF_8).replace("\r\n", "\n");
    int start = text.indexOf(TABLE_START);
    int end = text.indexOf(TABLE_END);
    assertTrue(start >= 0 && end > start, RFC + " lacks the markers " + TABLE_START + " and " + TABLE_END);
    String checkedIn = text.substring(start + TABLE_START.length() + 1, end);
    String rendered = ConfigTable.of(HoodieIncrMultiSourceConfig.class);

    if (Boolean.getBoolean(WRITE_PROPERTY)) {
      Files.write(rfc, (text.substring(0, start + TABLE_START.length() + 1) + rendered + text.substring(end))
          .getBytes(StandardCharsets.UTF_8));
      System.out.println("Wrote the configuration table of " + rfc);
      return;
    }
    assertEquals(rendered, checkedIn, RFC + "'s configuration table is stale: regenerate it with " + REGENERATE_COMMAND
        + " and commit it");
  }
}
