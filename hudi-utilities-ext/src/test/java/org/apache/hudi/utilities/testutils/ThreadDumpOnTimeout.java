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

import org.apache.hudi.common.util.Option;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Logs a dump of every thread when a test or lifecycle method is about to reach its JUnit timeout
 * ({@code junit.jupiter.execution.timeout.default} in {@code junit-platform.properties}, or a {@link Timeout}), so that
 * the log of a hang says where it hung. JUnit 5.10 only interrupts the method and reports the timeout; by then the
 * threads have unwound. Registered for every test class through {@code META-INF/services} (extension autodetection).
 */
public final class ThreadDumpOnTimeout implements InvocationInterceptor {

  private static final Logger LOG = LoggerFactory.getLogger(ThreadDumpOnTimeout.class);
  private static final String DEFAULT_TIMEOUT = "junit.jupiter.execution.timeout.default";
  /** JUnit's duration syntax for timeouts, but μs: a number, then optionally a unit (seconds without one). */
  private static final Pattern DURATION = Pattern.compile("([1-9]\\d*) ?(ns|ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);
  /** The dump is taken this long before JUnit interrupts the method, while the threads still stand where they hung. */
  private static final Duration AHEAD = Duration.ofSeconds(5);

  private static final ScheduledThreadPoolExecutor WATCHDOG = new ScheduledThreadPoolExecutor(1, runnable -> {
    Thread thread = new Thread(runnable, "thread-dump-on-timeout");
    thread.setDaemon(true);
    return thread;
  });

  static {
    // A method that ends in time cancels its dump: forget it then, not 15 minutes later.
    WATCHDOG.setRemoveOnCancelPolicy(true);
  }

  @Override
  public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                  ExtensionContext context) throws Throwable {
    watch(invocation, call, context);
  }

  @Override
  public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                          ExtensionContext context) throws Throwable {
    watch(invocation, call, context);
  }

  @Override
  public <T> T interceptTestFactoryMethod(Invocation<T> invocation, ReflectiveInvocationContext<Method> call,
                                          ExtensionContext context) throws Throwable {
    return watch(invocation, call, context);
  }

  @Override
  public void interceptBeforeAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                       ExtensionContext context) throws Throwable {
    watch(invocation, call, context);
  }

  @Override
  public void interceptBeforeEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                        ExtensionContext context) throws Throwable {
    watch(invocation, call, context);
  }

  @Override
  public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                       ExtensionContext context) throws Throwable {
    watch(invocation, call, context);
  }

  @Override
  public void interceptAfterAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                      ExtensionContext context) throws Throwable {
    watch(invocation, call, context);
  }

  private static <T> T watch(Invocation<T> invocation, ReflectiveInvocationContext<Method> call,
                             ExtensionContext context) throws Throwable {
    Option<Duration> timeout = timeoutOf(call.getExecutable(), context);
    if (!timeout.isPresent()) {
      return invocation.proceed();
    }
    String method = call.getTargetClass().getName() + "." + call.getExecutable().getName();
    long delay = Math.max(0, timeout.get().minus(AHEAD).toMillis());
    ScheduledFuture<?> dump = WATCHDOG.schedule(() -> LOG.error("{} is about to reach its timeout of {}; all threads:\n{}",
        method, timeout.get(), allThreads()), delay, TimeUnit.MILLISECONDS);
    try {
      return invocation.proceed();
    } finally {
      dump.cancel(false);
    }
  }

  /** The timeout JUnit applies: the method's {@link Timeout}, else its class's, else the configured default. */
  private static Option<Duration> timeoutOf(Method method, ExtensionContext context) {
    Timeout annotated = AnnotationSupport.findAnnotation(method, Timeout.class)
        .or(() -> context.getTestClass().flatMap(type -> AnnotationSupport.findAnnotation(type, Timeout.class)))
        .orElse(null);
    if (annotated != null) {
      return Option.of(Duration.ofNanos(annotated.unit().toNanos(annotated.value())));
    }
    return Option.ofNullable(context.getConfigurationParameter(DEFAULT_TIMEOUT).map(ThreadDumpOnTimeout::parse)
        .orElse(null));
  }

  private static Duration parse(String value) {
    Matcher matcher = DURATION.matcher(value.trim());
    if (!matcher.matches()) {
      throw new IllegalArgumentException("Cannot read " + DEFAULT_TIMEOUT + "='" + value + "': not a JUnit duration "
          + "(write e.g. '15 m')");
    }
    long amount = Long.parseLong(matcher.group(1));
    String unit = matcher.group(2) == null ? "s" : matcher.group(2).toLowerCase(Locale.ROOT);
    switch (unit) {
      case "ns":
        return Duration.ofNanos(amount);
      case "ms":
        return Duration.ofMillis(amount);
      case "m":
        return Duration.ofMinutes(amount);
      case "h":
        return Duration.ofHours(amount);
      case "d":
        return Duration.ofDays(amount);
      default:
        return Duration.ofSeconds(amount);
    }
  }

  /** Every thread with its whole stack (ThreadInfo.toString() stops at 8 frames) and the locks it holds or awaits. */
  private static String allThreads() {
    StringBuilder dump = new StringBuilder();
    for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
      dump.append('"').append(thread.getThreadName()).append("\" #").append(thread.getThreadId())
          .append(thread.isDaemon() ? " daemon " : " ").append(thread.getThreadState());
      if (thread.getLockName() != null) {
        dump.append(" on ").append(thread.getLockName());
      }
      if (thread.getLockOwnerName() != null) {
        dump.append(" owned by \"").append(thread.getLockOwnerName()).append('"');
      }
      dump.append('\n');
      StackTraceElement[] stack = thread.getStackTrace();
      for (int i = 0; i < stack.length; i++) {
        dump.append("\tat ").append(stack[i]).append('\n');
        for (MonitorInfo monitor : thread.getLockedMonitors()) {
          if (monitor.getLockedStackDepth() == i) {
            dump.append("\t- locked ").append(monitor).append('\n');
          }
        }
      }
      for (LockInfo lock : thread.getLockedSynchronizers()) {
        dump.append("\t- holds ").append(lock).append('\n');
      }
      dump.append('\n');
    }
    return dump.toString();
  }
}
