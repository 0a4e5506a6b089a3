package io.recrawl.flink.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.io.FileSinkParts;
import io.recrawl.flink.job.JobSinks;
import io.recrawl.flink.job.JobSources;
import io.recrawl.flink.job.RecrawlJob;
import io.recrawl.flink.tools.FrontierReader;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The production job ({@link RecrawlJob}: RocksDB, incremental checkpoints, requests to files
 * committed on checkpoints, exactly once), as a replay (event time from the statuses alone, as for
 * status files read once), on a {@link CrawlMix} of status events, with a {@link FailureInjector}
 * failing the task at random records; then a stop with a savepoint, the committed requests and the
 * savepoint's frontier read back ({@link FrontierReader}), and {@link RecoveryChecks}. {@code bench
 * failures} and {@code FailureInjectionITCase} both run this.
 */
public final class FailureRun {

  /** What to run. */
  public record Options(
      long events,
      int failures,
      long seedUrls,
      long hosts,
      long hostRun,
      long spacingMs,
      int parallelism,
      String checkpointInterval,
      long seed,
      long dropAfterRestart,
      Path workDir) {}

  /** What happened and what the checks found. */
  public record Report(
      Options options,
      List<Long> failedAt,
      int restarts,
      List<Double> recoverySeconds,
      long urls,
      long requests,
      double wallSeconds,
      double jobSeconds,
      double checkSeconds,
      long skewSeenMs,
      long earlyRevisits,
      long mostEarlyMs,
      List<RecoveryChecks.Check> checks) {
    public boolean passed() {
      return checks.stream().allMatch(RecoveryChecks.Check::passed);
    }
  }

  /** The engine's lease and revisit floor (the defaults, written out for the checks). */
  static final long LEASE_MS = 3_600_000L;

  static final long MIN_INTERVAL_MS = 3_600_000L;
  static final double HOST_MAX_RATE = 86_400;

  /** A page due within the run must be requested within this much event time. */
  static final long GRACE_MS = 30 * 60_000L;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * How far before its own time a status may be applied (see {@link RecoveryChecks}): the replay's
   * statuses reach each scheduler subtask in order through one channel, their watermark after every
   * event ({@link EveryEventWatermarks}), so by one event's spacing; ten, and a second, to spare.
   */
  static long skewMs(long spacingMs) {
    return 10 * spacingMs + 1_000;
  }

  private FailureRun() {}

  /** Failure points: distinct record numbers drawn in the middle 90 % of the stream. */
  static long[] failurePoints(long events, int failures, long seed) {
    Random r = new Random(seed);
    TreeSet<Long> at = new TreeSet<>();
    long lo = events / 20;
    long span = Math.max(1, events - 2 * lo);
    while (at.size() < Math.min(failures, span)) {
      at.add(lo + (long) (r.nextDouble() * span));
    }
    return at.stream().mapToLong(Long::longValue).toArray();
  }

  /** One run of the job: its committed requests, its final savepoint, its injector's log. */
  private record Executed(
      List<String> requests, String savepoint, FailureInjector.Log log, double seconds) {}

