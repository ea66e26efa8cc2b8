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

import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.checkpoint.MultiTableCheckpointManager;
import org.apache.hudi.utilities.config.HoodieFreshnessConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A Streamer pipeline as freshness sees it: a target table, its sources, the grammar of its checkpoint, its SLA and
 * where its history goes. Built from the Streamer's properties by {@link StreamerPipelineSpec}, for the commit callback
 * and the reporter alike.
 */
public final class PipelineSpec {

  /** Where history goes by default, under the target's base path: Hudi's auxiliary folder. */

  private final String name;
  private final String basePath;
  private final FreshnessPolicy policy;
  private final List<SourceSpec> sources;
  private final MultiTableCheckpointManager checkpoints;
  private final Duration kafkaPollTimeout;
  private final Duration kafkaMetadataTimeout;
  private final String historyPath;
  private final int historyMaxEntries;
  private final String pushgatewayAddress;
  private final String pushgatewayJob;
  private final PipelineLabels labels;
  private final String kafkaCluster;

  private PipelineSpec(Builder builder) {
    this.name = builder.name;
    this.basePath = builder.basePath;
    this.policy = builder.policy;
    this.sources = Collections.unmodifiableList(new ArrayList<>(builder.sources));
    this.checkpoints = builder.checkpoints;
    this.kafkaPollTimeout = builder.kafkaPollTimeout;
    this.kafkaMetadataTimeout = builder.kafkaMetadataTimeout;
    this.historyPath = builder.historyPath;
    this.historyMaxEntries = builder.historyMaxEntries;
    this.pushgatewayAddress = builder.pushgatewayAddress;
    this.pushgatewayJob = builder.pushgatewayJob;
    this.labels = builder.labels;
    this.kafkaCluster = builder.kafkaCluster;
  }

  public static Builder builder(String name, String basePath) {
    return new Builder(name, basePath);
  }

  /** The pipeline's name in metrics and history; by default the target table's name. */
  public String name() {
    return name;
  }

  public String basePath() {
    return basePath;
  }

  public FreshnessPolicy policy() {
    return policy;
  }

  /** The sources, in declaration order; a Kafka source is always the only source. */
  public List<SourceSpec> sources() {
    return sources;
  }

  /**
   * How the stored checkpoint of a pipeline of Hudi sources splits into their positions, including which source owns
   * a bare (legacy {@code HoodieIncrSource}) instant; empty for a Kafka source, whose position is the whole checkpoint.
   */
  public Option<MultiTableCheckpointManager> checkpoints() {
    return Option.ofNullable(checkpoints);
  }

  public Duration kafkaPollTimeout() {
    return kafkaPollTimeout;
  }

  /** Bound of each Kafka metadata request (partitions, offsets), so that an unreachable broker cannot hang a commit. */
  public Duration kafkaMetadataTimeout() {
    return kafkaMetadataTimeout;
  }

  /** The folder of the pipeline's freshness history; absent when history is off. */
  public Option<String> historyPath() {
    return Option.ofNullable(historyPath);
  }

  public int historyMaxEntries() {
    return historyMaxEntries;
  }

  /** The pushgateway ({@code host:port}) that receives the labelled metrics; absent when they are not pushed. */
  public Option<String> pushgatewayAddress() {
    return Option.ofNullable(pushgatewayAddress);
  }

  /** The pushgateway job the labelled metrics are pushed under. */
  public String pushgatewayJob() {
    return pushgatewayJob;
  }

  /** The extra labels of the pipeline's series; {@link PipelineLabels#NONE} unless the reporter's YAML sets some. */
  public PipelineLabels labels() {
    return labels;
  }

  /**
   * The name of a Kafka source's cluster in metrics (label {@code cluster}): the reporter YAML's {@code kafkaCluster}
   * block the pipeline names, else the source's {@code bootstrap.servers}; absent for Hudi sources.
   */
  public Option<String> kafkaCluster() {
    return Option.ofNullable(kafkaCluster);
  }

  @Override
  public String toString() {
    return "PipelineSpec{" + name + " at " + basePath + ", " + policy + ", sources=" + sources + "}";
  }

  /** Collects a pipeline's settings; {@link #build()} checks them together. */
  public static final class Builder {
    private final String name;
    private final String basePath;
    private final List<SourceSpec> sources = new ArrayList<>();
    private MultiTableCheckpointManager checkpoints;
    private FreshnessPolicy policy = FreshnessPolicy.of(HoodieFreshnessConfig.Mode.STREAMING.defaultSla(),
        FreshnessPolicy.DEFAULT_LAG_CAP);
    private Duration kafkaPollTimeout = Duration.ofMillis(HoodieFreshnessConfig.KAFKA_POLL_TIMEOUT_MS.defaultValue());
    private Duration kafkaMetadataTimeout = Duration.ofMillis(
        HoodieFreshnessConfig.KAFKA_METADATA_TIMEOUT_MS.defaultValue());
    private String historyPath;
    private int historyMaxEntries = HoodieFreshnessConfig.HISTORY_MAX_ENTRIES.defaultValue();
    private String pushgatewayAddress;
    private String pushgatewayJob = HoodieFreshnessConfig.PUSHGATEWAY_JOB.defaultValue();
    private PipelineLabels labels = PipelineLabels.NONE;
    private String kafkaCluster;

