package io.recrawl.flink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.engine.PageState;
import io.recrawl.flink.scheduler.HostScheduler;
import io.recrawl.flink.scheduler.SchedulerState;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>Two inputs, by default both in one run. {@code uniform}: every URL DISCOVERED, then FETCHED
 * events cycling through the URLs (a third of them changed). {@code crawl}: a crawl's status stream
 * ({@link CrawlMix}): each fetch followed by its outlinks, most already known, with errors and
 * 429s. Throughput is measured from the first to the last event processed by the keyed operator
 * (start-up excluded). The state size is that of a native-format savepoint taken once every event
 * is in: RocksDB's own SST files, i.e. the state as RocksDB keeps it on disk, compacted (timers and
 * host records included). The checkpoint directory is watched while the scheduler runs ({@link
 * CheckpointFootprint}).
 */
public final class ThroughputBenchmark {

  public static final String OPTIONS =
      "[--urls 1000000] [--hosts 10000] [--events 3000000] [--event-spacing-ms 5] [--parallelism 2]"
          + " [--managed-memory 512m] [--bloom-filter true] [--flink key=value,...] [--work-dir target/bench-throughput] [--out bench.json]"
          + " [--input uniform,crawl] [--outlinks 20] [--known-share 0.8] [--error-share 0.05] [--429-share 0.02] [--host-run 1]";

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

  /** The settings both inputs' jobs share. */
  private record Setup(
      long events,
      int parallelism,
      Path work,
      String managed,
      boolean bloom,
      Map<String, String> extra) {}

