package io.recrawl.live;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The configuration files of the live benchmark's systems. Every crawler shares one fetcher and
 * parser setup; each system adds what its frontier needs. docs/benchmarks.md says why each value.
 */
final class LiveConfigs {

  private LiveConfigs() {}

  /** Every crawler's fetch threads. */
  static final int FETCHER_THREADS = 10;

  /**
   * The door's crawlers' fetch threads in a capacity spell: few, so that the threads, not the
   * hosts' limits, are what the crawler's capacity is.
   */
  static final int SPELL_THREADS = 2;

  /** What every crawler shares: the agent, the fetcher and its politeness, the protocol. */
  static String crawlerCommon(long runSeconds) {
    return lines(
        "config:",
        "  http.agent.name: \"recrawl-live-bench\"",
        "  http.agent.version: \"0.1\"",
        "  http.agent.description: \"recrawl live benchmark\"",
        "  http.agent.url: \"https://example.org/recrawl-live\"",
        "  http.agent.email: \"crawler@example.org\"",
        "  fetcher.threads.number: " + FETCHER_THREADS,
        "  fetcher.threads.per.queue: 1",
        "  fetcher.server.delay: 1.0",
        "  fetcher.queue.mode: \"byHost\"",
        "  partition.url.mode: \"byHost\"",
        "  http.protocol.implementation: \"io.recrawl.crawler.PoliteProtocol\"",
        "  https.protocol.implementation: \"io.recrawl.crawler.PoliteProtocol\"",
        "  recrawl.protocol.implementation:"
            + " \"com.digitalpebble.stormcrawler.protocol.httpclient.HttpProtocol\"",
        "  topology.workers: 1",
        // A tuple that waits in a slow host's fetch queue must not time out: MemorySpout would
        // lose its URL for good, and the job would release it again.
        "  topology.message.timeout.secs: " + (runSeconds + 600));
  }

  /** The recrawl crawler: the request spout and the Kafka status updater. */
  static String recrawlCrawler(String bootstrap) {
    return lines(
        "config:",
        "  recrawl.kafka.bootstrap.servers: \"" + bootstrap + "\"",
        "  recrawl.spout.group.id: \"recrawl-live\"",
        "  recrawl.spout.offset-commit-period-ms: 1000",
        "  topology.max.spout.pending: 1000",
        "  parser.emitOutlinks: true");
  }

  /** A StormCrawler memory frontier with one of its schedulers. */
  static String memoryFrontier(String system, LiveTuning t, int pages) {
    StringBuilder b =
        new StringBuilder(
            lines(
                "config:",
                // Every URL may be in flight at once: a lower cap lets slow hosts' queues starve
                // the others.
                "  topology.max.spout.pending: " + (pages + 100),
                // Every page is a seed: an outlink found before its page's first status would put
                // the URL in MemorySpout's queue a second time.
                "  parser.emitOutlinks: false",
                "  parsefilters.config.file: \"memory-frontier-parsefilters.json\"",
                "  metadata.persist:",
                "    - signature",
                "    - fetch.statusCode",
                "    - fetchInterval",
                "    - signatureChangeDate",
                "    - last-modified",
                "    - recrawl.weight",
                "    - recrawl.shape",
                "    - recrawl.rate",
                "    - recrawl.lastFetch",
                "    - recrawl.errors",
                "    - recrawl.etag",
                "    - recrawl.signature",
                "    - recrawl.changeRate"));
    switch (system) {
      case LiveSystems.DEFAULT -> b.append(defaultScheduler(t));
      case LiveSystems.ADAPTIVE -> b.append(adaptiveScheduler(t));
      case LiveSystems.CRAWL_VALUE_SCHEDULER ->
          b.append(
              lines(
                  "  scheduler.class: \"io.recrawl.stormcrawler.CrawlValueScheduler\"",
                  String.format(
                      Locale.ROOT, "  recrawl.scheduler.threshold: %.6g", t.thetaRealDays()),
                  // The job's floor, and no ceiling: a page not worth a crawl is never crawled, as
                  // in the job.
                  String.format(
                      Locale.ROOT,
                      "  recrawl.scheduler.interval.min: %.6g",
                      LiveTuning.floorRealMinutes()),
                  "  recrawl.scheduler.interval.max: -1",
                  String.format(
                      Locale.ROOT,
                      "  fetchInterval.fetch.error: %.6g",
                      t.budgetIntervalRealMinutes()),
                  String.format(
                      Locale.ROOT,
                      "  recrawl.scheduler.estimator.prior-rate: %.6g",
                      t.priorRatePerRealDay())));
      default -> throw new IllegalArgumentException("not a memory-frontier system: " + system);
    }
    return b.toString();
  }

