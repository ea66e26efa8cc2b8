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

import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.utilities.sources.HoodieIncrMultiSource;
import org.apache.hudi.utilities.streamer.HoodieStreamer;
import org.apache.hudi.utilities.streamer.PostWriteTerminationStrategy;
import org.apache.hudi.utilities.transform.MultiDatasetSqlFileTransformer;

import org.apache.spark.api.java.JavaRDD;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * A multi-table Streamer job as users write it: a properties file, a SQL file and the HoodieStreamer command line.
 * The same arguments run in-process or through SparkSubmit.
 */
public final class StreamerJob {

  private final Path dir;
  private final String targetPath;
  private final Map<String, String> properties = new LinkedHashMap<>();
  private final List<String> transformers = new ArrayList<>();
  private String sql;
  private String checkpoint;
  private String sourceClass = HoodieIncrMultiSource.class.getName();
  private String targetTable = "joined";
  private String tableType = "COPY_ON_WRITE";
  private String orderingField = "ts";
  private String payloadClass;

  public StreamerJob(Path dir, String targetPath) {
    this.dir = dir;
    this.targetPath = targetPath;
    properties.put("hoodie.datasource.write.recordkey.field", "order_id");
    properties.put("hoodie.datasource.write.precombine.field", "ts");
    properties.put("hoodie.datasource.write.partitionpath.field", "");
    properties.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.NonpartitionedKeyGenerator");
    properties.put("hoodie.upsert.shuffle.parallelism", "2");
    properties.put("hoodie.insert.shuffle.parallelism", "2");
  }

  /**
   * The job of most tests: {@code orders} and {@code users} read from the start, through the multi-dataset SQL file
   * transformer, into a target keyed on order_id.
   */
  public static StreamerJob ordersAndUsers(Path dir, String ordersPath, String usersPath, String targetPath) {
    return new StreamerJob(dir, targetPath)
        .property("hoodie.streamer.source.multi.hudi.tables", "orders,users")
        .property("hoodie.streamer.source.hudi.orders.path", ordersPath)
        .property("hoodie.streamer.source.hudi.users.path", usersPath)
        .property("hoodie.streamer.source.hudi.orders.missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT")
        .property("hoodie.streamer.source.hudi.users.missing.checkpoint.strategy", "READ_UPTO_LATEST_COMMIT")
        .transformers(MultiDatasetSqlFileTransformer.class.getName());
  }

  public StreamerJob property(String key, String value) {
    properties.put(key, value);
    return this;
  }

  public StreamerJob withoutProperty(String key) {
    properties.remove(key);
    return this;
  }

  public StreamerJob sql(String sqlText) {
    this.sql = sqlText;
    return this;
  }

  public StreamerJob transformers(String... classNames) {
    transformers.clear();
    transformers.addAll(Arrays.asList(classNames));
    return this;
  }

  /** The {@code --source-class}; by default {@link HoodieIncrMultiSource}. */
  public StreamerJob sourceClass(String className) {
    this.sourceClass = className;
    return this;
  }

  /** The {@code --target-table}; by default {@code joined}. */
  public StreamerJob targetTable(String name) {
    this.targetTable = name;
    return this;
  }

  /** The {@code --table-type} of the target; by default COPY_ON_WRITE. */
  public StreamerJob tableType(String type) {
    this.tableType = type;
    return this;
  }

  /** The {@code --source-ordering-field}, also the target's precombine field; by default ts. */
  public StreamerJob orderingField(String column) {
    this.orderingField = column;
    return property("hoodie.datasource.write.precombine.field", column);
  }

  /** The {@code --payload-class} of the next runs; by default the Streamer's. */
  public StreamerJob payloadClass(String className) {
    this.payloadClass = className;
    return this;
  }

  /** The {@code --checkpoint} override of the next runs. */
  public StreamerJob checkpoint(String value) {
    this.checkpoint = value;
    return this;
  }

  /** The properties file that {@link #arguments()} writes and names (for tools that run beside the job). */
  public Path propertiesFile() {
    return dir.resolve("job.properties");
  }

