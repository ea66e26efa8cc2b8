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

import org.apache.hudi.utilities.benchmarks.FleetPipeline.Fault;
import org.apache.hudi.utilities.freshness.PipelineSpec;
import org.apache.hudi.utilities.reporter.FreshnessReporter;
import org.apache.hudi.utilities.reporter.PipelineOutcome;
import org.apache.hudi.utilities.reporter.RoundReport;
import org.apache.hudi.utilities.testutils.LocalProcesses;
import org.apache.hudi.utilities.testutils.S3ProxyServer;

import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.admin.Admin;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The freshness reporter over a fleet (issue 55): Kafka-fed pipelines whose targets' timelines and history are on S3
 * (S3Proxy in its own JVM, behind a {@link DelayingProxy} adding 30 ms, then 100 ms, to every request), their topics on
 * a KRaft broker in its own JVM with {@code auto.create.topics.enable=true}, 1% of each fault ({@link FleetLayout}).
 * Today's reporter, emulated with the current code (one worker, a new reporter every round: cold Hudi tables, new Kafka
 * clients, the history read back from storage), on a sample of healthy pipelines, extrapolated to the fleet; the
 * reporter as configured (a pool of workers, a deadline per pipeline, clients and tables kept) on the whole fleet. Both
 * held against the truth: every record's CreateTime is known.
 *
 * <p>Arguments: {@code [--pipelines N] [--today-sample K] [--workers W] [--deadline-seconds D] [--latencies 30,100]},
 * default 1000, 20, the reporter's default, 10, 30 and 100.
 */
final class FreshnessFleetBenchmark implements Benchmark {

  private static final String ACCESS_KEY = "fleet-access";
  private static final String SECRET_KEY = "fleet-secret";
  private static final int MAX_COMMIT_DEPTH = 100;
  private static final int FAULT_BASELINE_PIPELINES = 100;
  private static final double HEAP_GOAL_MIB = 384;
  private static final double SPEED_UP_GOAL = 50;
  private static final long TABLE_REQUESTS_GOAL = 2;
  private static final long CONNECTIONS_GOAL = 2;
  private static final long LAG_ERROR_GOAL_MILLIS = 1000;

  private Configuration conf;
  private KafkaBrokerProcess kafka;
  private S3RequestsByTable requests;
  private Map<String, FleetPipeline> byName;
  private final List<String> goals = new ArrayList<>();

  @Override
  public String name() {
    return "freshness-fleet";
  }

  @Override
  public String description() {
    return "freshness reporter over a fleet of Kafka pipelines with targets on S3 (30 and 100 ms a request), 1% of "
        + "each fault, today's reporter (emulated) side by side: round time, S3 and Kafka requests, lag error, heap";
  }

