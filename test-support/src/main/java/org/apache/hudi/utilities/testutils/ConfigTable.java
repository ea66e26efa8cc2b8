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

package org.apache.hudi.utilities.testutils;

import org.apache.hudi.common.config.ConfigProperty;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The Markdown table of a config class's {@link ConfigProperty} settings, as docs/configuration.md and RFC-108 show
 * them: one row per key, with its default, alternatives, valid values, versions, whether it is advanced, and its
 * documentation.
 */
public final class ConfigTable {

  /** Passed to per-table key functions; the same placeholder the per-table key templates use. */
  public static final String TABLE_PLACEHOLDER = "{table}";

  private ConfigTable() {
  }

  /**
   * The settings of one config class: its static {@link ConfigProperty} fields and the properties returned by its
   * static functions of one {@code String} (a table name), called with {@value #TABLE_PLACEHOLDER}.
   *
   * @return the settings by key; a key declared both ways appears once
   */
  public static Collection<ConfigProperty<?>> properties(Class<?> type) {
    Map<String, ConfigProperty<?>> byKey = new TreeMap<>();
    Field[] fields = type.getDeclaredFields();
    Arrays.sort(fields, Comparator.comparing(Field::getName));
    for (Field field : fields) {
      if (Modifier.isStatic(field.getModifiers()) && ConfigProperty.class.isAssignableFrom(field.getType())) {
        try {
          field.setAccessible(true);
          ConfigProperty<?> property = (ConfigProperty<?>) field.get(null);
          byKey.putIfAbsent(property.key(), property);
        } catch (IllegalAccessException e) {
          throw new IllegalStateException("Cannot read " + type.getName() + "." + field.getName(), e);
        }
      }
    }
    Method[] methods = type.getDeclaredMethods();
    Arrays.sort(methods, Comparator.comparing(Method::getName));
    for (Method method : methods) {
      if (Modifier.isStatic(method.getModifiers()) && ConfigProperty.class.isAssignableFrom(method.getReturnType())
          && method.getParameterCount() == 1 && method.getParameterTypes()[0] == String.class) {
        try {
          method.setAccessible(true);
          ConfigProperty<?> property = (ConfigProperty<?>) method.invoke(null, TABLE_PLACEHOLDER);
          byKey.putIfAbsent(property.key(), property);
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new IllegalStateException("Cannot render the per-table config " + type.getName() + "."
              + method.getName() + "(String) with the table name '" + TABLE_PLACEHOLDER + "': it must accept it", e);
        }
      }
    }
    return byKey.values();
  }

  /** The table of one config class's keys. */
  public static String of(Class<?> type) {
    StringBuilder table = new StringBuilder("| key | default | alternatives | valid values | since | advanced | documentation |\n")
        .append("| --- | --- | --- | --- | --- | --- | --- |\n");
    for (ConfigProperty<?> property : properties(type)) {
      table.append("| ").append(code(property.key()))
          .append(" | ").append(defaultOf(property))
          .append(" | ").append(property.getAlternatives().stream().map(ConfigTable::code)
              .collect(Collectors.joining("<br>")))
          .append(" | ").append(validValues(property).stream().map(ConfigTable::code)
              .collect(Collectors.joining(", ")))
          .append(" | ").append(versions(property))
          .append(" | ").append(property.isAdvanced() ? "yes" : "no")
          .append(" | ").append(prose(property.doc()))
          .append(" |\n");
    }
    return table.toString();
  }

  /** Text in a table cell: one line, no cell separator, no HTML (so that {@code <SRC:t>} shows as written). */
  public static String prose(String text) {
    return text.trim().replaceAll("\\s*\\R\\s*", " ").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("|", "\\|");
  }

  private static String defaultOf(ConfigProperty<?> property) {
    if (property.hasDefaultValue()) {
      String value = String.valueOf(property.defaultValue());
      return value.isEmpty() ? "(empty)" : code(value);
    }
    String doc = property.getDocOnDefaultValue();
    return doc == null || doc.trim().isEmpty() ? "(none)" : "(none: " + prose(doc) + ")";
  }

  private static String versions(ConfigProperty<?> property) {
    String since = property.getSinceVersion().isPresent() ? property.getSinceVersion().get() : "";
    if (property.getDeprecatedVersion().isPresent()) {
      since += (since.isEmpty() ? "" : ", ") + "deprecated after " + property.getDeprecatedVersion().get();
    }
    return prose(since);
  }

  /** Hudi 0.14 keeps a config's valid values in a private field, without a getter. */
  private static Collection<String> validValues(ConfigProperty<?> property) {
    try {
      Field field = ConfigProperty.class.getDeclaredField("validValues");
      field.setAccessible(true);
      Object values = field.get(property);
      TreeSet<String> sorted = new TreeSet<>();
      if (values != null) {
        for (Object value : (Collection<?>) values) {
          sorted.add(String.valueOf(value));
        }
      }
      return sorted;
    } catch (NoSuchFieldException | IllegalAccessException e) {
      throw new IllegalStateException("Cannot read the valid values of " + property.key() + " (Hudi's ConfigProperty "
          + "has no field 'validValues' any more: update ConfigTable)", e);
    }
  }

  /** A value in a table cell, as code. */
  private static String code(String value) {
    return "`" + value.replace("|", "\\|") + "`";
  }
}