  /**
   * Runs the job with the failures, checks it, and, with {@code reference}, runs it again without
   * failures (under {@code workDir/reference}) and compares the committed requests.
   */
  public static Report run(Options o, boolean reference) throws Exception {
    long started = System.nanoTime();
    CrawlMix mix =
        new CrawlMix(o.seedUrls(), o.hosts(), o.hostRun(), o.spacingMs(), CrawlMix.Shape.DEFAULT);
    long end = mix.time(o.events() - 1);
    RecrawlConfig config = config(o, o.workDir().toAbsolutePath());
    Executed run = execute(o, mix, config, o.workDir().toAbsolutePath());

    long checkStarted = System.nanoTime();
    List<CrawlRequest> requests = new ArrayList<>();
    for (String line : run.requests()) {
      requests.add(CrawlRequestCodec.parse(line, end).value());
    }
    List<RecoveryChecks.StateUrl> state = new ArrayList<>();
    for (String line :
        FrontierReader.read(run.savepoint(), config.engineSettings(), null, null, null)) {
      JsonNode n = JSON.readTree(line);
      JsonNode lastFetch = n.get("last_fetch");
      state.add(
          new RecoveryChecks.StateUrl(
              n.get("url").asText(),
              n.get("in_flight").asBoolean(),
              lastFetch == null || lastFetch.isNull() ? 0 : lastFetch.asLong()));
    }
    RecoveryChecks checks =
        new RecoveryChecks(
            mix,
            o.events(),
            new RecoveryChecks.Limits(
                LEASE_MS, HOST_MAX_RATE, MIN_INTERVAL_MS, GRACE_MS, skewMs(o.spacingMs())));
    List<RecoveryChecks.Check> results = new ArrayList<>(checks.check(requests, state));
    double checkSeconds = (System.nanoTime() - checkStarted) / 1e9;
    if (reference) {
      Path refWork = o.workDir().toAbsolutePath().resolve("reference");
      Options clean =
          new Options(
              o.events(),
              0,
              o.seedUrls(),
              o.hosts(),
              o.hostRun(),
              o.spacingMs(),
              o.parallelism(),
              o.checkpointInterval(),
              o.seed(),
              0,
              refWork);
      Executed ref = execute(clean, mix, config(clean, refWork), refWork);
      results.add(RecoveryChecks.sameRequests(run.requests(), ref.requests()));
    }
    return new Report(
        o,
        run.log().failedAt(),
        run.log().attempt(),
        run.log().recoverySeconds(),
        state.size(),
        requests.size(),
        (System.nanoTime() - started) / 1e9,
        run.seconds(),
        checkSeconds,
        checks.skewSeenMs(),
        checks.earlyRevisits(),
        checks.mostEarlyMs(),
        results);
  }

  private static RecrawlConfig config(Options o, Path work) {
    Path requestsDir = work.resolve("out/requests");
    Map<String, Object> settings = new HashMap<>();
    settings.put("recrawl.input.path", work.resolve("in").toString()); // not read: sources below
    // A replay (files read once): event time is the statuses' alone, and they reach the keying in
    // order, in one subtask. The control stream below keeps the job running after them.
    settings.put("recrawl.input.monitor-interval-ms", 0);
    settings.put("recrawl.output.path", requestsDir.toString());
    settings.put("recrawl.deadletters.path", work.resolve("out/deadletters").toString());
    settings.put("recrawl.control.tick-interval-ms", 0);
    settings.put("recrawl.parallelism", o.parallelism());
    settings.put("recrawl.engine.lease", LEASE_MS / 60_000 + " min");
    settings.put("recrawl.engine.revisit.min-interval", MIN_INTERVAL_MS / 60_000 + " min");
    settings.put("recrawl.engine.host.max-rate", HOST_MAX_RATE);
    return RecrawlConfig.fromMap(settings);
  }

  private static Executed execute(Options o, CrawlMix mix, RecrawlConfig config, Path work)
      throws Exception {
    long end = mix.time(o.events() - 1);
    Map<String, String> flink = new HashMap<>();
    flink.put("state.backend.type", "rocksdb");
    flink.put("state.backend.incremental", "true");
    flink.put("state.backend.rocksdb.localdir", work.resolve("rocksdb").toString());
    flink.put("execution.checkpointing.interval", o.checkpointInterval());
    flink.put("execution.checkpointing.dir", work.resolve("checkpoints").toUri().toString());
    flink.put("pipeline.generic-types", "false");
    // Room for every injected failure and a few more: a real fault on top must not end the run.
    flink.put("restart-strategy.type", "fixed-delay");
    flink.put("restart-strategy.fixed-delay.attempts", String.valueOf(o.failures() + 3));
    flink.put("restart-strategy.fixed-delay.delay", "100 ms");
    flink.put("taskmanager.numberOfTaskSlots", String.valueOf(o.parallelism()));
    flink.put("parallelism.default", String.valueOf(o.parallelism()));
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(flink));