    private Builder(String name, String basePath) {
      this.name = requireText(name, "name");
      this.basePath = stripTrailingSlash(requireText(basePath, "base path"));
      this.historyPath = this.basePath + "/" + HoodieFreshnessConfig.DEFAULT_HISTORY_FOLDER;
    }

    public Builder policy(FreshnessPolicy value) {
      this.policy = Objects.requireNonNull(value, "policy");
      return this;
    }

    public Builder source(SourceSpec source) {
      sources.add(Objects.requireNonNull(source, "source"));
      return this;
    }

    /**
     * The checkpoint grammar of the Hudi sources: their names and the one that owns a bare instant. Needed when there
     * is more than one Hudi source; one Hudi source alone owns a bare instant.
     */
    public Builder checkpoints(MultiTableCheckpointManager value) {
      this.checkpoints = Objects.requireNonNull(value, "checkpoints");
      return this;
    }

    public Builder kafkaPollTimeout(Duration value) {
      this.kafkaPollTimeout = FreshnessPolicy.requirePositive(value, "use a Kafka poll timeout of " + value
          + " in pipeline '" + name + "'");
      return this;
    }

    public Builder kafkaMetadataTimeout(Duration value) {
      this.kafkaMetadataTimeout = FreshnessPolicy.requirePositive(value, "use a Kafka metadata timeout of " + value
          + " in pipeline '" + name + "'");
      return this;
    }

    /** The history folder; null turns history off. */
    public Builder historyPath(String value) {
      this.historyPath = value == null || value.trim().isEmpty() ? null : stripTrailingSlash(value.trim());
      return this;
    }

    public Builder historyMaxEntries(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("Cannot keep " + value + " history entries of pipeline '" + name
            + "': keep at least 1 (or turn history off)");
      }
      this.historyMaxEntries = value;
      return this;
    }

    /** The pushgateway ({@code host:port}) for the labelled metrics; null pushes none. */
    public Builder pushgatewayAddress(String value) {
      this.pushgatewayAddress = value == null || value.trim().isEmpty() ? null : value.trim();
      return this;
    }

    public Builder pushgatewayJob(String value) {
      this.pushgatewayJob = requireText(value, "pushgateway job");
      return this;
    }

    public Builder labels(PipelineLabels value) {
      this.labels = Objects.requireNonNull(value, "labels");
      return this;
    }

    /** Adds labels to those set; a value given here replaces the one set for the same name. */
    public Builder addLabels(PipelineLabels value) {
      this.labels = labels.plus(Objects.requireNonNull(value, "labels"));
      return this;
    }

    /** The name of the Kafka source's cluster in metrics; by default its {@code bootstrap.servers}. */
    public Builder kafkaCluster(String value) {
      this.kafkaCluster = requireText(value, "Kafka cluster name");
      return this;
    }

    /**
     * @throws IllegalArgumentException if there is no source, two sources share a name, a Kafka source is not the
     *     only source (a Streamer target stores one Kafka checkpoint, which cannot hold other sources' positions), or
     *     several Hudi sources come without a checkpoint grammar naming the one that owns a bare instant
     */
    public PipelineSpec build() {
      if (sources.isEmpty()) {
        throw new IllegalArgumentException("Cannot measure the freshness of pipeline '" + name + "': it lists no "
            + "source (list the Hudi tables or the Kafka source it reads)");
      }
      Set<String> names = new HashSet<>();
      for (SourceSpec source : sources) {
        if (!names.add(source.name())) {
          throw new IllegalArgumentException("Cannot tell the sources of pipeline '" + name + "' apart: '"
              + source.name() + "' is listed twice (give each source its name in the checkpoint)");
        }
        if (source.kind() == SourceKind.KAFKA && sources.size() > 1) {
          throw new IllegalArgumentException("Cannot measure Kafka source '" + source.name() + "' of pipeline '"
              + name + "' next to other sources: a Kafka checkpoint holds one topic only (list it alone)");
        }
      }
      if (sources.get(0).kind() == SourceKind.KAFKA) {
        checkpoints = null;
        if (kafkaCluster == null) {
          kafkaCluster = sources.get(0).kafkaProperties().get("bootstrap.servers");
        }
      } else {
        kafkaCluster = null;
        if (checkpoints == null) {
          if (sources.size() > 1) {
            throw new IllegalArgumentException("Cannot tell which source of pipeline '" + name + "' owns a bare "
                + "checkpoint: it has " + sources.size() + " Hudi sources and no legacy source (name it, as "
                + "hoodie.streamer.source.multi.hudi.checkpoint.legacy.table does)");
          }
          String only = sources.get(0).name();
          checkpoints = new MultiTableCheckpointManager(Collections.singletonList(only), only, true, false);
        }
      }
      return new PipelineSpec(this);
    }

    private static String requireText(String value, String what) {
      if (value == null || value.trim().isEmpty()) {
        throw new IllegalArgumentException("Cannot define a freshness pipeline without a " + what);
      }
      return value.trim();
    }

    private static String stripTrailingSlash(String path) {
      return path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    }
  }
}