  @Override
  public void run(List<String> args, PrintStream out) throws Exception {
    Map<String, String> options = options(args);
    int pipelines = Integer.parseInt(options.getOrDefault("--pipelines", "1000"));
    int sample = Integer.parseInt(options.getOrDefault("--today-sample", "20"));
    int workers = Integer.parseInt(options.getOrDefault("--workers",
        String.valueOf(FreshnessReporter.Settings.defaults().workers())));
    Duration deadline = Duration.ofSeconds(Long.parseLong(options.getOrDefault("--deadline-seconds", "10")));
    List<Long> latencies = List.of(options.getOrDefault("--latencies", "30,100").split(",")).stream()
        .map(Long::parseLong).collect(Collectors.toList());
    String loadBefore = loadAverage();
    try (WorkDirectory work = WorkDirectory.create("freshness-fleet");
         S3ProxyServer s3 = S3ProxyServer.start(work.resolve("s3proxy"), ACCESS_KEY, SECRET_KEY);
         DelayingProxy latency = DelayingProxy.start(URI.create(s3.endpoint()).getPort());
         HangingListener hanging = HangingListener.start();
         KafkaBrokerProcess broker = KafkaBrokerProcess.start(Files.createDirectories(work.resolve("kafka")), "768m")) {
      kafka = broker;
      s3.createBucket(FleetLayout.BUCKET);
      conf = new Configuration();
      s3.configure(conf);
      conf.set("fs.s3a.endpoint", latency.endpoint());
      conf.set("fs.s3a.bucket." + FleetLayout.HUNG_BUCKET + ".endpoint", hanging.endpoint());
      conf.set("fs.s3a.bucket.probe", "0");
      requests = new S3RequestsByTable(FleetLayout.BUCKET);
      latency.onRequest(requests);

      long setupStarted = System.nanoTime();
      List<FleetPipeline> fleet;
      double bareGetMillis;
      try (TargetTimelineWriter targets = TargetTimelineWriter.create(s3.s3aSettings(), work.resolve("template"))) {
        fleet = new FleetLayout(broker.bootstrapServers(), "127.0.0.1:" + LocalProcesses.freePort(),
            System.currentTimeMillis()).build(pipelines, targets);
        bareGetMillis = targets.medianGetMillis(FleetLayout.BUCKET, fleet.get(0).table() + "/.hoodie/hoodie.properties",
            50);
      }
      byName = fleet.stream().collect(Collectors.toMap(FleetPipeline::name, Function.identity()));
      out.printf(Locale.ROOT, "Fleet of %d pipelines made in %.0f s: %s; %d targets of %d commits on S3Proxy (own JVM); "
          + "KRaft broker in its own JVM (%s); workers %d, deadline %s a pipeline, --max-commit-depth %d%n", pipelines,
          (System.nanoTime() - setupStarted) / 1e9, composition(fleet), fleet.size() - count(fleet, Fault.HUNG_TARGET),
          FleetLayout.COMMITS, broker.bootstrapServers(), workers, deadline, MAX_COMMIT_DEPTH);
      out.printf(Locale.ROOT, "A bare S3Proxy GET (no added latency, SDK client, same machine): %.1f ms median of 50%n",
          bareGetMillis);

      List<FleetPipeline> healthy = fleet.stream().filter(p -> p.fault() == Fault.NONE && p.partitions() == 2)
          .collect(Collectors.toList());
      List<PipelineSpec> todaySample = specs(healthy.subList(0, Math.min(sample, healthy.size())));
      ResultTable table = new ResultTable("figure", "today's " + latencies.get(0) + " ms", "new " + latencies.get(0)
          + " ms", latencies.size() > 1 ? "today's " + latencies.get(1) + " ms" : "-", latencies.size() > 1 ? "new "
          + latencies.get(1) + " ms" : "-");
      List<Side> sides = new ArrayList<>();
      Map<Fault, Double> faultExtra = new EnumMap<>(Fault.class);
      long heapPeak = 0;
      long heapAfterCollection = 0;
      long heapLive = 0;
      for (int i = 0; i < latencies.size(); i++) {
        latency.delay(latencies.get(i));
        Side today = today(todaySample, deadline);
        Side now;
        try (HeapPeak heap = HeapPeak.start()) {
          now = current(fleet, workers, deadline, i == 0 ? healthy : null, faultExtra);
          heapPeak = Math.max(heapPeak, heap.peakMib());
          heapAfterCollection = Math.max(heapAfterCollection, heap.peakAfterCollectionMib());
        }
        System.gc();
        heapLive = Math.max(heapLive, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20);
        sides.add(today);
        sides.add(now);
        checkGoals(today, now, latencies.get(i), pipelines);
      }
      latency.delay(0);
      checkFaultGoal(faultExtra, deadline);
      rows(table, sides, fleet);
      table.row("peak heap, MiB: sampled; most after a collection; live after the rounds", "-", heapPeak + "; "
          + heapAfterCollection + "; " + heapLive, "-", "-");
      String loadAfter = loadAverage();
      long created = createdTopics(fleet);
      // The heap the reporter keeps, not what G1 lets pile up before collecting (which grows with -Xmx): both printed.
      goals.add(goal(heapAfterCollection <= HEAP_GOAL_MIB, "peak heap after a collection " + heapAfterCollection
          + " MiB <= " + (long) HEAP_GOAL_MIB + " MiB (-Xmx" + (Runtime.getRuntime().maxMemory() >> 20) + "m; "
          + "sampled, garbage included: " + heapPeak + " MiB)"));
      goals.add(goal(created == 0, "topics created on the auto-create broker by the reporters: " + created));

      out.println();
      out.printf(Locale.ROOT, "Rounds over %d pipelines; today's reporter measured on %d healthy pipelines and "
          + "extrapolated (x %d/%d), first round and a warm round (each a new reporter, 1 worker)%n", pipelines,
          todaySample.size(), pipelines, todaySample.size());
      out.print(table);
      out.println();
      out.printf(Locale.ROOT, "Each fault's extra time in a warm round at %d ms (%d healthy pipelines alone vs with "
          + "the fault's %d pipelines), and what the round made of it:%n", latencies.get(0),
          Math.min(FAULT_BASELINE_PIPELINES, healthy.size()), Math.max(1, pipelines / 100));
      ResultTable faults = new ResultTable("fault", "extra s", "outcome (new reporter, warm round)");
      Side firstNew = sides.get(1);
      for (Fault fault : Fault.values()) {
        if (fault != Fault.NONE) {
          faults.row(fault.description(), faultExtra.containsKey(fault) ? String.format(Locale.ROOT, "%+.1f",
              faultExtra.get(fault)) : "-",
              firstNew.warm.score.faultOutcomes().getOrDefault(fault, "-"));
        }
      }
      out.print(faults);
      out.println();
      for (int i = 1; i < sides.size(); i += 2) {
        Side side = sides.get(i);
        for (Round round : List.of(side.first, side.warmBefore, side.warm)) {
          out.println("New reporter at " + latencies.get(i / 2) + " ms, " + (round == side.first ? "first"
              : round == side.warm ? "last warm" : "first warm") + " round: worst lag " + round.score.worstLag()
              + "; healthy without a lag: "
              + round.score.unmeasured().size() + round.score.unmeasured().stream().limit(3)
              .map(line -> "\n    " + line).collect(Collectors.joining()));
        }
      }
      out.println();
      out.println("Goals (issue 55):");
      goals.forEach(line -> out.println("  " + line));
      out.printf(Locale.ROOT, "Machine: %d cores; load average before %s, after %s; hanging S3 listener accepted %d "
          + "connections%n", Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter,
          hanging.connectionsAccepted());
      s3.unconfigure(conf);
    }
  }

