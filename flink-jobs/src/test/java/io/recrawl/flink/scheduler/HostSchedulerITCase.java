package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.EngineConfig;
import io.recrawl.flink.testing.AttemptCollectingSink;
import io.recrawl.flink.testing.PunctuatedWatermarks;
import io.recrawl.flink.testing.SimulatedCrawl;
import io.recrawl.flink.testing.WatermarkCap;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler in a MiniCluster on RocksDB with checkpoints, fed a simulated crawl through a file of
 * status events, with clock ticks on the control stream. Checks on the job's output: every seed is
 * requested, no host ever gets more than its limit, pages that change more often are requested more
 * often, and a restore from a checkpoint after an injected failure loses no URL.
 */
class HostSchedulerITCase {

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  private static final long T0 = 1_700_000_000_000L;
  private static final long MIN = 60_000L;
  private static final double HOST_RATE = 96; // crawls per day: one every 15 minutes
  private static final long SPACING = Math.round(SimulatedCrawl.DAY / HOST_RATE);
  private static final Map<String, Object> ENGINE =
      Map.of("host.max-rate", HOST_RATE, "revisit.min-interval", "30 min", "lease", "1 h", "timer.horizon", "2 h");

  private static SimulatedCrawl sim;
  private static Path feed;

  @TempDir static Path tmp;

  @BeforeAll
  static void simulate() throws Exception {
    sim = new SimulatedCrawl(EngineConfig.fromMap(ENGINE, ""), 12, 8, 8.0, 0.25, T0, 5, 42);
    feed = sim.write(tmp.resolve("status.jsonl"));
  }

  @Test
  void simulatedCrawlRespectsHostLimitsAndFavoursFastChangingPages() throws Exception {
    AttemptCollectingSink<CrawlRequest> sink = new AttemptCollectingSink<>("plain");
    run(sink, conf("none"), false);
    List<CrawlRequest> out = sink.values();

    assertThat(out.stream().map(CrawlRequest::url).collect(Collectors.toSet())).isEqualTo(sim.changeRates.keySet());

    Map<String, List<Long>> byHost = new TreeMap<>();
    for (CrawlRequest r : out) {
      byHost.computeIfAbsent(r.host(), h -> new ArrayList<>()).add(r.time());
    }
    assertThat(byHost).hasSize(12);
    int maxInAnHour = 0;
    for (List<Long> times : byHost.values()) {
      times.sort(null);
      for (int i = 1; i < times.size(); i++) {
        assertThat(times.get(i) - times.get(i - 1)).isGreaterThanOrEqualTo(SPACING);
      }
      for (int i = 0, j = 0; i < times.size(); i++) {
        while (times.get(i) - times.get(j) >= 60 * MIN) {
          j++;
        }
        maxInAnHour = Math.max(maxInAnHour, i - j + 1);
      }
    }
    // 96 a day: at most 4 in any hour-long window.
    assertThat(maxInAnHour).isLessThanOrEqualTo(4);

    Map<String, Long> counts = out.stream().collect(Collectors.groupingBy(CrawlRequest::url, Collectors.counting()));
    double fast = mean(counts, 8.0);
    double slow = mean(counts, 0.25);
    System.out.printf(
        "ITCase: %d requests over 5 days for 96 URLs; mean per fast page %.1f, per slow page %.1f; max %d/h per host%n",
        out.size(), fast, slow, maxInAnHour);
    assertThat(fast).isGreaterThan(1.5 * slow);
  }

  private static double mean(Map<String, Long> counts, double rate) {
    return sim.changeRates.entrySet().stream()
        .filter(e -> e.getValue() == rate)
        .mapToLong(e -> counts.getOrDefault(e.getKey(), 0L))
        .average()
        .orElseThrow();
  }

