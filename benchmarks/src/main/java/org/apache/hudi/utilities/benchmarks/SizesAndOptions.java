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

package org.apache.hudi.utilities.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arguments of a benchmark that runs at several table sizes: bare numbers are the sizes, {@code key=value} pairs
 * the options (each over its default).
 */
final class SizesAndOptions {

  private final List<Integer> sizes;
  private final Map<String, String> options;

  private SizesAndOptions(List<Integer> sizes, Map<String, String> options) {
    this.sizes = Collections.unmodifiableList(sizes);
    this.options = Collections.unmodifiableMap(options);
  }

  /** {@code args} over {@code defaultSize} (when no size is given) and {@code defaults}. */
  static SizesAndOptions parse(List<String> args, int defaultSize, Map<String, String> defaults) {
    Map<String, String> options = new LinkedHashMap<>(defaults);
    List<Integer> sizes = new ArrayList<>();
    for (String arg : args) {
      if (arg.contains("=")) {
        options.put(arg.substring(0, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
      } else {
        sizes.add(Integer.parseInt(arg));
      }
    }
    if (sizes.isEmpty()) {
      sizes.add(defaultSize);
    }
    return new SizesAndOptions(sizes, options);
  }

  List<Integer> sizes() {
    return sizes;
  }

  String option(String key) {
    return options.get(key);
  }

  int intOption(String key) {
    return Integer.parseInt(options.get(key));
  }
}
