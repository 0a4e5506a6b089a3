package io.recrawl.flink.bench;

import io.recrawl.engine.PageState;
import io.recrawl.flink.scheduler.HostScheduler;
import io.recrawl.flink.scheduler.SchedulerState;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;

/**
 * {@code bin/recrawl bench throughput}: the full scheduler job (RocksDB, one timer per host,
 * checkpoints every 10 s) on a synthetic frontier and, over the same input for comparison, a keyed
 * job that only reads and writes each event's URL record in RocksDB (the floor any per-URL store
 * pays) and a pass-through keyed job, in one local MiniCluster.
 *
 * <p>The input is E status events with increasing event times: first every URL is DISCOVERED, then
 * FETCHED events cycle through the URLs (a third of them changed). Throughput is measured from the
 * first to the last event processed by the keyed operator (start-up excluded). The state size is
 * that of a native-format savepoint taken once every event is in: RocksDB's own SST files, i.e. the
 * state as RocksDB keeps it on disk, compacted (timers and host records included).
 */
public final class ThroughputBenchmark {

  public static final String OPTIONS =
      "[--urls 1000000] [--hosts 10000] [--events 3000000] [--event-spacing-ms 5] [--parallelism 2]"
          + " [--managed-memory 512m] [--bloom-filter true] [--flink key=value,...] [--work-dir target/bench-throughput] [--out bench.json]";

  static final long T0 = 1_700_000_000_000L;

  /**
   * Events seen by the keyed operator of the running job, and when the first and last were seen.
   */
  static final AtomicLong SEEN = new AtomicLong();

  static final AtomicLong FIRST_NANOS = new AtomicLong();
  static final AtomicLong LAST_NANOS = new AtomicLong();

  /** CPU time of the state-floor job's keyed threads, added by each as it closes. */
  static final AtomicLong FLOOR_CPU_NANOS = new AtomicLong();

  private ThroughputBenchmark() {}