  @Test
  void restoreFromACheckpointAfterAFailureLosesNoUrl() throws Exception {
    AttemptCollectingSink<CrawlRequest> sink = new AttemptCollectingSink<>("failover");
    FailOnceAfterCheckpoint.reset(sim.changeRates.size());
    run(sink, conf("fixed-delay"), true);

    assertThat(FailOnceAfterCheckpoint.FAILED).isTrue();
    // The restarted attempt resumed from the checkpoint: no seed was read again...
    assertThat(FailOnceAfterCheckpoint.DISCOVERED_BY_ATTEMPT.getOrDefault(1, new AtomicInteger()).get()).isZero();
    assertThat(FailOnceAfterCheckpoint.DISCOVERED_BY_ATTEMPT.get(0).get()).isEqualTo(sim.changeRates.size());
    // ...yet every URL is still known and requested after the restart.
    Set<String> after =
        sink.results().stream().filter(w -> w.attempt() >= 1).map(w -> w.value().url()).collect(Collectors.toSet());
    assertThat(after).isEqualTo(sim.changeRates.keySet());
  }

  private static Configuration conf(String restartStrategy) {
    Map<String, String> m = new HashMap<>();
    m.put("state.backend.type", "rocksdb");
    m.put("execution.checkpointing.interval", "200 ms");
    m.put("execution.checkpointing.dir", tmp.resolve("checkpoints-" + restartStrategy).toUri().toString());
    m.put("pipeline.generic-types", "false");
    m.put("restart-strategy.type", restartStrategy);
    m.put("restart-strategy.fixed-delay.attempts", "1");
    m.put("restart-strategy.fixed-delay.delay", "100 ms");
    return Configuration.fromMap(m);
  }

  private static void run(AttemptCollectingSink<CrawlRequest> sink, Configuration conf, boolean injectFailure)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    FileSource<String> files =
        FileSource.forRecordStreamFormat(new TextLineInputFormat(), new org.apache.flink.core.fs.Path(feed.toUri()))
            .build();
    DataStream<StatusEvent> statuses =
        env.fromSource(files, WatermarkStrategy.noWatermarks(), "status-files")
            .setParallelism(1)
            .flatMap(new ParseStatus())
            .returns(WireTypes.STATUS_EVENT)
            .setParallelism(1);
    if (injectFailure) {
      statuses = statuses.map(new FailOnceAfterCheckpoint()).returns(WireTypes.STATUS_EVENT).setParallelism(1);
    }
    statuses =
        statuses
            .assignTimestampsAndWatermarks(PunctuatedWatermarks.of((e, ts) -> e.time()))
            .setParallelism(1)
            .transform("cap", WireTypes.STATUS_EVENT, new WatermarkCap<>(sim.end))
            .setParallelism(1);
    List<ControlMessage> ticks = new ArrayList<>();
    for (long t = T0; t <= sim.end; t += MIN) {
      ticks.add(ControlMessage.tick(t));
    }
    DataStream<ControlMessage> control =
        env.fromData(ticks, WireTypes.CONTROL_MESSAGE)
            .assignTimestampsAndWatermarks(PunctuatedWatermarks.of((m, ts) -> m.time()))
            .setParallelism(1)
            .transform("cap", WireTypes.CONTROL_MESSAGE, new WatermarkCap<>(sim.end))
            .setParallelism(1);
    HostScheduler.schedule(statuses, control, ENGINE, 0.0).sinkTo(sink);
    env.execute("scheduler-itcase");
  }

  /** Lines to status events; the (few) bad lines of a test feed would be dropped. */
  static final class ParseStatus implements FlatMapFunction<String, StatusEvent> {
    private final StatusEventCodec codec = new StatusEventCodec(HostKeys.Mode.BY_HOST, -1, 1 << 20);

    @Override
    public void flatMap(String line, Collector<StatusEvent> out) {
      Parsed<StatusEvent> p = codec.parse(line, 0);
      if (p.ok()) {
        out.collect(p.value());
      }
    }
  }

  /**
   * Passes events through and throws once, after a checkpoint that holds every seed has completed.
   * Until then it slows the first attempt down so that checkpoints complete mid-feed.
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
    public StatusEvent map(StatusEvent e) throws Exception {
      int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
      if (e.status() == CrawlStatus.DISCOVERED) {
        DISCOVERED_BY_ATTEMPT.computeIfAbsent(attempt, a -> new AtomicInteger()).incrementAndGet();
      }
      seen++;
      if (attempt == 0) {
        if (armed && FAILED.compareAndSet(false, true)) {
          throw new IllegalStateException("injected failure after " + seen + " events");
        }
        Thread.sleep(1);
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
      if (n != null && n > seeds) {
        armed = true;
      }
    }
  }
}
