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

import org.apache.hudi.metrics.Metrics;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Releases every Hudi {@link Metrics} instance of this JVM, for a test class that configured Hudi's metrics reporters
 * (e.g. a pushgateway it then stops). Hudi 0.14 keeps one instance per base path in a static map for the JVM's life,
 * and shutting one down does not remove it: every Spark datasource write ({@code HoodieSparkSqlWriter.cleanup}) calls
 * {@link Metrics#shutdownAllMetrics()}, which reports every instance again, and each instance's shutdown hook reports
 * once more at exit. In a Surefire fork that runs later classes, they would push to a stopped server, or to another
 * class's server that got the same port.
 *
 * <p>Hudi 0.14 has no API to forget an instance: this stops them all ({@link Metrics#shutdownAllMetrics()}, a last
 * report while the test's servers still run), empties their reporter lists so that the shutdown hooks report nothing,
 * and clears the map so that a later writer of the same base path gets a new instance with its own reporters.
 */
public final class HudiMetricsRelease {

  private HudiMetricsRelease() {
  }

  /** @return how many instances were released */
  public static int releaseAll() throws ReflectiveOperationException {
    synchronized (Metrics.class) {
      Metrics.shutdownAllMetrics();
      Map<?, ?> instances = (Map<?, ?>) field(Metrics.class, "METRICS_INSTANCE_PER_BASEPATH").get(null);
      Field reporters = field(Metrics.class, "reporters");
      List<Object> released = new ArrayList<>(instances.values());
      for (Object metrics : released) {
        ((List<?>) reporters.get(metrics)).clear();
      }
      instances.clear();
      return released.size();
    }
  }

  private static Field field(Class<?> type, String name) throws NoSuchFieldException {
    Field field = type.getDeclaredField(name);
    field.setAccessible(true);
    return field;
  }
}
