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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognizes connection properties that hold credentials (SASL/JAAS configs, passwords, keys, tokens), so that no log
 * line, metric or history entry ever shows their values, and resolves the references to credentials kept out of
 * configuration files ({@code ${env:NAME}}, {@code ${file:/path}}).
 */
public final class Secrets {

  static final String REDACTED = "[redacted]";

  /** Hudi's own filter (hoodie.sensitive.config.keys: ssl, tls, sasl, auth, credentials) and common secret words. */
  private static final String[] SECRET_KEY_PARTS = {
      "ssl", "tls", "sasl", "auth", "credential", "password", "jaas", "secret", "token"};

  /**
   * A reference to an environment variable or to a whole file. A {@code ${file:path:key}} (a colon after the path) is
   * Kafka's own FileConfigProvider syntax and is left for Kafka to resolve.
   */
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{(env|file):([^}:]+)}");

  private Secrets() {
  }

  /**
   * The value with every {@code ${env:NAME}} replaced by the environment variable and every {@code ${file:/path}} by
   * the file's content (UTF-8, trailing line breaks dropped); other text is kept as it is.
   *
   * @param where       the value's key and place, for messages (never the value: it may hold a credential)
   * @param environment the environment variables, {@code System::getenv} outside tests
   * @throws IllegalArgumentException naming the reference when the variable is not set or the file cannot be read
   */
  public static String resolve(String value, String where, Function<String, String> environment) {
    Matcher reference = REFERENCE.matcher(value);
    StringBuilder resolved = new StringBuilder();
    while (reference.find()) {
      String name = reference.group(2).trim();
      String replacement;
      if (reference.group(1).equals("env")) {
        replacement = environment.apply(name);
        if (replacement == null) {
          throw new IllegalArgumentException("Cannot read " + where + ": environment variable " + name + " is not "
              + "set (export it before starting the reporter, or write the value in place of ${env:" + name + "})");
        }
      } else {
        try {
          replacement = new String(Files.readAllBytes(Paths.get(name)), StandardCharsets.UTF_8)
              .replaceAll("[\\r\\n]+$", "");
        } catch (IOException e) {
          throw new IllegalArgumentException("Cannot read " + where + ": file " + name + " cannot be read (" + e
              + "; check the path and that the reporter's user may read it)", e);
        }
      }
      reference.appendReplacement(resolved, Matcher.quoteReplacement(replacement));
    }
    reference.appendTail(resolved);
    return resolved.toString();
  }

  /** Whether the value of this property key may be a credential. */
  public static boolean isSecret(String key) {
    String lower = key.toLowerCase(Locale.ROOT);
    for (String part : SECRET_KEY_PARTS) {
      if (lower.contains(part)) {
        return true;
      }
    }
    return false;
  }

  /** The properties in key order with credential values replaced, for messages. */
  public static String describe(Map<String, String> properties) {
    Map<String, String> shown = new TreeMap<>();
    properties.forEach((key, value) -> shown.put(key, isSecret(key) ? REDACTED : value));
    return shown.toString();
  }
}
