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

package org.apache.hudi.utilities.docs;

import org.apache.hudi.common.config.ConfigClassProperty;
import org.apache.hudi.common.config.ConfigGroups;
import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.config.HoodieConfig;
import org.apache.hudi.utilities.testutils.ConfigTable;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code docs/configuration.md} is what the plugin's config classes define: the checked-in page equals the page
 * {@link ConfigurationDocGenerator} renders from the compiled classes, or the test fails with the command that
 * regenerates it. With {@code -Dconfig.doc.write=true} it writes the page instead.
 */
class TestConfigurationDoc {

  /**
   * The keys a user can set, per table as templates: the generator must find each, however the config classes
   * declare them (fields or per-table functions) and wherever they live.
   */
  private static final List<String> KEYS = Arrays.asList(
      "hoodie.streamer.source.multi.hudi.tables",
      "hoodie.streamer.source.multi.hudi.checkpoint.enable",
      "hoodie.streamer.source.multi.hudi.checkpoint.legacy.table",
      "hoodie.streamer.source.multi.hudi.checkpoint.lenient",
      "hoodie.streamer.source.multi.hudi.read.parallelism",
      "hoodie.streamer.source.multi.hudi.snapshot.pushdown.max.keys",
      "hoodie.streamer.source.multi.hudi.snapshot.pushdown.key.range",
      "hoodie.streamer.source.multi.hudi.alignment",
      "hoodie.streamer.source.multi.hudi.alignment.idle.timeout.ms",
      "hoodie.streamer.source.multi.hudi.retention.warn.headroom.commits",
      "hoodie.streamer.source.multi.hudi.retention.fail.fast",
      "hoodie.streamer.source.hudi.{table}.path",
      "hoodie.streamer.source.hudi.{table}.num_instants",
      "hoodie.streamer.source.hudi.{table}.missing.checkpoint.strategy",
      "hoodie.streamer.source.hudi.{table}.skip.on.schema.failure",
      "hoodie.streamer.source.hudi.{table}.incr.fallback.fulltablescan.enable",
      "hoodie.streamer.source.hudi.{table}.incr.format",
      "hoodie.streamer.source.hudi.{table}.partition.fields",
      "hoodie.streamer.source.hudi.{table}.partition.extractor.class",
      "hoodie.streamer.freshness.pipeline.name",
      "hoodie.streamer.freshness.mode",
      "hoodie.streamer.freshness.sla.minutes",
      "hoodie.streamer.freshness.lag.cap.minutes",
      "hoodie.streamer.freshness.history.enable",
      "hoodie.streamer.freshness.history.path",
      "hoodie.streamer.freshness.history.max.entries",
      "hoodie.streamer.freshness.kafka.poll.timeout.ms",
      "hoodie.streamer.freshness.kafka.metadata.timeout.ms",
      "hoodie.streamer.freshness.kafka.consumer.props.prefix",
      "hoodie.streamer.freshness.status.window.minutes",
      "hoodie.streamer.freshness.prometheus.pushgateway.address",
      "hoodie.streamer.freshness.prometheus.pushgateway.job",
      "hoodie.streamer.transformer.view.strategy",
      "hoodie.streamer.transformer.view.auto.cost.scan.micros.per.row",
      "hoodie.streamer.transformer.view.auto.cost.output.micros.per.row",
      "hoodie.streamer.transformer.view.auto.cost.write.micros.per.row",
      "hoodie.streamer.transformer.view.auto.cost.rewrite.micros.per.row",
      "hoodie.streamer.transformer.view.auto.cost.incremental.fixed.ms",
      "hoodie.streamer.transformer.view.max.listed.keys");

