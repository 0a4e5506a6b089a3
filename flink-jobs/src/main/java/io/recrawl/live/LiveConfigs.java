package io.recrawl.live;

import java.util.List;
import java.util.Locale;

/**
 * The configuration files of the live benchmark's systems. Every crawler shares one fetcher and
 * parser setup; each system adds what its frontier needs. docs/benchmarks.md says why each value.
 */
final class LiveConfigs {

  private LiveConfigs() {}

  /** What every crawler shares: the agent, the fetcher and its politeness, the protocol. */
  static String crawlerCommon(long runSeconds) {
    return lines(
        "config:",
        "  http.agent.name: \"recrawl-live-bench\"",
        "  http.agent.version: \"0.1\"",
        "  http.agent.description: \"recrawl live benchmark\"",
        "  http.agent.url: \"https://example.org/recrawl-live\"",
        "  http.agent.email: \"crawler@example.org\"",
        "  fetcher.threads.number: 10",
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
      case LiveSystems.DEFAULT ->
          b.append(
                  compressed(
                      "com.digitalpebble.stormcrawler.persistence.DefaultScheduler",
                      t.secondsPerDay()))
              .append(
                  lines("  fetchInterval.default: " + LiveTuning.minutes(t.defaultIntervalDays())));
      case LiveSystems.ADAPTIVE ->
          b.append(
                  compressed(
                      "com.digitalpebble.stormcrawler.persistence.AdaptiveScheduler",
                      t.secondsPerDay()))
              .append(
                  lines(
                      "  fetchInterval.default: " + LiveTuning.minutes(t.adaptive().defaultDays()),
                      // An If-Modified-Since of the scheduler's own clock earns 304s for versions
                      // never downloaded (docs/live-benchmark.md): off, StormCrawler's default.
                      "  scheduler.adaptive.setLastModified: false",
                      "  scheduler.adaptive.fetchInterval.min: "
                          + LiveTuning.minutes(t.adaptive().minDays()),
                      "  scheduler.adaptive.fetchInterval.max: "
                          + LiveTuning.minutes(t.adaptive().maxDays()),
                      String.format(
                          Locale.ROOT,
                          "  scheduler.adaptive.fetchInterval.rate.incr: %s",
                          t.adaptive().incr()),
                      String.format(
                          Locale.ROOT,
                          "  scheduler.adaptive.fetchInterval.rate.decr: %s",
                          t.adaptive().decr())));
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
    return lines(
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
        "recrawl.metadata.transfer: [last-modified]",
        "recrawl.engine.revisit.min-interval: 1 s",
        "recrawl.engine.timer.recheck: 30 s",
        "recrawl.engine.timer.horizon: 1 min",
        "recrawl.engine.due.bucket: 1 s",
        "recrawl.engine.lease: 1 min",
        "recrawl.engine.curve.min-threshold: 1e-10",
        String.format(
            Locale.ROOT, "recrawl.engine.estimator.prior-rate: %.6g", t.priorRatePerRealDay()));
  }

  private static String lines(String... l) {
    return String.join("\n", List.of(l)) + "\n";
  }
}