  /** A reporter's rounds at one latency. */
  private static final class Side {
    private final int pipelines;
    private Round first;
    private Round warm;
    private Round warmBefore;
    private long connections;
    private Round subset;

    Side(int pipelines) {
      this.pipelines = pipelines;
    }
  }

  /** One round and what it cost. */
  private static final class Round {
    private RoundReport report;
    private RoundScore score;
    private Map<String, Long> tableRequests;
    private Map<String, Long> historyRequests;
    private Map<String, Long> byKind;
    private long connections;
    private long kafkaRequests;
    private long listOffsets;
    private long metadata;
    private long fetches;
  }

  private Side today(List<PipelineSpec> sample, Duration deadline) {
    Side side = new Side(sample.size());
    for (int i = 0; i < 2; i++) {
      try (FreshnessReporter reporter = new FreshnessReporter(Clock.systemUTC(), conf, Map.of(), MAX_COMMIT_DEPTH,
          FreshnessReporter.Settings.defaults().workers(1).pipelineTimeout(deadline))) {
        Round round = round(reporter, sample);
        if (i == 0) {
          side.first = round;
        } else {
          side.warm = round;
        }
      }
    }
    side.connections = side.first.connections + side.warm.connections;
    return side;
  }

  private Side current(List<FleetPipeline> fleet, int workers, Duration deadline, List<FleetPipeline> healthy,
                       Map<Fault, Double> faultExtra) {
    Side side = new Side(fleet.size());
    long connectionsBefore = kafka.connectionsAccepted();
    try (FreshnessReporter reporter = new FreshnessReporter(Clock.systemUTC(), conf, Map.of(), MAX_COMMIT_DEPTH,
        FreshnessReporter.Settings.defaults().workers(workers).pipelineTimeout(deadline))) {
      List<PipelineSpec> specs = specs(fleet);
      side.first = round(reporter, specs);
      side.warmBefore = round(reporter, specs);
      side.warm = round(reporter, specs);
      if (healthy != null) {
        List<FleetPipeline> baseline = healthy.subList(0, Math.min(FAULT_BASELINE_PIPELINES, healthy.size()));
        side.subset = round(reporter, specs(baseline));
        for (Fault fault : Fault.values()) {
          if (fault == Fault.NONE) {
            continue;
          }
          List<FleetPipeline> withFault = new ArrayList<>(baseline);
          fleet.stream().filter(p -> p.fault() == fault).forEach(withFault::add);
          Round round = round(reporter, specs(withFault));
          faultExtra.put(fault, round.score.seconds() - side.subset.score.seconds());
        }
      }
    }
    side.connections = kafka.connectionsAccepted() - connectionsBefore;
    return side;
  }

  private Round round(FreshnessReporter reporter, List<PipelineSpec> specs) {
    Round round = new Round();
    requests.reset();
    long connections = kafka.connectionsAccepted();
    long kafkaRequests = kafka.clientRequests();
    long listOffsets = kafka.requestsServed("ListOffsets");
    long metadata = kafka.requestsServed("Metadata");
    long fetches = kafka.requestsServed("Fetch");
    round.report = reporter.runRound(specs);
    round.score = RoundScore.of(round.report, byName);
    round.tableRequests = requests.tableRequests();
    round.historyRequests = requests.historyRequests();
    round.byKind = requests.byKind();
    round.connections = kafka.connectionsAccepted() - connections;
    round.kafkaRequests = kafka.clientRequests() - kafkaRequests;
    round.listOffsets = kafka.requestsServed("ListOffsets") - listOffsets;
    round.metadata = kafka.requestsServed("Metadata") - metadata;
    round.fetches = kafka.requestsServed("Fetch") - fetches;
    return round;
  }

