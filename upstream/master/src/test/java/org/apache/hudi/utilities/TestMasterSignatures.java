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

package org.apache.hudi.utilities;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

/**
 * The series leaves the public and protected signatures of {@code InputBatch}, {@code Source} and
 * {@code SourceFormatAdapter} as apache/hudi master has them (what the #19299 thread settled). Compares the classes
 * compiled here (master's files as the patches so far leave them, compiled as signature-only stubs) with the same
 * files of upstream/master-base before any patch, which upstream/build-master.sh stages as stubs under
 * {@code master.base.signatures} and which this test compiles into a class loader of their own.
 */
class TestMasterSignatures {

  private static final List<String> KEPT = Arrays.asList(
      "org.apache.hudi.utilities.sources.InputBatch",
      "org.apache.hudi.utilities.sources.Source",
      "org.apache.hudi.utilities.streamer.SourceFormatAdapter");

  @TempDir
  static Path baseClasses;

  private static ClassLoader baseLoader;

  @ParameterizedTest
  @ValueSource(strings = {
      "org.apache.hudi.utilities.sources.InputBatch",
      "org.apache.hudi.utilities.sources.Source",
      "org.apache.hudi.utilities.streamer.SourceFormatAdapter"})
  void publicAndProtectedSignaturesAsOnMaster(String name) throws Exception {
    Class<?> base = Class.forName(name, false, baseLoader());
    Class<?> patched = Class.forName(name);
    assertNotSame(base, patched, "the base's class must come from its own class loader");
    assertEquals(String.join("\n", signatures(base)), String.join("\n", signatures(patched)),
        name + ": public or protected signatures differ from master's (upstream/master-base)");
  }

  /** The base's stubs, compiled against the test class path; their own classes loaded first, the rest shared. */
  private static synchronized ClassLoader baseLoader() throws Exception {
    if (baseLoader == null) {
      Path sources = Paths.get(System.getProperty("master.base.signatures"));
      List<String> arguments = new ArrayList<>(Arrays.asList("-d", baseClasses.toString(), "-nowarn",
          "-classpath", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))));
      try (Stream<Path> files = Files.list(sources)) {
        files.map(Path::toString).forEach(arguments::add);
      }
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      ByteArrayOutputStream errors = new ByteArrayOutputStream();
      int status = javac.run(null, null, errors, arguments.toArray(new String[0]));
      assertEquals(0, status, "the base's stubs do not compile: " + errors.toString(StandardCharsets.UTF_8.name()));
      baseLoader = new URLClassLoader(new URL[] {baseClasses.toUri().toURL()}, TestMasterSignatures.class.getClassLoader()) {
        @Override
        protected synchronized Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
          String outer = name.contains("$") ? name.substring(0, name.indexOf('$')) : name;
          if (!KEPT.contains(outer)) {
            return super.loadClass(name, resolve);
          }
          Class<?> loaded = findLoadedClass(name);
          return loaded != null ? loaded : findClass(name);
        }
      };
    }
    return baseLoader;
  }

  /** One line per public or protected declaration of the class and of its public or protected member classes. */
  private static List<String> signatures(Class<?> type) {
    List<String> lines = new ArrayList<>();
    lines.add(Modifier.toString(type.getModifiers()) + " " + type.getName()
        + Arrays.toString(type.getTypeParameters()) + " extends " + type.getGenericSuperclass()
        + " implements " + Arrays.stream(type.getGenericInterfaces()).map(Type::getTypeName).collect(Collectors.toList()));
    Stream.<Member[]>of(type.getDeclaredFields(), type.getDeclaredConstructors(), type.getDeclaredMethods())
        .flatMap(Arrays::stream)
        .filter(member -> visible(member.getModifiers()) && !member.isSynthetic())
        .map(member -> member instanceof Field ? ((Field) member).toGenericString() : ((Executable) member).toGenericString())
        .sorted()
        .forEach(lines::add);
    Arrays.stream(type.getDeclaredClasses())
        .filter(member -> visible(member.getModifiers()))
        .sorted((one, other) -> one.getName().compareTo(other.getName()))
        .forEach(member -> lines.addAll(signatures(member)));
    return lines;
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }
}