    String id = "failures-" + UUID.randomUUID();
    long[] failAt = failurePoints(o.events(), o.failures(), o.seed());
    FailureInjector injector = new FailureInjector(id, failAt, o.dropAfterRestart());
    RecrawlJob.build(
        env, config, sources(mix, o.events(), end, injector), JobSinks.fromConfig(config));

    FailureInjector.Log log = FailureInjector.log(id);
    long jobStarted = System.nanoTime();
    JobClient job = env.executeAsync("bench-failures");
    String savepoint;
    try {
      while (log.position() < o.events() || log.failedAt().size() < failAt.length) {
        if (job.getJobStatus().get().isGloballyTerminalState()) {
          job.getJobExecutionResult().get(); // throws the job's failure
          throw new IllegalStateException("the job ended before all events were in");
        }
        Thread.sleep(50);
      }
      // Every event is in; let the scheduler apply them and the timers up to the end fire.
      Thread.sleep(2_000);
      savepoint = stopWithSavepoint(job, work.resolve("savepoint"));
    } finally {
      FailureInjector.forget(id);
    }
    double jobSeconds = (System.nanoTime() - jobStarted) / 1e9;
    return new Executed(
        FileSinkParts.lines(work.resolve("out/requests")), savepoint, log, jobSeconds);
  }

  /**
   * The job's inputs: the mix through the injector, and a control stream of λ_0 = 0 and then a tick
   * a second, which keeps the job running once the statuses have ended, so that it can stop with a
   * savepoint (the end of the statuses ends the schedule: no timer fires after their last time).
   */
  private static JobSources sources(CrawlMix mix, long events, long end, FailureInjector injector) {
    return new JobSources() {
      @Override
      public DataStream<Parsed<StatusEvent>> statusEvents(StreamExecutionEnvironment env) {
        return env.fromSource(
                new DataGeneratorSource<>(
                    mix, events, RateLimiterStrategy.noOp(), WireTypes.STATUS_EVENT),
                new EveryEventWatermarks(),
                "bench-statuses")
            .setParallelism(1)
            .uid("bench-statuses")
            .flatMap(injector)
            .returns(WireTypes.STATUS_EVENT)
            .setParallelism(1)
            .name("failure-injector")
            .uid("failure-injector")
            .map(e -> Parsed.ok(e))
            .returns(WireTypes.PARSED_STATUS_EVENT)
            .setParallelism(1)
            .name("bench-parsed")
            .uid("bench-parsed");
      }

      @Override
      public DataStream<Parsed<ControlMessage>> control(StreamExecutionEnvironment env) {
        return env.fromSource(
                new DataGeneratorSource<>(
                    (GeneratorFunction<Long, Parsed<ControlMessage>>)
                        i ->
                            Parsed.ok(
                                i == 0
                                    ? ControlMessage.lambda(end, 1, 0.0)
                                    : ControlMessage.tick(end)),
                    Long.MAX_VALUE,
                    RateLimiterStrategy.perSecond(1),
                    WireTypes.PARSED_CONTROL_MESSAGE),
                WatermarkStrategy.<Parsed<ControlMessage>>forMonotonousTimestamps()
                    .withTimestampAssigner((c, ts) -> c.value().time()),
                "bench-control")
            .setParallelism(1)
            .uid("bench-control");
      }
    };
  }

  /** Stops the job with a savepoint, once it is running (one is refused while tasks start). */
  private static String stopWithSavepoint(JobClient job, Path dir) throws Exception {
    Files.createDirectories(dir);
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (true) {
      try {
        return job.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL)
            .get();
      } catch (Exception notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
        Thread.sleep(500);
      }
    }
  }
}