  private void rows(ResultTable table, List<Side> sides, List<FleetPipeline> fleet) {
    row(table, sides, "pipelines in the round", side -> String.valueOf(side.pipelines));
    row(table, sides, "first round, s", side -> seconds(side.first));
    row(table, sides, "warm round, s (the warm round before it)", side -> seconds(side.warm)
        + (side.warmBefore == null ? "" : " (" + seconds(side.warmBefore) + ")"));
    row(table, sides, "warm round per pipeline, ms", side -> String.format(Locale.ROOT, "%.1f",
        side.warm.score.seconds() * 1000 / side.pipelines));
    row(table, sides, "S3 requests per table, warm round (max / mean)", side -> perTable(side, fleet));
    row(table, sides, "S3 history requests per pipeline, warm round", side -> String.format(Locale.ROOT, "%.1f",
        side.warm.historyRequests.values().stream().mapToLong(Long::longValue).sum() / (double) side.pipelines));
    row(table, sides, "S3 requests by kind, warm round", side -> String.valueOf(side.warm.byKind));
    row(table, sides, "Kafka connections accepted (first / warm round; whole run)", side ->
        side.first.connections + " / " + side.warm.connections + "; " + side.connections);
    row(table, sides, "Kafka requests, warm round (ListOffsets, Metadata, Fetch)", side -> side.warm.kafkaRequests
        + " (" + side.warm.listOffsets + ", " + side.warm.metadata + ", " + side.warm.fetches + ")");
    row(table, sides, "warm round of 100 healthy pipelines alone, s", side -> side.subset == null ? "-"
        : seconds(side.subset));
    row(table, sides, "Kafka requests, 100-pipeline round (ListOffsets, Metadata, Fetch)", side ->
        side.subset == null ? "-" : side.subset.kafkaRequests + " (" + side.subset.listOffsets + ", "
            + side.subset.metadata + ", " + side.subset.fetches + ")");
    row(table, sides, "outcomes, warm round (measured/failed/timed out)", side -> outcomes(side.warm.report));
    row(table, sides, "healthy measured (first / warm)", side -> side.first.score.measuredOfHealthy() + " / "
        + side.warm.score.measuredOfHealthy());
    row(table, sides, "max lag error, ms (first / warm)", side -> side.first.score.maxLagErrorMillis() + " / "
        + side.warm.score.maxLagErrorMillis());
    row(table, sides, "wrong records-lost counts (first / warm)", side -> side.first.score.wrongRecordsLost()
        + " / " + side.warm.score.wrongRecordsLost());
    row(table, sides, "made-up values (first / warm)", side -> side.first.score.madeUp() + " / "
        + side.warm.score.madeUp());
  }

  private static void row(ResultTable table, List<Side> sides, String figure, Function<Side, String> cell) {
    Object[] cells = new Object[5];
    cells[0] = figure;
    for (int i = 0; i < 4; i++) {
      cells[i + 1] = i < sides.size() ? cell.apply(sides.get(i)) : "-";
    }
    table.row(cells);
  }