  public static int run(String[] args) throws Exception {
    Map<String, String> o = BenchArgs.parse(args, "usage: bin/recrawl bench throughput " + OPTIONS);
    if (o == null) {
      return 2;
    }
    long urls = Long.parseLong(o.getOrDefault("urls", "1000000"));
    long hosts = Long.parseLong(o.getOrDefault("hosts", "10000"));
    long events = Long.parseLong(o.getOrDefault("events", "3000000"));
    long spacing = Long.parseLong(o.getOrDefault("event-spacing-ms", "5"));
    int parallelism = Integer.parseInt(o.getOrDefault("parallelism", "2"));
    Path work = Path.of(o.getOrDefault("work-dir", "target/bench-throughput")).toAbsolutePath();
    Path out = Path.of(o.getOrDefault("out", "bench.json"));
    List<String> inputs = List.of(o.getOrDefault("input", "uniform,crawl").split(","));
    CrawlMix.Shape shape =
        new CrawlMix.Shape(
            Integer.parseInt(o.getOrDefault("outlinks", "20")),
            Double.parseDouble(o.getOrDefault("known-share", "0.8")),
            Double.parseDouble(o.getOrDefault("error-share", "0.05")),
            Double.parseDouble(o.getOrDefault("429-share", "0.02")));
    long hostRun = Long.parseLong(o.getOrDefault("host-run", "1"));
    if (urls < 1 || hosts < 1 || hosts > urls || events < urls) {
      System.err.println("bench throughput: need 1 <= hosts <= urls <= events");
      return 2;
    }
    if (inputs.isEmpty() || !List.of("uniform", "crawl").containsAll(inputs)) {
      System.err.println("bench throughput: --input takes uniform, crawl or both (uniform,crawl)");
      return 2;
    }
    BenchArgs.deleteRecursively(work);
    Files.createDirectories(work);
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
    Setup setup = new Setup(events, parallelism, work, managed, bloom, extra);

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
    Map<String, Object> json = new LinkedHashMap<>();
    if (inputs.contains("uniform")) {
      System.out.println(
          "input uniform: every URL DISCOVERED, then FETCHED events cycling through them");
      Synthetic input = new Synthetic(urls, hosts, spacing);
      Measured scheduler = runJob(Job.SCHEDULER, "", input, input.time(events - 1), setup);
      printScheduler(scheduler, events);
      Measured floor = runJob(Job.STATE_FLOOR, "", input, input.time(events - 1), setup);
      printFloor(floor, scheduler, events);
      Measured pass = runJob(Job.PASSTHROUGH, "", input, input.time(events - 1), setup);
      System.out.printf(
          Locale.ROOT,
          "  pass-through: %,.0f events/s (%,d events in %.1f s)%n",
          pass.eventsPerSecond(),
          events,
          pass.seconds);
      double bytesPerUrl = printState(scheduler, urls);
      json.put("events_per_second", round(scheduler.eventsPerSecond()));
      json.put("passthrough_events_per_second", round(pass.eventsPerSecond()));
      json.put("bytes_per_url", round1(bytesPerUrl));
      json.put("local_rocksdb_bytes_per_url", round1(scheduler.localBytes / (double) urls));
      json.put("scheduler_cpu_us_per_event", round1(scheduler.cpuMicrosPerEvent()));
      json.put("state_floor_events_per_second", round(floor.eventsPerSecond()));
      json.put("state_floor_cpu_us_per_event", round1(floor.cpuMicrosPerEvent()));
      json.put("ratio_to_state_floor", round2(scheduler.cpuSeconds / floor.cpuSeconds));
      json.put("checkpoints", checkpointJson(scheduler.checkpoints, urls, events));
      json.put("urls", urls);
      json.put("hosts", hosts);
    }
    if (inputs.contains("crawl")) {
      CrawlMix mix = new CrawlMix(urls, hosts, hostRun, spacing, shape);
      long fetches = mix.fetchesIn(events);
      long finalUrls = mix.urlsAfter(events);
      System.out.printf(
          Locale.ROOT,
          "input crawl: %,d seed URLs DISCOVERED, then %,d fetches, each %d outlinks, %.0f %% known;"
              + " %.0f %% errors, %.0f %% 429s (%.1f events a fetch); %,d URLs at the end%n",
          urls,
          fetches,
          shape.outlinks(),
          100 * shape.knownShare(),
          100 * shape.errorShare(),
          100 * shape.tooManyShare(),
          mix.eventsPerFetch(),
          finalUrls);
      Measured scheduler = runJob(Job.SCHEDULER, "crawl-", mix, mix.time(events - 1), setup);
      printScheduler(scheduler, events);
      Measured floor = runJob(Job.STATE_FLOOR, "crawl-", mix, mix.time(events - 1), setup);
      printFloor(floor, scheduler, events);
      double bytesPerUrl = printState(scheduler, finalUrls);
      // Fetches a second: the fetches among the events over the time the events took; per core,
      // over the CPU the whole job used meanwhile (source, scheduler, RocksDB's background work,
      // checkpoints, GC) or the scheduler threads' alone.
      double fetchesPerSecond = fetches / scheduler.seconds;
      double perCore = fetches / scheduler.processCpuSeconds;
      double perSchedulerCore = fetches / scheduler.cpuSeconds;
      System.out.printf(
          Locale.ROOT,
          "  fetches: %,.0f a second; %,.0f per core-second of the whole job's CPU, %,.0f of the scheduler threads'%n",
          fetchesPerSecond,
          perCore,
          perSchedulerCore);
      Map<String, Object> crawl = new LinkedHashMap<>();
      crawl.put("events_per_second", round(scheduler.eventsPerSecond()));
      crawl.put("fetches_per_second", round(fetchesPerSecond));
      crawl.put("fetches_per_core_second", round(perCore));
      crawl.put("fetches_per_scheduler_core_second", round(perSchedulerCore));
      crawl.put("events_per_fetch", round2(mix.eventsPerFetch()));
      crawl.put("scheduler_cpu_us_per_event", round1(scheduler.cpuMicrosPerEvent()));
      crawl.put("process_cpu_us_per_event", round1(scheduler.processCpuSeconds * 1e6 / events));
      crawl.put("state_floor_events_per_second", round(floor.eventsPerSecond()));
      crawl.put("state_floor_cpu_us_per_event", round1(floor.cpuMicrosPerEvent()));
      crawl.put("ratio_to_state_floor", round2(scheduler.cpuSeconds / floor.cpuSeconds));
      crawl.put("bytes_per_url", round1(bytesPerUrl));
      crawl.put("local_rocksdb_bytes_per_url", round1(scheduler.localBytes / (double) finalUrls));
      crawl.put("checkpoints", checkpointJson(scheduler.checkpoints, finalUrls, events));
      crawl.put("seed_urls", urls);
      crawl.put("urls", finalUrls);
      crawl.put("fetches", fetches);
      crawl.put("outlinks", shape.outlinks());
      crawl.put("known_share", shape.knownShare());
      crawl.put("error_share", shape.errorShare());
      crawl.put("429_share", shape.tooManyShare());
      json.put("crawl_mix", crawl);
      json.putIfAbsent("hosts", hosts);
    }
    String text = new ObjectMapper().writeValueAsString(json);
    Files.writeString(out, text + "\n");
    System.out.println(text);
    return 0;
  }