  @Test
  void checkedInPageIsWhatTheConfigClassesDefine() throws IOException {
    String rendered = ConfigurationDocGenerator.render(ConfigurationDocGenerator.configClasses(classesDir()));
    Path page = MarkdownLinkChecker.repositoryRoot().resolve(ConfigurationDocGenerator.PAGE);

    if (Boolean.getBoolean(ConfigurationDocGenerator.WRITE_PROPERTY)) {
      Files.write(page, rendered.getBytes(StandardCharsets.UTF_8));
      System.out.println("Wrote " + page);
      return;
    }
    String checkedIn = Files.exists(page)
        ? new String(Files.readAllBytes(page), StandardCharsets.UTF_8).replace("\r\n", "\n") : "";
    if (!rendered.equals(checkedIn)) {
      fail(ConfigurationDocGenerator.PAGE + " is stale: it differs from what the config classes define; "
          + firstDifference(checkedIn, rendered) + "Regenerate it with\n  "
          + ConfigurationDocGenerator.REGENERATE_COMMAND + "\nand commit it.");
    }
  }

  @Test
  void everyKeyAUserCanSetIsOnThePage() throws IOException {
    List<String> keys = ConfigurationDocGenerator.configClasses(classesDir()).stream()
        .flatMap(type -> ConfigTable.properties(type).stream())
        .map(ConfigProperty::key)
        .collect(Collectors.toList());

    List<String> missing = KEYS.stream().filter(key -> !keys.contains(key)).collect(Collectors.toList());
    assertEquals(Collections.emptyList(), missing, "keys the generator did not find in " + classesDir());
  }

  @Test
  void perTableKeysOfAFunctionAreRenderedWithThePlaceholder() {
    String page = ConfigurationDocGenerator.render(Collections.singletonList(ExampleConfig.class));

    assertTrue(page.contains("- [Example Configs](#example-configs) (`ExampleConfig`): 3 keys"), page);
    assertTrue(page.contains("## Example Configs\n\n`ExampleConfig`, group Hudi Streamer Configs. Settings of an "
        + "&lt;example&gt;."), page);
    assertTrue(page.contains("| `hoodie.example.table.{table}.path` | (none) | `hoodie.old.example.table.{table}.path` "
        + "|  |  | no | Base path of &lt;table&gt;, e.g. a\\|b. |"), page);
    assertTrue(page.contains("| `hoodie.example.mode` | `FAST` |  | `FAST`, `SLOW` | 1.1.0 | yes | How. |"), page);
    assertTrue(page.contains("| `hoodie.example.name` | (none: the table name) |  |  |  | no | Name. |"), page);
  }

  /** The plugin's compiled classes: the directory Surefire is told about, else the module's target/classes. */
  private static Path classesDir() {
    String configured = System.getProperty("plugin.classes.dir");
    return configured != null ? Paths.get(configured) : Paths.get("target", "classes").toAbsolutePath();
  }

  private static String firstDifference(String checkedIn, String rendered) {
    String[] was = checkedIn.split("\n", -1);
    String[] is = rendered.split("\n", -1);
    for (int i = 0; i < Math.max(was.length, is.length); i++) {
      String before = i < was.length ? was[i] : "(end of file)";
      String after = i < is.length ? is[i] : "(end of file)";
      if (!before.equals(after)) {
        return "first difference at line " + (i + 1) + ": the page has\n  " + before + "\nthe code defines\n  " + after
            + "\n";
      }
    }
    return "line endings differ";
  }

  /** A config class with a per-table key made by a function, as config classes may define them. */
  @ConfigClassProperty(name = "Example Configs",
      groupName = ConfigGroups.Names.HUDI_STREAMER,
      description = "Settings of an <example>.")
  static final class ExampleConfig extends HoodieConfig {

    static final ConfigProperty<String> MODE = ConfigProperty
        .key("hoodie.example.mode")
        .defaultValue("FAST")
        .withValidValues("SLOW", "FAST")
        .sinceVersion("1.1.0")
        .markAdvanced()
        .withDocumentation("How.");

    static final ConfigProperty<String> NAME = ConfigProperty
        .key("hoodie.example.name")
        .noDefaultValue("the table name")
        .withDocumentation("Name.");

    static ConfigProperty<String> tablePath(String table) {
      return ConfigProperty
          .key("hoodie.example.table." + table + ".path")
          .noDefaultValue()
          .withAlternatives("hoodie.old.example.table." + table + ".path")
          .withDocumentation("Base path of <table>, e.g. a|b.");
    }
  }
}