  private void checkGoals(Side today, Side now, long latencyMillis, int pipelines) {
    double warm = now.warm.score.seconds();
    double limit = latencyMillis <= 30 ? 20 : 60;
    goals.add(goal(warm <= limit, String.format(Locale.ROOT, "%d ms: warm round over %d pipelines %.1f s <= %.0f s",
        latencyMillis, pipelines, warm, limit)));
    double todayWarm = today.warm.score.seconds() * pipelines / today.pipelines;
    goals.add(goal(todayWarm / warm >= SPEED_UP_GOAL, String.format(Locale.ROOT, "%d ms: %.0fx faster than today's "
        + "warm round (%.0f s extrapolated from %d pipelines) >= %.0fx", latencyMillis, todayWarm / warm, todayWarm,
        today.pipelines, SPEED_UP_GOAL)));
    long maxTable = now.warm.tableRequests.values().stream().mapToLong(Long::longValue).max().orElse(0);
    goals.add(goal(maxTable <= TABLE_REQUESTS_GOAL, latencyMillis + " ms: S3 requests per unchanged table per warm "
        + "round, at most " + maxTable + " <= " + TABLE_REQUESTS_GOAL));
    long history = now.warm.historyRequests.values().stream().mapToLong(Long::longValue).sum();
    goals.add(goal(history == 0, latencyMillis + " ms: S3 requests for the history in a warm round: " + history
        + " (goal none)"));
    goals.add(goal(now.connections <= CONNECTIONS_GOAL, latencyMillis + " ms: Kafka connections to the broker over "
        + "the reporter's rounds: " + now.connections + " <= " + CONNECTIONS_GOAL));
    boolean allMeasured = now.first.score.allHealthyMeasured() && now.warmBefore.score.allHealthyMeasured()
        && now.warm.score.allHealthyMeasured();
    goals.add(goal(allMeasured, latencyMillis + " ms: every healthy pipeline measured every round: first "
        + now.first.score.measuredOfHealthy() + ", warm " + now.warmBefore.score.measuredOfHealthy() + ", "
        + now.warm.score.measuredOfHealthy()));
    long error = Math.max(now.first.score.maxLagErrorMillis(), now.warm.score.maxLagErrorMillis());
    goals.add(goal(error <= LAG_ERROR_GOAL_MILLIS, latencyMillis + " ms: max lag error " + error + " ms <= "
        + LAG_ERROR_GOAL_MILLIS + " ms"));
    int madeUp = now.first.score.madeUp() + now.warmBefore.score.madeUp() + now.warm.score.madeUp();
    goals.add(goal(madeUp == 0, latencyMillis + " ms: made-up values " + madeUp + " (goal 0)"));
  }

  private void checkFaultGoal(Map<Fault, Double> faultExtra, Duration deadline) {
    double worst = faultExtra.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    goals.add(goal(worst <= deadline.toMillis() / 1000.0, String.format(Locale.ROOT, "each fault's extra time in a "
        + "warm round, at most %.1f s <= one deadline (%d s)", worst, deadline.getSeconds())));
  }

  private static String goal(boolean met, String what) {
    return (met ? "met      " : "NOT met  ") + what;
  }

  private String perTable(Side side, List<FleetPipeline> fleet) {
    List<Long> counts = fleet.stream().filter(p -> p.fault() != Fault.HUNG_TARGET)
        .filter(p -> side.warm.report.outcomes().stream().anyMatch(o -> o.pipeline().equals(p.name())))
        .map(p -> side.warm.tableRequests.getOrDefault(p.table(), 0L)).collect(Collectors.toList());
    long max = counts.stream().mapToLong(Long::longValue).max().orElse(0);
    double mean = counts.stream().mapToLong(Long::longValue).average().orElse(0);
    return String.format(Locale.ROOT, "%d / %.2f", max, mean);
  }

  private static String seconds(Round round) {
    return String.format(Locale.ROOT, "%.1f", round.score.seconds());
  }

  private static String outcomes(RoundReport report) {
    return report.count(PipelineOutcome.Kind.MEASURED) + "/"
        + report.count(PipelineOutcome.Kind.FAILED) + "/"
        + report.count(PipelineOutcome.Kind.TIMED_OUT);
  }

  /** Topics that exist on the broker and that no pipeline's setup created: those a reporter's probe created. */
  private long createdTopics(List<FleetPipeline> fleet) throws Exception {
    try (Admin admin = kafka.admin()) {
      Set<String> topics = admin.listTopics().names().get(1, TimeUnit.MINUTES);
      return fleet.stream().filter(p -> p.fault() == Fault.DELETED_TOPIC)
          .filter(p -> topics.contains(p.spec().sources().get(0).name())).count();
    }
  }

  private static List<PipelineSpec> specs(List<FleetPipeline> pipelines) {
    return pipelines.stream().map(FleetPipeline::spec).collect(Collectors.toList());
  }

  private static long count(List<FleetPipeline> fleet, Fault fault) {
    return fleet.stream().filter(p -> p.fault() == fault).count();
  }

  private static String composition(List<FleetPipeline> fleet) {
    Map<String, Long> kinds = new LinkedHashMap<>();
    for (FleetPipeline pipeline : fleet) {
      String kind = pipeline.fault() == Fault.NONE ? pipeline.partitions() + "-partition topic"
          : pipeline.fault().description();
      kinds.merge(kind, 1L, Long::sum);
    }
    return kinds.entrySet().stream().map(kind -> kind.getValue() + " " + kind.getKey())
        .collect(Collectors.joining(", "));
  }

  private static Map<String, String> options(List<String> args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.size(); i += 2) {
      options.put(args.get(i), args.get(i + 1));
    }
    return options;
  }

  private static String loadAverage() {
    try {
      return Files.readString(Paths.get("/proc/loadavg")).trim() + " at " + Instant.now();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