  public static int run(String[] args) throws Exception {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        System.err.println("usage: bin/recrawl bench throughput " + OPTIONS);
        return 2;
      }
      o.put(args[i].substring(2), args[++i]);
    }
    long urls = Long.parseLong(o.getOrDefault("urls", "1000000"));
    long hosts = Long.parseLong(o.getOrDefault("hosts", "10000"));
    long events = Long.parseLong(o.getOrDefault("events", "3000000"));
    long spacing = Long.parseLong(o.getOrDefault("event-spacing-ms", "5"));
    int parallelism = Integer.parseInt(o.getOrDefault("parallelism", "2"));
    Path work = Path.of(o.getOrDefault("work-dir", "target/bench-throughput")).toAbsolutePath();
    Path out = Path.of(o.getOrDefault("out", "bench.json"));
    if (urls < 1 || hosts < 1 || hosts > urls || events < urls) {
      System.err.println("bench throughput: need 1 <= hosts <= urls <= events");
      return 2;
    }
    deleteRecursively(work);
    Files.createDirectories(work);
    Synthetic input = new Synthetic(urls, hosts, spacing);
    String managed = o.getOrDefault("managed-memory", "512m");
    boolean bloom = Boolean.parseBoolean(o.getOrDefault("bloom-filter", "true"));
    // Extra Flink settings for both jobs (e.g. RocksDB options to try), as comma-separated
    // key=value.
    Map<String, String> extra = new HashMap<>();
    for (String kv : o.getOrDefault("flink", "").split(",")) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        extra.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
      }
    }

    System.out.printf(
        Locale.ROOT,
        "bench throughput: %,d URLs on %,d hosts, %,d events, parallelism %d, managed memory %s, bloom filters %s%n",
        urls,
        hosts,
        events,
        parallelism,
        managed,
        bloom);
    if (!extra.isEmpty()) {
      System.out.println("  extra Flink settings: " + extra);
    }
    Measured scheduler =
        runJob(Job.SCHEDULER, input, events, parallelism, work, managed, bloom, extra);
    System.out.printf(
        Locale.ROOT,
        "  scheduler:    %,.0f events/s (%,d events in %.1f s; %.1f µs of scheduler-thread CPU per event)%n",
        scheduler.eventsPerSecond(),
        events,
        scheduler.seconds,
        scheduler.cpuSeconds * 1e6 / events);
    Measured floor =
        runJob(Job.STATE_FLOOR, input, events, parallelism, work, managed, bloom, extra);
    System.out.printf(
        Locale.ROOT,
        "  state floor:  %,.0f events/s (%,d events in %.1f s; %.1f µs of keyed-thread CPU per event)%n",
        floor.eventsPerSecond(),
        events,
        floor.seconds,
        floor.cpuSeconds * 1e6 / events);
    Measured pass =
        runJob(Job.PASSTHROUGH, input, events, parallelism, work, managed, bloom, extra);
    System.out.printf(
        Locale.ROOT,
        "  pass-through: %,.0f events/s (%,d events in %.1f s)%n",
        pass.eventsPerSecond(),
        events,
        pass.seconds);
    double bytesPerUrl = scheduler.stateBytes / (double) urls;
    System.out.printf(
        Locale.ROOT,
        "  state: %,d bytes in a native savepoint = %.1f bytes per URL%n",
        scheduler.stateBytes,
        bytesPerUrl);

    String json =
        String.format(
            Locale.ROOT,
            "{\"events_per_second\": %.0f, \"passthrough_events_per_second\": %.0f, \"bytes_per_url\": %.1f,"
                + " \"scheduler_cpu_us_per_event\": %.1f, \"state_floor_events_per_second\": %.0f,"
                + " \"state_floor_cpu_us_per_event\": %.1f, \"urls\": %d, \"hosts\": %d}",
            scheduler.eventsPerSecond(),
            pass.eventsPerSecond(),
            bytesPerUrl,
            scheduler.cpuSeconds * 1e6 / events,
            floor.eventsPerSecond(),
            floor.cpuSeconds * 1e6 / events,
            urls,
            hosts);
    Files.writeString(out, json + "\n");
    System.out.println(json);
    return 0;
  }

  private record Measured(long events, double seconds, long stateBytes, double cpuSeconds) {
    double eventsPerSecond() {
      return events / seconds;
    }
  }

  /** The three jobs run over the same input. */
  enum Job {
    SCHEDULER("scheduler"),
    /**
     * Per event one read and one write of the URL's record in RocksDB: what any per-URL store
     * costs.
     */
    STATE_FLOOR("state-floor"),
    PASSTHROUGH("passthrough");

    /** The job's name, and the prefix of its work directories. */
    final String label;

    Job(String label) {
      this.label = label;
    }
  }

  private static Measured runJob(
      Job job,
      Synthetic input,
      long events,
      int parallelism,
      Path work,
      String managed,
      boolean bloom,
      Map<String, String> extra)
      throws Exception {
    String name = job.label;
    boolean scheduler = job == Job.SCHEDULER;
    Map<String, String> m = new HashMap<>();
    m.put("state.backend.type", "rocksdb");
    m.put("state.backend.incremental", "true");
    m.put("state.backend.rocksdb.localdir", work.resolve(name + "-rocksdb").toString());
    m.put("execution.checkpointing.interval", "10 s");
    m.put("execution.checkpointing.dir", work.resolve(name + "-checkpoints").toUri().toString());
    m.put("pipeline.generic-types", "false");
    m.put("restart-strategy.type", "none");
    m.put("taskmanager.numberOfTaskSlots", String.valueOf(parallelism));
    m.put("taskmanager.memory.managed.size", managed);
    m.put("state.backend.rocksdb.use-bloom-filter", String.valueOf(bloom));
    m.put("parallelism.default", String.valueOf(parallelism));
    m.putAll(extra);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(m));

    DataStream<StatusEvent> statuses =
        env.fromSource(
                new DataGeneratorSource<>(
                    input, events, RateLimiterStrategy.noOp(), WireTypes.STATUS_EVENT),
                WatermarkStrategy.<StatusEvent>forBoundedOutOfOrderness(Duration.ofSeconds(5))
                    .withTimestampAssigner((e, ts) -> e.time()),
                "synthetic-statuses")
            .setParallelism(1);
    if (scheduler) {
      // One LAMBDA, then a tick a second at the input's last event time: keeps the job (and its
      // state) alive after the input ends, so that a savepoint can measure it.
      long end = input.time(events - 1);
      DataStream<ControlMessage> control =
          env.fromSource(
                  new DataGeneratorSource<>(
                      (GeneratorFunction<Long, ControlMessage>)
                          i ->
                              i == 0
                                  ? ControlMessage.lambda(end, 1, 0.0)
                                  : ControlMessage.tick(end),
                      Long.MAX_VALUE,
                      RateLimiterStrategy.perSecond(1),
                      WireTypes.CONTROL_MESSAGE),
                  WatermarkStrategy.<ControlMessage>forMonotonousTimestamps()
                      .withTimestampAssigner((c, ts) -> c.time()),
                  "ticks")
              .setParallelism(1);
      DataStream<StatusEvent> counted =
          statuses.map(new Count()).returns(WireTypes.STATUS_EVENT).setParallelism(1);
      // The synthetic crawler answers each URL once per pass over the frontier (urls x spacing of
      // event time: 1.4 h at a million URLs); a lease shorter than that would re-release every page
      // before its status came back and measure lease expiries instead of the steady state.
      HostScheduler.schedule(counted, control, Map.of("lease", "1 d"), 0.0, false)
          .sinkTo(new DiscardingSink<CrawlRequest>());
    } else {
      KeyedProcessFunction<String, StatusEvent, StatusEvent> keyed =
          job == Job.STATE_FLOOR ? new StateFloor() : new PassThrough();
      statuses
          .keyBy(StatusEvent::host, Types.STRING)
          .process(keyed)
          .returns(WireTypes.STATUS_EVENT)
          .name(name)
          .sinkTo(new DiscardingSink<StatusEvent>());
    }

    SEEN.set(0);
    FIRST_NANOS.set(0);
    FLOOR_CPU_NANOS.set(0);
    JobClient running = env.executeAsync("bench-" + name);
    long stateBytes = 0;
    double cpuSeconds = 0;
    if (scheduler) {
      while (SEEN.get() < events) {
        if (running.getJobStatus().get().isGloballyTerminalState()) {
          running.getJobExecutionResult().get(); // throws the job's failure
          throw new IllegalStateException("the scheduler job ended before all events were in");
        }
        Thread.sleep(50);
      }
      // Every event has entered the operator; wait until it has drained its input.
      Thread.sleep(2_000);
      cpuSeconds = threadCpuSeconds("host-scheduler");
      String savepoint =
          running
              .triggerSavepoint(
                  work.resolve("savepoint").toUri().toString(), SavepointFormatType.NATIVE)
              .get();
      stateBytes = directorySize(Path.of(java.net.URI.create(savepoint)));
      running.cancel().get();
    } else {
      running.getJobExecutionResult().get();
      cpuSeconds = job == Job.STATE_FLOOR ? FLOOR_CPU_NANOS.get() / 1e9 : 0;
    }
    double seconds = (LAST_NANOS.get() - FIRST_NANOS.get()) / 1e9;
    return new Measured(events, seconds, stateBytes, cpuSeconds);
  }

  /**
   * CPU time used so far by the threads whose name starts with {@code prefix} (the MiniCluster runs
   * in this JVM). Unlike events per second it hardly depends on what else the machine is running.
   */
  static double threadCpuSeconds(String prefix) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long nanos = 0;
    for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (t != null && t.getThreadName().startsWith(prefix)) {
        nanos += Math.max(0, mx.getThreadCpuTime(t.getThreadId()));
      }
    }
    return nanos / 1e9;
  }

  /** Counts events on their way into the scheduler (chained with the source: no extra hop). */
  static final class Count implements MapFunction<StatusEvent, StatusEvent> {
    @Override
    public StatusEvent map(StatusEvent e) {
      mark();
      return e;
    }
  }

  static void mark() {
    long now = System.nanoTime();
    FIRST_NANOS.compareAndSet(0, now);
    LAST_NANOS.set(now);
    SEEN.incrementAndGet();
  }

  /** The comparison job's keyed operator: forwards every event, keeps no state. */
  static final class PassThrough extends KeyedProcessFunction<String, StatusEvent, StatusEvent> {
    @Override
    public void processElement(StatusEvent e, Context ctx, Collector<StatusEvent> out) {
      mark();
      out.collect(e);
    }
  }

  /**
   * The reference for the cost of per-URL state: reads the URL's record (the scheduler's key layout
   * and serializer), changes it, writes it back. The scheduler must do at least this per event.
   */
  static final class StateFloor extends KeyedProcessFunction<String, StatusEvent, StatusEvent> {
    private transient MapState<String, PageState> pages;

    @Override
    public void open(OpenContext context) {
      pages = getRuntimeContext().getMapState(SchedulerState.pagesDescriptor());
    }

    @Override
    public void processElement(StatusEvent e, Context ctx, Collector<StatusEvent> out)
        throws Exception {
      mark();
      String key = SchedulerState.compactUrl(ctx.getCurrentKey(), e.url());
      PageState p = pages.get(key);
      if (p == null) {
        p = new PageState();
        p.weight = 1;
      }
      p.lastFetch = e.time();
      pages.put(key, p);
    }

    /** The bounded job's threads end with its input: each adds its CPU time as it closes. */
    @Override
    public void close() {
      FLOOR_CPU_NANOS.addAndGet(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
    }
  }

  /** The synthetic frontier: event i is a status of URL i mod urls, hosts round-robin. */
  static final class Synthetic implements GeneratorFunction<Long, StatusEvent> {
    private final long urls;
    private final long hosts;
    private final long spacing;

    Synthetic(long urls, long hosts, long spacing) {
      this.urls = urls;
      this.hosts = hosts;
      this.spacing = spacing;
    }

    long time(long i) {
      return T0 + i * spacing;
    }

    @Override
    public StatusEvent map(Long index) {
      long i = index;
      long url = i % urls;
      String host = host(url, hosts);
      String u = url(url, hosts);
      if (i < urls) {
        return new StatusEvent(
            u, host, CrawlStatus.DISCOVERED, time(i), Map.of(), null, null, null);
      }
      boolean changed = Long.hashCode(i * 0x9E3779B97F4A7C15L) % 3 == 0;
      return new StatusEvent(u, host, CrawlStatus.FETCHED, time(i), Map.of(), changed, null, 200);
    }
  }

  /** The host key of synthetic URL {@code url} of {@code hosts} hosts. */
  public static String host(long url, long hosts) {
    return "h" + (url % hosts) + ".example";
  }

  /** Synthetic URL {@code url} of {@code hosts} hosts, as the benchmark's input spells it. */
  public static String url(long url, long hosts) {
    return "https://" + host(url, hosts) + "/page/" + (url / hosts);
  }

  /**
   * The scheduler job over the synthetic URLs as DISCOVERED events only (one each), as {@code bench
   * import} compares them with an import: events a second, and bytes of the job's native savepoint.
   */
  public static double[] discovered(long urls, long hosts, int parallelism, Path work)
      throws Exception {
    deleteRecursively(work);
    Files.createDirectories(work);
    Measured m =
        runJob(
            Job.SCHEDULER,
            new Synthetic(urls, hosts, 5),
            urls,
            parallelism,
            work,
            "512m",
            true,
            Map.of());
    return new double[] {m.eventsPerSecond(), m.stateBytes, m.seconds};
  }

  static long directorySize(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sum();
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