  private static void printScheduler(Measured scheduler, long events) {
    System.out.printf(
        Locale.ROOT,
        "  scheduler:    %,.0f events/s (%,d events in %.1f s; %.1f µs of scheduler-thread CPU per event,"
            + " %.1f µs of the whole process's)%n",
        scheduler.eventsPerSecond(),
        events,
        scheduler.seconds,
        scheduler.cpuMicrosPerEvent(),
        scheduler.processCpuSeconds * 1e6 / events);
    CheckpointFootprint.Result c = scheduler.checkpoints;
    System.out.printf(
        Locale.ROOT,
        "  checkpoints:  %d completed, %,d bytes written in all (%,d on average, %,d at most), %,d retained at the end%n",
        c.checkpoints(),
        c.writtenBytes(),
        c.meanWriteBytes(),
        c.largestWriteBytes(),
        c.retainedBytes());
  }

  private static void printFloor(Measured floor, Measured scheduler, long events) {
    System.out.printf(
        Locale.ROOT,
        "  state floor:  %,.0f events/s (%,d events in %.1f s; %.1f µs of keyed-thread CPU per event);"
            + " the scheduler costs %.2f times the floor%n",
        floor.eventsPerSecond(),
        events,
        floor.seconds,
        floor.cpuMicrosPerEvent(),
        scheduler.cpuSeconds / floor.cpuSeconds);
  }

  private static double printState(Measured scheduler, long urls) {
    double bytesPerUrl = scheduler.stateBytes / (double) urls;
    System.out.printf(
        Locale.ROOT,
        "  state: %,d bytes in a native savepoint = %.1f bytes per URL (%,d URLs); RocksDB's local"
            + " directories %,d bytes = %.1f per URL%n",
        scheduler.stateBytes,
        bytesPerUrl,
        urls,
        scheduler.localBytes,
        scheduler.localBytes / (double) urls);
    return bytesPerUrl;
  }

