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

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Recognizes connection properties that hold credentials (SASL/JAAS configs, passwords, keys, tokens), so that no log
 * line, metric or history entry ever shows their values.
 */
public final class Secrets {

  static final String REDACTED = "[redacted]";

  /** Hudi's own filter (hoodie.sensitive.config.keys: ssl, tls, sasl, auth, credentials) and common secret words. */
  private static final String[] SECRET_KEY_PARTS = {
      "ssl", "tls", "sasl", "auth", "credential", "password", "jaas", "secret", "token"};

  private Secrets() {
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