  /** StormCrawler's scheduler, unchanged, on the simulated day's clock. */
  private static String compressed(String scheduler, double secondsPerDay) {
    return lines(
        "  scheduler.class: \"io.recrawl.crawler.CompressedTimeScheduler\"",
        "  recrawl.compressed.scheduler.class: \"" + scheduler + "\"",
        String.format(Locale.ROOT, "  recrawl.compressed.seconds-per-day: %s", secondsPerDay));
  }

  /** The job's configuration: the trial's block of docs/first-crawl.md, set for the live loop. */
  static String job(String bootstrap, String seeds, String workDir, LiveTuning t) {
    StringBuilder b =
        new StringBuilder(
            lines(
                "recrawl.input.type: kafka",
                "recrawl.output.type: kafka",
                "recrawl.deadletters.type: kafka",
                "recrawl.decisions.type: kafka",
                "recrawl.kafka.bootstrap.servers: " + bootstrap,
                "recrawl.input.seeds: " + seeds,
                "recrawl.work-dir: " + workDir,
                String.format(Locale.ROOT, "recrawl.controller.budget: %.1f", t.crawlsPerDay()),
                "recrawl.controller.period-ms: 10000",
                "recrawl.control.tick-interval-ms: 1000",
                "recrawl.watermark.idleness-ms: 2000",
                "recrawl.watermark.out-of-orderness-ms: 1000",
                "recrawl.output.delivery: at-least-once",
                "recrawl.engine.due.bucket: 1 s",
                "recrawl.engine.lease: 1 min"));
    paceKeys(t).forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
    return b.toString();
  }