  private static Map<String, Object> checkpointJson(
      CheckpointFootprint.Result c, long urls, long events) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("completed", c.checkpoints());
    m.put("written_bytes", c.writtenBytes());
    m.put("mean_write_bytes", c.meanWriteBytes());
    m.put("largest_write_bytes", c.largestWriteBytes());
    m.put("retained_bytes", c.retainedBytes());
    m.put("retained_bytes_per_url", round1(c.retainedBytes() / (double) urls));
    m.put("written_bytes_per_event", round1(c.writtenBytes() / (double) events));
    return m;
  }

  private static long round(double v) {
    return Math.round(v);
  }

  private static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }

  private static double round2(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private record Measured(
      long events,
      double seconds,
      long stateBytes,
      long localBytes,
      double cpuSeconds,
      double processCpuSeconds,
      CheckpointFootprint.Result checkpoints) {
    double eventsPerSecond() {
      return events / seconds;
    }

    double cpuMicrosPerEvent() {
      return cpuSeconds * 1e6 / events;
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
      String prefix,
      GeneratorFunction<Long, StatusEvent> input,
      long lastTime,
      Setup setup)
      throws Exception {
    String name = prefix + job.label;
    long events = setup.events;
    Path work = setup.work;
    int parallelism = setup.parallelism;
    boolean scheduler = job == Job.SCHEDULER;
    Map<String, String> m = new HashMap<>();
    m.put("state.backend.type", "rocksdb");
    m.put("state.backend.incremental", "true");
    m.put("state.backend.rocksdb.localdir", work.resolve(name + "-rocksdb").toString());
    m.put("execution.checkpointing.interval", "10 s");
    Path checkpoints = work.resolve(name + "-checkpoints");
    m.put("execution.checkpointing.dir", checkpoints.toUri().toString());
    m.put("pipeline.generic-types", "false");
    m.put("restart-strategy.type", "none");
    m.put("taskmanager.numberOfTaskSlots", String.valueOf(parallelism));
    m.put("taskmanager.memory.managed.size", setup.managed);
    m.put("state.backend.rocksdb.use-bloom-filter", String.valueOf(setup.bloom));
    m.put("parallelism.default", String.valueOf(parallelism));
    m.putAll(setup.extra);
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
      long end = lastTime;
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
    CheckpointFootprint footprint = scheduler ? new CheckpointFootprint(checkpoints) : null;
    double processCpuAtSubmit = processCpuSeconds();
    JobClient running = env.executeAsync("bench-" + name);
    long stateBytes = 0;
    long localBytes = 0;
    double cpuSeconds = 0;
    double processCpuAtStart = Double.NaN;
    double schedulerCpuAtStart = 0;
    double processCpu = 0;
    CheckpointFootprint.Result checkpointed = CheckpointFootprint.Result.NONE;
    if (scheduler) {
      while (SEEN.get() < events) {
        if (Double.isNaN(processCpuAtStart) && SEEN.get() > 0) {
          // The scheduler threads' CPU over the window of the whole JVM's, which holds it.
          processCpuAtStart = processCpuSeconds();
          schedulerCpuAtStart = threadCpuSeconds("host-scheduler");
        }
        if (running.getJobStatus().get().isGloballyTerminalState()) {
          running.getJobExecutionResult().get(); // throws the job's failure
          throw new IllegalStateException("the scheduler job ended before all events were in");
        }
        Thread.sleep(50);
      }
      // Every event has entered the operator; wait until it has drained its input.
      Thread.sleep(2_000);
      cpuSeconds = threadCpuSeconds("host-scheduler") - schedulerCpuAtStart;
      // From the first event in (start-up excluded), unless the input went by before a look.
      processCpu =
          processCpuSeconds()
              - (Double.isNaN(processCpuAtStart) ? processCpuAtSubmit : processCpuAtStart);
      checkpointed = footprint.finish();
      String savepoint =
          running
              .triggerSavepoint(
                  work.resolve("savepoint").toUri().toString(), SavepointFormatType.NATIVE)
              .get();
      stateBytes = directorySize(Path.of(java.net.URI.create(savepoint)));
      localBytes = directorySize(work.resolve(name + "-rocksdb"));
      running.cancel().get();
    } else {
      running.getJobExecutionResult().get();
      cpuSeconds = job == Job.STATE_FLOOR ? FLOOR_CPU_NANOS.get() / 1e9 : 0;
    }
    double seconds = (LAST_NANOS.get() - FIRST_NANOS.get()) / 1e9;
    return new Measured(
        events, seconds, stateBytes, localBytes, cpuSeconds, processCpu, checkpointed);
  }

  /** CPU time used so far by this whole JVM, which runs the MiniCluster. */
  static double processCpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1e9;
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

  /**
   * The uniform input: every URL DISCOVERED, then FETCHED events cycling through them (a third
   * changed); event i is a status of URL i mod urls, hosts round-robin.
   */
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
    BenchArgs.deleteRecursively(work);
    Files.createDirectories(work);
    Synthetic input = new Synthetic(urls, hosts, 5);
    Measured m =
        runJob(
            Job.SCHEDULER,
            "discovered-",
            input,
            input.time(urls - 1),
            new Setup(urls, parallelism, work, "512m", true, Map.of()));
    return new double[] {m.eventsPerSecond(), m.stateBytes, m.seconds};
  }

  /** The bytes of the files under {@code dir}; files removed while it looks are left out. */
  static long directorySize(Path dir) throws IOException {
    long[] total = {0};
    Files.walkFileTree(
        dir,
        new java.nio.file.SimpleFileVisitor<>() {
          @Override
          public java.nio.file.FileVisitResult visitFile(
              Path file, java.nio.file.attribute.BasicFileAttributes attrs) {
            total[0] += attrs.isRegularFile() ? attrs.size() : 0;
            return java.nio.file.FileVisitResult.CONTINUE;
          }

          @Override
          public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e)
              throws IOException {
            if (e instanceof java.nio.file.NoSuchFileException) {
              return java.nio.file.FileVisitResult.CONTINUE; // compacted away meanwhile
            }
            throw e;
          }
        });
    return total[0];
  }
}
