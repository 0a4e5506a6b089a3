package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.io.decisions.ReleaseDecision;
import io.recrawl.flink.testutil.AttemptCollectingSink;
import io.recrawl.flink.testutil.ClosedLoopCrawler;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler in a MiniCluster on RocksDB with checkpoints, in a closed loop with a simulated
 * crawler through files: the crawler reads the job's crawl requests, writes statuses (fetch time,
 * changed or not, from pages changing at known Poisson rates) into the job's status directory, then
 * writes the next clock tick into its control directory. Checked on the job's output: every seed is
 * requested, no host ever gets more than its limit in any window, pages that change more often are
 * requested more often, and a restore from a checkpoint after an injected failure loses no URL.
 */
class HostSchedulerITCase {

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = TestClusters.miniCluster(TestClusters.rocksDb());

  private static final long T0 = 1_700_000_000_000L;
  private static final long MIN = 60_000L;
  private static final long STEP = 20 * MIN;
  private static final long DAYS = 2;
  private static final double HOST_RATE = 96; // crawls per day: one every 15 minutes
  private static final long SPACING = Math.round(ClosedLoopCrawler.DAY / HOST_RATE);
  private static final int HOSTS = 8;
  private static final int PAGES_PER_HOST = 8;
  private static final Map<String, Object> ENGINE =
      Map.of(
          "host.max-rate",
          HOST_RATE,
          "revisit.min-interval",
          "30 min",
          "lease",
          "1 h",
          "timer.recheck",
          "2 h",
          "timer.horizon",
          "2 h");

  /** Status lines parsed by the job (all attempts): the crawler waits until its statuses are in. */
  static final AtomicLong STATUSES_PARSED = new AtomicLong();

  @TempDir Path tmp;

  @Test
  void closedLoopCrawlRespectsHostLimitsAndFavoursFastChangingPages() throws Exception {
    Loop loop = new Loop("plain", false);
    loop.run();
    List<CrawlRequest> out = loop.requests.values();

    assertThat(out.stream().map(CrawlRequest::url).collect(Collectors.toSet()))
        .isEqualTo(loop.crawler.changeRates.keySet());

    // The decision log: one record per request, saying why it went and at which prices.
    List<ReleaseDecision> decisions = loop.decisions.values();
    assertThat(decisions)
        .extracting(d -> d.url + "@" + d.time)
        .containsExactlyInAnyOrderElementsOf(
            out.stream().map(r -> r.url() + "@" + r.time()).toList());
    assertThat(decisions)
        .extracting(d -> d.reason)
        .contains("first_crawl", "due")
        .allMatch(r -> List.of("first_crawl", "due", "early", "lease_expired").contains(r));
    assertThat(decisions)
        .allSatisfy(
            d -> {
              assertThat(d.globalLambda).isZero();
              assertThat(d.hostLambda).isEqualTo(d.threshold);
            });

    Map<String, List<Long>> byHost = new TreeMap<>();
    for (CrawlRequest r : out) {
      byHost.computeIfAbsent(r.host(), h -> new ArrayList<>()).add(r.time());
    }
    assertThat(byHost).hasSize(HOSTS);
    int maxInAnHour = 0;
    long minGap = Long.MAX_VALUE;
    for (List<Long> times : byHost.values()) {
      times.sort(null);
      for (int i = 1; i < times.size(); i++) {
        minGap = Math.min(minGap, times.get(i) - times.get(i - 1));
      }
      for (int i = 0, j = 0; i < times.size(); i++) {
        while (times.get(i) - times.get(j) >= 60 * MIN) {
          j++;
        }
        maxInAnHour = Math.max(maxInAnHour, i - j + 1);
      }
    }
    Map<String, Long> counts =
        out.stream().collect(Collectors.groupingBy(CrawlRequest::url, Collectors.counting()));
    double fast = mean(loop.crawler, counts, 8.0);
    double slow = mean(loop.crawler, counts, 0.25);
    System.out.printf(
        "HostSchedulerITCase: %d requests in %d days for %d URLs; per fast page %.1f, per slow page %.1f;"
            + " per host: min gap %d s, max %d in an hour%n",
        out.size(), DAYS, counts.size(), fast, slow, minGap / 1000, maxInAnHour);
    // 96 a day: releases at least 15 minutes apart, so at most 4 in any hour-long window.
    assertThat(minGap).isGreaterThanOrEqualTo(SPACING);
    assertThat(maxInAnHour).isLessThanOrEqualTo(4);
    assertThat(fast).isGreaterThan(1.5 * slow);
  }

  private static double mean(ClosedLoopCrawler crawler, Map<String, Long> counts, double rate) {
    return crawler.changeRates.entrySet().stream()
        .filter(e -> e.getValue() == rate)
        .mapToLong(e -> counts.getOrDefault(e.getKey(), 0L))
        .average()
        .orElseThrow();
  }

