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

import org.apache.hudi.utilities.config.HoodieFreshnessConfig;

import java.time.Duration;

import static org.apache.hudi.common.util.ValidationUtils.checkArgument;

/**
 * The SLA that lag is compared with, and the cap that keeps idle pipelines' lag finite.
 */
public final class FreshnessPolicy {

  /** Lag beyond this is reported as this: an idle pipeline is "very late", not "years late" on a dashboard. */
  public static final Duration DEFAULT_LAG_CAP = Duration.ofMinutes(HoodieFreshnessConfig.LAG_CAP_MINUTES.defaultValue());

  private final Duration sla;
  private final Duration lagCap;
  private final Duration statusWindow;

  private FreshnessPolicy(Duration sla, Duration lagCap, Duration statusWindow) {
    this.sla = sla;
    this.lagCap = lagCap;
    this.statusWindow = statusWindow;
  }

  /**
   * The policy whose status window is the SLA.
   *
   * @param sla    the lag at which the pipeline breaks its promise; positive
   * @param lagCap the largest lag reported; positive
   * @throws IllegalArgumentException if either is zero or negative
   */
  public static FreshnessPolicy of(Duration sla, Duration lagCap) {
    return of(sla, lagCap, sla);
  }

  /**
   * @param statusWindow the window {@link StatusRules} rates a source over; positive
   * @throws IllegalArgumentException if any is zero or negative
   */
  public static FreshnessPolicy of(Duration sla, Duration lagCap, Duration statusWindow) {
    requirePositive(sla, "use a SLA of " + sla);
    requirePositive(lagCap, "use a lag cap of " + lagCap);
    requirePositive(statusWindow, "use a status window of " + statusWindow);
    return new FreshnessPolicy(sla, lagCap, statusWindow);
  }

  public Duration sla() {
    return sla;
  }

  public Duration lagCap() {
    return lagCap;
  }

  /** The window of {@link StatusRules}; the SLA unless set. */
  public Duration statusWindow() {
    return statusWindow;
  }

  /** {@code lag / sla}, clamped to 0.0 - 1.0 so that dashboards can warn at 0.7 and page at 1.0. */
  public double slaRatio(Duration lag) {
    double ratio = (double) lag.toMillis() / sla.toMillis();
    return Math.max(0.0, Math.min(1.0, ratio));
  }

  /**
   * The one check of the freshness durations (SLA, windows, timeouts).
   *
   * @param cannot what cannot be done with it, as in "Cannot rate a source over a window of PT0S"
   * @return the duration
   * @throws IllegalArgumentException "Cannot {@code cannot}: it must be positive" if it is null, zero or negative
   */
  static Duration requirePositive(Duration value, String cannot) {
    checkArgument(value != null && !value.isZero() && !value.isNegative(), () -> "Cannot " + cannot
        + ": it must be positive");
    return value;
  }

  @Override
  public String toString() {
    return "FreshnessPolicy{sla=" + sla + ", lagCap=" + lagCap + ", statusWindow=" + statusWindow + "}";
  }
}
