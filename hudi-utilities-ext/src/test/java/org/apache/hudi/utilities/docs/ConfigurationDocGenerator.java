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
import org.apache.hudi.utilities.testutils.ConfigTable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Renders {@code docs/configuration.md} from the config classes of the plugin: every class annotated with Hudi's
 * {@link ConfigClassProperty} among the compiled classes under {@code org/apache/hudi/utilities}, found by scanning
 * the classes directory (no list of classes to keep up to date), each with a table of its {@code ConfigProperty}
 * settings: the static fields, and the keys of static functions from a table name to a {@code ConfigProperty} (per-table
 * keys), rendered with the {@value ConfigTable#TABLE_PLACEHOLDER} placeholder.
 */
final class ConfigurationDocGenerator {

  /** Set to {@code true} to write the page instead of comparing it. */
  static final String WRITE_PROPERTY = "config.doc.write";

  /** The build step that regenerates the page. */
  static final String REGENERATE_COMMAND = "mvn -B -pl hudi-utilities-ext -am test "
      + "-Dtest=TestConfigurationDoc -Dsurefire.failIfNoSpecifiedTests=false -D" + WRITE_PROPERTY + "=true";

  /** The page, relative to the repository root. */
  static final String PAGE = "docs/configuration.md";

  private static final String PACKAGE_FOLDER = "org/apache/hudi/utilities";
  private static final byte[] ANNOTATION_DESCRIPTOR =
      ("L" + ConfigClassProperty.class.getName().replace('.', '/') + ";").getBytes(StandardCharsets.UTF_8);

  private static final String LICENSE_HEADER = String.join("\n",
      "<!--",
      "  Licensed to the Apache Software Foundation (ASF) under one",
      "  or more contributor license agreements.  See the NOTICE file",
      "  distributed with this work for additional information",
      "  regarding copyright ownership.  The ASF licenses this file",
      "  to you under the Apache License, Version 2.0 (the",
      "  \"License\"); you may not use this file except in compliance",
      "  with the License.  You may obtain a copy of the License at",
      "",
      "       http://www.apache.org/licenses/LICENSE-2.0",
      "",
      "  Unless required by applicable law or agreed to in writing, software",
      "  distributed under the License is distributed on an \"AS IS\" BASIS,",
      "  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.",
      "  See the License for the specific language governing permissions and",
      "  limitations under the License.",
      "-->");

  private ConfigurationDocGenerator() {
  }

  /**
   * The config classes among the compiled classes of a classes directory.
   *
   * @param classesDir a compiled classes directory, e.g. the plugin's {@code target/classes}
   * @return the classes under {@code org/apache/hudi/utilities} annotated with {@link ConfigClassProperty}, by name
   */
  static List<Class<?>> configClasses(Path classesDir) throws IOException {
    Path packageDir = classesDir.resolve(PACKAGE_FOLDER);
    if (!Files.isDirectory(packageDir)) {
      throw new IllegalStateException("Cannot find config classes: " + packageDir + " does not exist (compile the "
          + "plugin first, e.g. with " + REGENERATE_COMMAND + ")");
    }
    List<Class<?>> classes = new ArrayList<>();
    try (Stream<Path> files = Files.walk(packageDir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().collect(Collectors.toList())) {
        // Only a class annotated with @ConfigClassProperty names the annotation in its constant pool: load no other.
        if (!contains(Files.readAllBytes(file), ANNOTATION_DESCRIPTOR)) {
          continue;
        }
        String relative = classesDir.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
        String name = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
        Class<?> type;
        try {
          type = Class.forName(name, false, ConfigurationDocGenerator.class.getClassLoader());
        } catch (ClassNotFoundException e) {
          throw new IllegalStateException("Cannot load " + name + " from " + file + ": is " + classesDir
              + " on the test classpath?", e);
        }
        if (type.isAnnotationPresent(ConfigClassProperty.class)) {
          classes.add(type);
        }
      }
    }
    classes.sort(Comparator.comparing(Class::getName));
    return classes;
  }

  /** The page for the given config classes, sections in the order of their names. */
  static String render(List<Class<?>> configClasses) {
    List<Class<?>> classes = new ArrayList<>(configClasses);
    classes.sort(Comparator.comparing((Class<?> type) -> type.getAnnotation(ConfigClassProperty.class).name())
        .thenComparing(Class::getName));
    StringBuilder page = new StringBuilder(LICENSE_HEADER).append("\n\n# Configuration\n\n");
    page.append("Every setting of the plugin, by config class, generated from the `ConfigProperty` definitions of the "
        + "classes\nannotated with `@ConfigClassProperty` in the plugin's compiled classes. A key with `")
        .append(ConfigTable.TABLE_PLACEHOLDER).append("` is set once per\nsource table, with the table's name in place of `")
        .append(ConfigTable.TABLE_PLACEHOLDER).append("` (the documentation of the table list says how names are\n"
        + "spelled in keys). Alternatives are other names of the same setting.\n\n"
        + "Do not edit this page: `ConfigurationDocGenerator`\n"
        + "(`hudi-utilities-ext/src/test/java/org/apache/hudi/utilities/docs/`) generates it, and "
        + "`TestConfigurationDoc` fails while\nit differs from the code. After changing a config, regenerate it with\n\n"
        + "```bash\n").append(REGENERATE_COMMAND).append("\n```\n\n");
    for (Class<?> type : classes) {
      ConfigClassProperty annotation = type.getAnnotation(ConfigClassProperty.class);
      page.append("- [").append(annotation.name()).append("](#").append(MarkdownLinkChecker.slug(annotation.name()))
          .append(") (`").append(type.getSimpleName()).append("`): ").append(ConfigTable.properties(type).size())
          .append(" keys\n");
    }
    for (Class<?> type : classes) {
      ConfigClassProperty annotation = type.getAnnotation(ConfigClassProperty.class);
      page.append("\n## ").append(annotation.name()).append("\n\n`").append(type.getSimpleName()).append("`, group ")
          .append(annotation.groupName().name);
      if (annotation.subGroupName() != ConfigGroups.SubGroupNames.NONE) {
        page.append(", subgroup ").append(annotation.subGroupName().name);
      }
      page.append(". ").append(ConfigTable.prose(annotation.description())).append("\n\n").append(ConfigTable.of(type));
    }
    return page.toString();
  }

  private static boolean contains(byte[] bytes, byte[] part) {
    for (int i = 0; i + part.length <= bytes.length; i++) {
      int j = 0;
      while (j < part.length && bytes[i + j] == part[j]) {
        j++;
      }
      if (j == part.length) {
        return true;
      }
    }
    return false;
  }
}