  @Test
  void restoreFromACheckpointAfterAFailureLosesNoUrl() throws Exception {
    FailOnceAfterCheckpoint.reset(HOSTS * PAGES_PER_HOST);
    Loop loop = new Loop("failover", true);
    loop.run();

    assertThat(FailOnceAfterCheckpoint.FAILED).isTrue();
    // The restarted attempt resumed from the checkpoint: it read no seed again...
    assertThat(FailOnceAfterCheckpoint.DISCOVERED_BY_ATTEMPT.get(0).get())
        .isEqualTo(HOSTS * PAGES_PER_HOST);
    assertThat(
            FailOnceAfterCheckpoint.DISCOVERED_BY_ATTEMPT
                .getOrDefault(1, new AtomicInteger())
                .get())
        .isZero();
    // ...yet every URL is still in its state, and requested after the restart.
    Set<String> after =
        loop.requests.results().stream()
            .filter(w -> w.attempt() >= 1)
            .map(w -> w.value().url())
            .collect(Collectors.toSet());
    assertThat(after).isEqualTo(loop.crawler.changeRates.keySet());
  }

  /** One closed-loop run: the job on the MiniCluster, the crawler in the test thread. */
  private final class Loop {
    final ClosedLoopCrawler crawler;
    final AttemptCollectingSink<CrawlRequest> requests;
    final AttemptCollectingSink<DemandReport> demand;
    final AttemptCollectingSink<ReleaseDecision> decisions;
    final Path statusDir;
    final Path controlDir;
    final boolean injectFailure;
    final String name;

    Loop(String name, boolean injectFailure) throws Exception {
      this.name = name;
      this.injectFailure = injectFailure;
      statusDir = Files.createDirectories(tmp.resolve(name + "/status"));
      controlDir = Files.createDirectories(tmp.resolve(name + "/control"));
      crawler = new ClosedLoopCrawler(statusDir, controlDir, 42);
      crawler.addPages(HOSTS, PAGES_PER_HOST, 8.0, 0.25);
      requests = new AttemptCollectingSink<>(name + "-requests");
      demand = new AttemptCollectingSink<>(name + "-demand");
      decisions = new AttemptCollectingSink<>(name + "-decisions");
    }

    void run() throws Exception {
      crawler.writeSeeds(T0);
      JobClient job = build().executeAsync("scheduler-closed-loop-" + name);
      try {
        long parsedBefore = STATUSES_PARSED.get();
        long end = T0 + DAYS * ClosedLoopCrawler.DAY;
        boolean failureSeen = false;
        for (long t = T0; t <= end; t += STEP) {
          if (injectFailure && !failureSeen && FailOnceAfterCheckpoint.FAILED.get()) {
            // The failure comes after a checkpoint completes, in wall-clock time: on a loaded
            // machine that can be late in the run. Every URL must have a day after the restart.
            failureSeen = true;
            end = Math.max(end, t + ClosedLoopCrawler.DAY);
          }
          crawler.answer(requests.values());
          long expected = parsedBefore + crawler.statusesWritten();
          await(() -> STATUSES_PARSED.get() >= expected, "statuses to be read");
          crawler.tick(t);
          long tick = t;
          await(
              () ->
                  demand.values().stream()
                          .filter(d -> d.time == tick)
                          .map(d -> d.subtask)
                          .distinct()
                          .count()
                      == 2,
              "tick " + t + " on both subtasks");
        }
      } finally {
        TestClusters.cancelAndWait(job);
      }
    }

