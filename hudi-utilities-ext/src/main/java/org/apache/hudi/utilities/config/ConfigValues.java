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

import org.apache.hudi.common.config.ConfigProperty;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * Reads one setting of this project from the Streamer's properties, under its key or one of its alternatives, with the
 * project's rules and messages: a key set under both its {@code hoodie.streamer.} and its {@code hoodie.deltastreamer.}
 * name to different values is a conflict; numbers and enum names are checked, and a message says what could not be
 * done, which key holds which value, and what to set instead.
 *
 * <p>Every parameter {@code cannot} completes "Cannot ..." in a message, e.g. {@code "read table 'orders'"}.
 */
public final class ConfigValues {

  private ConfigValues() {
  }

  /**
   * The raw value of a setting, trimmed; empty if it is set under none of its keys.
   *
   * @throws IllegalArgumentException if the setting has different values under its key and an alternative
   */
  public static Option<String> raw(TypedProperties props, ConfigProperty<?> property) {
    Object value = props.get(property.key());
    for (String alternative : property.getAlternatives()) {
      Object other = props.get(alternative);
      checkArgument(value == null || other == null || value.toString().trim().equals(other.toString().trim()),
          () -> String.format("Cannot decide between %s=%s and %s=%s: they name the same setting. Remove one of them.",
              property.key(), props.get(property.key()), alternative, other));
      value = value == null ? other : value;
    }
    return Option.ofNullable(value).map(raw -> raw.toString().trim());
  }

  /** The value of a setting, or its default; empty if neither. */
  public static Option<String> valueOrDefault(TypedProperties props, ConfigProperty<?> property) {
    return raw(props, property).or(() -> property.hasDefaultValue()
        ? Option.of(property.defaultValue().toString()) : Option.empty());
  }

  /**
   * A whole number of at least {@code minimum}.
   *
   * @throws IllegalArgumentException naming the key, its value and the smallest allowed value
   */
  public static long atLeast(TypedProperties props, ConfigProperty<?> property, long minimum, String cannot) {
    String value = valueOrDefault(props, property).orElseThrow(() -> new IllegalArgumentException(String.format(
        "Cannot %s: %s is not set (set it to a whole number of at least %d)", cannot, property.key(), minimum)));
    long parsed;
    try {
      parsed = Long.parseLong(value);
    } catch (NumberFormatException e) {
      parsed = Long.MIN_VALUE;
    }
    checkArgument(parsed >= minimum, String.format("Cannot %s: %s=%s is not a whole number of at least %d",
        cannot, property.key(), value, minimum));
    return parsed;
  }

  /** A positive whole number that fits an int: the form of counts such as num_instants or parallelism. */
  public static int positiveInt(TypedProperties props, ConfigProperty<?> property, String cannot) {
    long value = atLeast(props, property, 1, cannot);
    checkArgument(value <= Integer.MAX_VALUE, String.format("Cannot %s: %s=%d is larger than %d", cannot,
        property.key(), value, Integer.MAX_VALUE));
    return (int) value;
  }

  /**
   * One of an enum's constants, by name, ignoring case.
   *
   * @throws IllegalArgumentException naming the key, its value and the names allowed
   */
  public static <E extends Enum<E>> E enumValue(TypedProperties props, ConfigProperty<?> property, Class<E> type,
                                                String cannot) {
    String names = Arrays.toString(Arrays.stream(type.getEnumConstants()).map(Enum::name).toArray());
    String value = valueOrDefault(props, property).orElseThrow(() -> new IllegalArgumentException(String.format(
        "Cannot %s: %s is not set (set it to one of %s)", cannot, property.key(), names)));
    return Arrays.stream(type.getEnumConstants())
        .filter(constant -> constant.name().equals(value.toUpperCase(Locale.ROOT)))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(String.format("Cannot %s: %s=%s is not one of %s", cannot,
            property.key(), value, names)));
  }

  /** A number with a fraction, such as {@code 0.05}. */
  public static double doubleValue(TypedProperties props, ConfigProperty<?> property, String cannot) {
    String value = valueOrDefault(props, property).orElseThrow(() -> new IllegalArgumentException(String.format(
        "Cannot %s: %s is not set", cannot, property.key())));
    try {
      return Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(String.format("Cannot %s: %s=%s is not a number", cannot, property.key(),
          value));
    }
  }

  /** A boolean, {@code true} or {@code false} ignoring case. */
  public static boolean booleanValue(TypedProperties props, ConfigProperty<?> property, String cannot) {
    String value = valueOrDefault(props, property).orElse("false");
    checkArgument(value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false"), String.format(
        "Cannot %s: %s=%s is neither true nor false", cannot, property.key(), value));
    return Boolean.parseBoolean(value);
  }

  /** The settings a config class declares: its public static {@link ConfigProperty} fields, in declaration order. */
  public static List<ConfigProperty<?>> declared(Class<?> configClass) {
    List<ConfigProperty<?>> properties = new ArrayList<>();
    for (Field field : configClass.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && ConfigProperty.class.isAssignableFrom(field.getType())) {
        try {
          properties.add((ConfigProperty<?>) field.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException("Cannot list the settings of " + configClass.getName(), e);
        }
      }
    }
    return properties;
  }
}
