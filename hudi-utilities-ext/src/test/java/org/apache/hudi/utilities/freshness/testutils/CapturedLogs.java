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
 * never appears in logs.
 */
public final class CapturedLogs implements AutoCloseable {

  private static final String NAME = "freshness-test-capture";

  private final StringWriter text = new StringWriter();
  private final Level previousRootLevel;

  public CapturedLogs() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    WriterAppender appender = WriterAppender.newBuilder().setName(NAME).setTarget(text)
        .setLayout(PatternLayout.newBuilder().withPattern("%p %c - %m%n%throwable").build()).build();
    appender.start();
    LoggerConfig root = config.getRootLogger();
    previousRootLevel = root.getLevel();
    root.setLevel(Level.INFO);
    config.getLoggers().values().forEach(logger -> logger.addAppender(appender, Level.INFO, null));
    root.addAppender(appender, Level.INFO, null);
    context.updateLoggers();
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
    config.getRootLogger().setLevel(previousRootLevel);
    context.updateLoggers();
  }
}