    private void await(BooleanSupplier condition, String what) throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!condition.getAsBoolean()) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("timed out waiting for " + what);
        }
        Thread.sleep(2);
      }
    }

    private StreamExecutionEnvironment build() throws IOException {
      Map<String, String> m = new HashMap<>();
      m.put("state.backend.type", "rocksdb");
      m.put("execution.checkpointing.interval", "300 ms");
      m.put(
          "execution.checkpointing.dir",
          TestClusters.checkpointDir("HostSchedulerITCase-" + name).toUri().toString());
      m.put("pipeline.generic-types", "false");
      m.put("restart-strategy.type", injectFailure ? "fixed-delay" : "none");
      m.put("restart-strategy.fixed-delay.attempts", "1");
      m.put("restart-strategy.fixed-delay.delay", "100 ms");
      StreamExecutionEnvironment env =
          StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(m));
      env.setParallelism(2);

      DataStream<StatusEvent> statuses =
          env.fromSource(files(statusDir), WatermarkStrategy.noWatermarks(), "status-files")
              .setParallelism(1)
              .flatMap(new ParseStatus())
              .returns(WireTypes.STATUS_EVENT)
              .setParallelism(1);
      if (injectFailure) {
        statuses =
            statuses
                .map(new FailOnceAfterCheckpoint())
                .returns(WireTypes.STATUS_EVENT)
                .setParallelism(1);
      }
      // Event time comes from the crawler's ticks alone: statuses may arrive a round late, and
      // must not hold it back (their input's watermark is "no constraint").
      statuses = statuses.assignTimestampsAndWatermarks(noConstraint()).setParallelism(1);
      DataStream<ControlMessage> control =
          env.fromSource(files(controlDir), WatermarkStrategy.noWatermarks(), "control-files")
              .setParallelism(1)
              .flatMap(new ParseControl())
              .returns(WireTypes.CONTROL_MESSAGE)
              .setParallelism(1)
              .assignTimestampsAndWatermarks(tickWatermarks())
              .setParallelism(1);
      SingleOutputStreamOperator<CrawlRequest> scheduled =
          HostScheduler.schedule(statuses, control, ENGINE, 0.0, true);
      scheduled.sinkTo(requests);
      scheduled.getSideOutput(SchedulerOutputs.DEMAND).sinkTo(demand);
      scheduled.getSideOutput(SchedulerOutputs.DECISIONS).sinkTo(decisions);
      return env;
    }
  }

  private static FileSource<String> files(Path dir) {
    return FileSource.forRecordStreamFormat(
            new TextLineInputFormat(), new org.apache.flink.core.fs.Path(dir.toUri()))
        .monitorContinuously(Duration.ofMillis(10))
        .build();
  }

  /** A tick's watermark is its time, emitted right after it. */
  private static WatermarkStrategy<ControlMessage> tickWatermarks() {
    return WatermarkStrategy.<ControlMessage>forGenerator(
            ctx ->
                new WatermarkGenerator<>() {
                  @Override
                  public void onEvent(ControlMessage m, long ts, WatermarkOutput out) {
                    out.emitWatermark(new Watermark(m.time()));
                  }

                  @Override
                  public void onPeriodicEmit(WatermarkOutput out) {}
                })
        .withTimestampAssigner((m, ts) -> m.time());
  }

  private static WatermarkStrategy<StatusEvent> noConstraint() {
    return WatermarkStrategy.<StatusEvent>forGenerator(
            ctx ->
                new WatermarkGenerator<>() {
                  @Override
                  public void onEvent(StatusEvent e, long ts, WatermarkOutput out) {
                    out.emitWatermark(new Watermark(Long.MAX_VALUE - 1));
                  }

                  @Override
                  public void onPeriodicEmit(WatermarkOutput out) {
                    out.emitWatermark(new Watermark(Long.MAX_VALUE - 1));
                  }
                })
        .withTimestampAssigner((e, ts) -> e.time());
  }

  static final class ParseStatus implements FlatMapFunction<String, StatusEvent> {
    private final StatusEventCodec codec = new StatusEventCodec(HostKeys.Mode.BY_HOST, -1, 1 << 20);

    @Override
    public void flatMap(String line, Collector<StatusEvent> out) {
      Parsed<StatusEvent> p = codec.parse(line, 0);
      STATUSES_PARSED.incrementAndGet();
      if (p.ok()) {
        out.collect(p.value());
      }
    }
  }

  static final class ParseControl implements FlatMapFunction<String, ControlMessage> {
    private final ControlMessageCodec codec = new ControlMessageCodec(-1);

    @Override
    public void flatMap(String line, Collector<ControlMessage> out) {
      Parsed<ControlMessage> p = codec.parse(line, 0);
      if (p.ok()) {
        out.collect(p.value());
      }
    }
  }

  /**
   * Passes events through and throws once, after a checkpoint that holds every seed has completed.
   */
  static final class FailOnceAfterCheckpoint extends RichMapFunction<StatusEvent, StatusEvent>
      implements CheckpointedFunction, CheckpointListener {
    static final AtomicBoolean FAILED = new AtomicBoolean();
    static final Map<Integer, AtomicInteger> DISCOVERED_BY_ATTEMPT = new ConcurrentHashMap<>();
    private static volatile int seeds;
    private final Map<Long, Integer> seenAtCheckpoint = new ConcurrentHashMap<>();
    private int seen;
    private volatile boolean armed;

    static void reset(int seedCount) {
      FAILED.set(false);
      DISCOVERED_BY_ATTEMPT.clear();
      seeds = seedCount;
    }

    @Override
    public StatusEvent map(StatusEvent e) {
      int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
      if (e.status() == CrawlStatus.DISCOVERED) {
        DISCOVERED_BY_ATTEMPT.computeIfAbsent(attempt, a -> new AtomicInteger()).incrementAndGet();
      }
      seen++;
      if (attempt == 0 && armed && seen > 2 * seeds && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure after " + seen + " events");
      }
      return e;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext ctx) {
      seenAtCheckpoint.put(ctx.getCheckpointId(), seen);
    }

    @Override
    public void initializeState(FunctionInitializationContext ctx) {}

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      Integer n = seenAtCheckpoint.get(checkpointId);
      if (n != null && n >= seeds) {
        armed = true;
      }
    }
  }
}
