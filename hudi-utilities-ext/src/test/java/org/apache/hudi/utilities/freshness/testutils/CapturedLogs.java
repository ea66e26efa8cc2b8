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

package org.apache.hudi.utilities.freshness.testutils;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

import java.io.StringWriter;

/**
 * Everything logged at INFO and above, by any logger (Kafka's and Hudi's included), while it is open: proves what
 * never appears in logs. Or, for tests that look for lines of their own, only what the loggers under one name log
 * ({@link #CapturedLogs(String)}).
 */
public final class CapturedLogs implements AutoCloseable {

  private static final String NAME = "freshness-test-capture";

  private final StringWriter text = new StringWriter();
  /** The logger whose level this capture raised to INFO, and its level before. */
  private final LoggerConfig raised;
  private final Level previousLevel;
  /** Whether this capture added {@link #raised} to the configuration (removed again on close). */
  private final boolean added;

  public CapturedLogs() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    WriterAppender appender = newAppender();
    raised = config.getRootLogger();
    previousLevel = raised.getLevel();
    added = false;
    raised.setLevel(Level.INFO);
    config.getLoggers().values().forEach(logger -> logger.addAppender(appender, Level.INFO, null));
    raised.addAppender(appender, Level.INFO, null);
    context.updateLoggers();
  }

  /**
   * Only what the loggers under {@code loggerName} (e.g. a package) log at INFO and above while it is open; every other
   * logger keeps its level, so that the libraries' INFO logs are neither written nor paid for.
   */
  public CapturedLogs(String loggerName) {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    WriterAppender appender = newAppender();
    LoggerConfig configured = config.getLoggerConfig(loggerName);
    added = !configured.getName().equals(loggerName);
    raised = added ? new LoggerConfig(loggerName, Level.INFO, true) : configured;
    previousLevel = raised.getLevel();
    if (added) {
      config.addLogger(loggerName, raised);
    }
    raised.setLevel(Level.INFO);
    // Loggers configured below it pass their events up to it (additivity); those that do not, get the appender too.
    config.getLoggers().values().stream()
        .filter(logger -> logger.getName().startsWith(loggerName + ".") && !logger.isAdditive())
        .forEach(logger -> logger.addAppender(appender, Level.INFO, null));
    raised.addAppender(appender, Level.INFO, null);
    context.updateLoggers();
  }

  private WriterAppender newAppender() {
    WriterAppender appender = WriterAppender.newBuilder().setName(NAME).setTarget(text)
        .setLayout(PatternLayout.newBuilder().withPattern("%p %c - %m%n%throwable").build()).build();
    appender.start();
    return appender;
  }

  public String text() {
    return text.toString();
  }

  @Override
  public void close() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    config.getLoggers().values().forEach(logger -> logger.removeAppender(NAME));
    config.getRootLogger().removeAppender(NAME);
    raised.setLevel(previousLevel);
    if (added) {
      config.removeLogger(raised.getName());
    }
    context.updateLoggers();
  }
}