  /**
   * What the live loop's job sets for the web's pace, through Kafka and through URL Frontier alike:
   * the engine's (a 1 s floor, re-checks within a minute, the prior, If-Modified-Since's date) and
   * the controller's day, a simulated day.
   */
  static Map<String, String> paceKeys(LiveTuning t) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("recrawl.controller.day-ms", "" + Math.round(t.secondsPerDay() * 1000));
    m.put("recrawl.metadata.transfer", "[" + String.join(", ", t.transfer()) + "]");
    m.put("recrawl.engine.revisit.min-interval", "1 s");
    m.put("recrawl.engine.timer.recheck", "30 s");
    m.put("recrawl.engine.timer.horizon", "1 min");
    m.put("recrawl.engine.curve.min-threshold", "1e-10");
    m.put(
        "recrawl.engine.estimator.prior-rate",
        String.format(Locale.ROOT, "%.6g", t.priorRatePerRealDay()));
    return m;
  }

  /**
   * {@code bin/recrawl frontier}'s arguments for the live loop: the engine as the Kafka path has
   * it, a delay equal to that job's lease, a longer lease, and the price from the crawler's pull
   * (the default).
   */
  static List<String> frontier(Path dir, int port, int kafkaPort, LiveTuning t) {
    List<String> a = new ArrayList<>();
    a.addAll(
        List.of(
            "--dir",
            dir.toString(),
            "--port",
            "" + port,
            "--kafka-port",
            "" + kafkaPort,
            "--delay",
            "60"));
    paceKeys(t).forEach((k, v) -> a.add("-D" + k + "=" + v));
    // The first crawl goes out at once and waits in the outbox for a crawler that takes the budget
    // a second: a lease shorter than that wait releases every waiting URL again and again
    // (docs/url-frontier.md#delays-leases-and-restarts).
    a.add("-Drecrawl.engine.lease=10 min");
    // The room a host has in flight stays the Kafka path's (half its 1 min lease): at half the long
    // lease, a host the pull serves more slowly than its limit queued minutes of URLs in the
    // outbox.
    a.add("-Drecrawl.engine.host.in-flight=30 s");
    return a;
  }

  /**
   * The crawler of the URL Frontier systems. Its pull is capped at the budget, as a StormCrawler
   * crawl sets it: one URL from each of at most {@code ceil(budget)} queues an ask, an ask a second
   * at most ({@code spout.min.delay.queries}). What a URL Frontier system fetches is then what the
   * crawler can, and a system that fetches less leaves capacity unused. The scheduler's keys follow
   * (for {@code recrawl-frontier}, StormCrawler's DefaultScheduler, whose dates the job reads only
   * as "never again" or not). {@code maxPending} bounds the tuples in the topology: the spout asks
   * again only while fewer wait, so a fetcher that slows down slows the pull; {@code threads} > 0
   * sets its fetch threads.
   */
  static String urlFrontierCrawler(
      String address, double budget, int maxPending, int threads, String scheduler) {
    return lines(
            "config:",
            "  urlfrontier.address: \"" + address + "\"",
            "  urlfrontier.max.buckets: " + (int) Math.ceil(budget),
            "  urlfrontier.max.urls.per.bucket: 1",
            "  urlfrontier.delay.requestable: 60",
            "  spout.min.delay.queries: 1000",
            "  topology.max.spout.pending: " + maxPending,
            threads > 0 ? "  fetcher.threads.number: " + threads : "",
            "  parser.emitOutlinks: true",
            "  parsefilters.config.file: \"memory-frontier-parsefilters.json\"",
            "  metadata.persist:",
            "    - signature",
            "    - fetch.statusCode",
            "    - fetchInterval",
            "    - signatureChangeDate",
            "    - last-modified",
            "    - recrawl.weight")
        + scheduler;
  }

  /** StormCrawler's DefaultScheduler at the tuned interval, in compressed time. */
  static String defaultScheduler(LiveTuning t) {
    return compressed(
            "com.digitalpebble.stormcrawler.persistence.DefaultScheduler", t.secondsPerDay())
        + lines("  fetchInterval.default: " + LiveTuning.minutes(t.defaultIntervalDays()));
  }

  /** StormCrawler's AdaptiveScheduler at its tuned shape, in compressed time. */
  static String adaptiveScheduler(LiveTuning t) {
    return compressed(
            "com.digitalpebble.stormcrawler.persistence.AdaptiveScheduler", t.secondsPerDay())
        + lines(
            "  fetchInterval.default: " + LiveTuning.minutes(t.adaptive().defaultDays()),
            // An If-Modified-Since of the scheduler's own clock earns 304s for versions never
            // downloaded (docs/live-benchmark.md): off, StormCrawler's default.
            "  scheduler.adaptive.setLastModified: false",
            "  scheduler.adaptive.fetchInterval.min: " + LiveTuning.minutes(t.adaptive().minDays()),
            "  scheduler.adaptive.fetchInterval.max: " + LiveTuning.minutes(t.adaptive().maxDays()),
            String.format(
                Locale.ROOT,
                "  scheduler.adaptive.fetchInterval.rate.incr: %s",
                t.adaptive().incr()),
            String.format(
                Locale.ROOT,
                "  scheduler.adaptive.fetchInterval.rate.decr: %s",
                t.adaptive().decr()));
  }

  private static String lines(String... l) {
    return String.join("\n", List.of(l)) + "\n";
  }
}
