package io.recrawl.flink.tools;

import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.scheduler.HostScheduler;
import io.recrawl.flink.testutil.AttemptCollectingSink;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
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
 * The scheduler on a MiniCluster with a known crawl, for savepoints: {@link #write} crawls {@link
 * #HOSTS} hosts of {@link #PER_HOST} URLs each into a savepoint with pages in every status, leases,
 * host-rate overrides and λ_0; {@link #restore} starts the scheduler from a savepoint, at any
 * parallelism, with nothing new to read until the test moves {@link #CLOCK}.
 *
 * <p>Event time stands at {@link #END} until then: a restored job fires no timer, so its own
 * savepoint must hold the same frontier as the one it was restored from.
 */
final class SavepointJobs {

  static final long T0 = 1_700_000_000_000L;
  static final long MIN = 60_000L;
  static final long DAY = 86_400_000L;
  static final long END = T0 + 60 * MIN;
  static final int HOSTS = 36;
  static final int PER_HOST = 80;
  static final int URLS = HOSTS * PER_HOST;
  static final double LAMBDA0 = 0.02;

  /** Hosts 0-3: a host_rate override, crawls per day. */
  static final double[] OVERRIDES = {24, 48, 300, 2000};

  /** Event time of the restored job's inputs: the test moves it. */
  static final AtomicLong CLOCK = new AtomicLong(END);

  /** How many status events the writing job's source has emitted. */
  static final AtomicLong EMITTED = new AtomicLong();

  private SavepointJobs() {}

  static String host(int h) {
    return "h" + h + ".example";
  }

  static String url(int i) {
    int h = i % HOSTS;
    return (h % 2 == 0 ? "https://" : "http://") + host(h) + "/p/" + i / HOSTS;
  }

  /**
   * Status event {@code i}: every URL discovered (weights vary), then per URL one of: nothing more
   * (discovered, or released and in flight), fetched (changed, unchanged, with a known change
   * rate), a fetch error, three of them (ERROR after fetch-error.max), a redirect, an ERROR. After
   * the crawl, the same no-op DISCOVERED at {@link #END} for ever: the source stays open (a
   * finished task takes no part in a savepoint) and only moves event time.
   */
  static StatusEvent crawl(long i) {
    EMITTED.incrementAndGet();
    if (i < URLS) {
      int u = (int) i;
      Double weight = u % 5 == 0 ? 1.0 + u % 7 : null;
      return event(u, CrawlStatus.DISCOVERED, T0 + u * 10L, null, weight, null, Map.of());
    }
    long k = i - URLS;
    int u = (int) (k % URLS);
    int round = (int) (k / URLS);
    long t = T0 + 40 * MIN + round * 5 * MIN + u * 10L;
    if (k < 3L * URLS) {
      switch (u % 8) {
        case 1:
          return round == 0 ? event(u, CrawlStatus.FETCHED, t, true, null, 200, Map.of()) : noop(u);
        case 2:
          return round == 0
              ? event(u, CrawlStatus.FETCHED, t, false, null, 304, Map.of())
              : noop(u);
        case 3:
          return round == 0
              ? event(
                  u,
                  CrawlStatus.FETCHED,
                  t,
                  true,
                  null,
                  200,
                  Map.of(StatusEvent.CHANGE_RATE_KEY, List.of(Double.toString(0.5 + u % 3))))
              : noop(u);
        case 4:
          return round == 0
              ? event(u, CrawlStatus.FETCH_ERROR, t, null, null, 500, Map.of())
              : noop(u);
        case 5:
          return event(u, CrawlStatus.FETCH_ERROR, t, null, null, 503, Map.of()); // 3 in a row
        case 6:
          return round == 0
              ? event(u, CrawlStatus.REDIRECTION, t, null, null, 301, Map.of())
              : noop(u);
        case 7:
          return round == 0 ? event(u, CrawlStatus.ERROR, t, null, null, 404, Map.of()) : noop(u);
        default:
          return noop(u);
      }
    }
    return event(0, CrawlStatus.DISCOVERED, CLOCK.get(), null, null, null, Map.of());
  }

  private static StatusEvent noop(int u) {
    return event(u, CrawlStatus.DISCOVERED, T0 + 40 * MIN, null, null, null, Map.of());
  }

  private static StatusEvent event(
      int u,
      CrawlStatus status,
      long time,
      Boolean changed,
      Double weight,
      Integer http,
      Map<String, List<String>> metadata) {
    return new StatusEvent(url(u), host(u % HOSTS), status, time, metadata, changed, weight, http);
  }

  /** How many events the crawl has before its no-ops. */
  static long crawlEvents() {
    return 4L * URLS;
  }

  /** λ_0 (epoch 1), the overrides, then a tick at {@link #CLOCK} for ever. */
  static ControlMessage control(long i) {
    if (i == 0) {
      return ControlMessage.lambda(T0, 1, LAMBDA0);
    }
    if (i <= OVERRIDES.length) {
      return ControlMessage.hostRate(T0, host((int) i - 1), OVERRIDES[(int) i - 1]);
    }
    return ControlMessage.tick(CLOCK.get());
  }

  /** A running scheduler job and its requests. */
  record Running(JobClient job, AttemptCollectingSink<CrawlRequest> requests) {
    /** A savepoint, once every task runs (a savepoint of a job still starting is refused). */
    String savepoint(Path dir) throws Exception {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (true) {
        try {
          return job.triggerSavepoint(dir.toUri().toString(), SavepointFormatType.CANONICAL).get();
        } catch (Exception notYet) {
          if (System.nanoTime() > deadline) {
            throw notYet;
          }
          Thread.sleep(200);
        }
      }
    }

    void cancel() throws Exception {
      TestClusters.cancelAndWait(job);
    }
  }

  /**
   * Runs the crawl at {@code parallelism} and returns its savepoint (written under {@code dir}).
   */
  static String write(int parallelism, Path dir) throws Exception {
    EMITTED.set(0);
    CLOCK.set(END);
    Running r = start(parallelism, null, true);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (EMITTED.get() < crawlEvents() + 10) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the crawl's source did not finish within 60 s");
      }
      Thread.sleep(50);
    }
    Thread.sleep(2_000); // every event and watermark applied
    String savepoint = r.savepoint(dir);
    r.cancel();
    return savepoint;
  }

  /**
   * The scheduler from {@code savepoint} (or empty), at {@code parallelism}: the crawl, or
   * (restored) only a no-op status and ticks at {@link #CLOCK}.
   */
  static Running start(int parallelism, String savepoint, boolean crawl) throws Exception {
    return start(parallelism, savepoint, crawl, Map.of(), Map.of());
  }

  /** The same with engine settings and Flink settings (on top of RocksDB, no restarts, no Kryo). */
  static Running start(
      int parallelism,
      String savepoint,
      boolean crawl,
      Map<String, ?> engineSettings,
      Map<String, String> flink)
      throws Exception {
    Map<String, String> m = new HashMap<>();
    m.put("state.backend.type", "rocksdb");
    m.put("pipeline.generic-types", "false");
    m.put("restart-strategy.type", "none");
    m.put("execution.checkpointing.interval", "1 h");
    m.put(
        "execution.checkpointing.dir",
        TestClusters.checkpointDir("SavepointJobs").toUri().toString());
    if (savepoint != null) {
      m.put("execution.state-recovery.path", savepoint);
      // The restored job's sources are new ones (uids "...-restored"): only the scheduler's state
      // is restored, not the generators' positions.
      m.put("execution.state-recovery.ignore-unclaimed-state", "true");
    }
    m.putAll(flink);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(m));
    env.setParallelism(parallelism);
    env.setMaxParallelism(RecrawlOptions.MAX_PARALLELISM.defaultValue().intValue());
    long first = crawl ? 0 : crawlEvents();
    DataStream<StatusEvent> statuses =
        env.fromSource(
                new DataGeneratorSource<>(
                    (GeneratorFunction<Long, StatusEvent>) i -> crawl(i + first),
                    Long.MAX_VALUE,
                    RateLimiterStrategy.perSecond(crawl ? 4_000 : 20),
                    WireTypes.STATUS_EVENT),
                WatermarkStrategy.<StatusEvent>forMonotonousTimestamps()
                    .withTimestampAssigner((e, ts) -> e.time()),
                "statuses")
            .setParallelism(1)
            .uid(crawl ? "statuses" : "statuses-restored");
    long firstControl = crawl ? 0 : OVERRIDES.length + 1;
    DataStream<ControlMessage> control =
        env.fromSource(
                new DataGeneratorSource<>(
                    (GeneratorFunction<Long, ControlMessage>) i -> control(i + firstControl),
                    Long.MAX_VALUE,
                    RateLimiterStrategy.perSecond(10),
                    WireTypes.CONTROL_MESSAGE),
                WatermarkStrategy.<ControlMessage>forMonotonousTimestamps()
                    .withTimestampAssigner((c, ts) -> c.time()),
                "control")
            .setParallelism(1)
            .uid(crawl ? "control" : "control-restored");
    AttemptCollectingSink<CrawlRequest> requests =
        new AttemptCollectingSink<>("savepoint-jobs-" + System.nanoTime());
    HostScheduler.schedule(statuses, control, engineSettings, 0.0, false)
        .sinkTo(requests)
        .uid("requests");
    return new Running(env.executeAsync("savepoint-jobs"), requests);
  }
}