  /** The HoodieStreamer arguments, after writing the properties and SQL files they name. */
  public String[] arguments() {
    Path propsFile = propertiesFile();
    Map<String, String> all = new LinkedHashMap<>(properties);
    if (sql != null) {
      Path sqlFile = dir.resolve("transform.sql");
      write(sqlFile, sql);
      all.put("hoodie.streamer.transformer.sql.file", sqlFile.toUri().toString());
    }
    write(propsFile, all.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining("\n", "", "\n")));
    List<String> args = new ArrayList<>(Arrays.asList(
        "--props", propsFile.toUri().toString(),
        "--target-base-path", targetPath,
        "--target-table", targetTable,
        "--table-type", tableType,
        "--op", "UPSERT",
        "--source-ordering-field", orderingField,
        "--source-class", sourceClass));
    if (!transformers.isEmpty()) {
      args.add("--transformer-class");
      args.add(String.join(",", transformers));
    }
    if (payloadClass != null) {
      args.add("--payload-class");
      args.add(payloadClass);
    }
    if (checkpoint != null) {
      args.add("--checkpoint");
      args.add(checkpoint);
    }
    return args.toArray(new String[0]);
  }

  /** One sync round in this JVM, on the shared Spark session. */
  public void syncInProcess() throws Exception {
    new HoodieStreamer(HoodieStreamer.getConfig(arguments()), SharedSpark.jsc()).sync();
  }

  /**
   * Starts the job in continuous mode ({@code --continuous --min-sync-interval-seconds}) in this JVM, on the shared
   * Spark session, in a thread of its own; stop it with {@link ContinuousRun#stopGracefully}.
   *
   * @param afterEachRound run in the Streamer's thread after each round, committed or not (through
   *                       {@code --post-write-termination-strategy-class}, which never asks for a stop here)
   */
  public ContinuousRun startContinuous(int minSyncIntervalSeconds, Runnable afterEachRound) throws Exception {
    String id = UUID.randomUUID().toString();
    property(AfterEachRound.RUN_ID, id);
    List<String> args = new ArrayList<>(Arrays.asList(arguments()));
    args.addAll(Arrays.asList("--continuous", "--min-sync-interval-seconds", String.valueOf(minSyncIntervalSeconds),
        "--post-write-termination-strategy-class", AfterEachRound.class.getName()));
    ContinuousRun run = new ContinuousRun(afterEachRound);
    ContinuousRun.RUNNING.put(id, run);
    run.start(new HoodieStreamer(HoodieStreamer.getConfig(args.toArray(new String[0])), SharedSpark.jsc()));
    return run;
  }

  /** A Streamer running rounds in its own thread until stopped, or until a round fails. */
  public static final class ContinuousRun {

    private static final Map<String, ContinuousRun> RUNNING = new ConcurrentHashMap<>();

    private final Runnable afterEachRound;
    private final AtomicInteger rounds = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private HoodieStreamer streamer;
    private Thread thread;

    private ContinuousRun(Runnable afterEachRound) {
      this.afterEachRound = afterEachRound;
    }

    private void start(HoodieStreamer streamer) {
      this.streamer = streamer;
      this.thread = new Thread(() -> {
        try {
          streamer.sync();
        } catch (Throwable e) {
          failure.set(e);
        }
      }, "continuous-streamer");
      thread.start();
    }

    /** Whether the Streamer's thread still runs. */
    public boolean isRunning() {
      return thread.isAlive();
    }

    /** What ended the Streamer's thread, if a round failed; null otherwise. */
    public Throwable failure() {
      return failure.get();
    }

    /** The rounds that ended so far, those that committed nothing included. */
    public int rounds() {
      return rounds.get();
    }

    /**
     * Stops as an operator does ({@link HoodieStreamer#shutdownGracefully}: the round running finishes, no new one
     * starts, the async table services finish theirs) and waits for the Streamer's thread to end.
     *
     * @return whether the thread ended within the timeout
     */
    public boolean stopGracefully(Duration timeout) throws InterruptedException {
      streamer.shutdownGracefully();
      thread.join(timeout.toMillis());
      RUNNING.values().remove(this);
      return !thread.isAlive();
    }
  }

  /** Counts the rounds of a {@link ContinuousRun} and runs its hook; never asks the Streamer to stop. */
  public static final class AfterEachRound implements PostWriteTerminationStrategy {

    static final String RUN_ID = "hoodie.test.continuous.run.id";

    private final ContinuousRun run;

    /** Called by the Streamer with its properties. */
    public AfterEachRound(TypedProperties props) {
      this.run = ContinuousRun.RUNNING.get(props.getString(RUN_ID));
    }

    @Override
    public boolean shouldShutdown(Option<JavaRDD<WriteStatus>> writeStatuses) {
      run.rounds.incrementAndGet();
      run.afterEachRound.run();
      return false;
    }
  }

  private static void write(Path file, String content) {
    try {
      Files.write(file, content.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
