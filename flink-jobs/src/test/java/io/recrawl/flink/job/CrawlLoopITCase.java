package io.recrawl.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.testutil.CrawlRequests;
import io.recrawl.flink.testutil.KafkaExtension;
import io.recrawl.flink.testutil.LinkedSite;
import io.recrawl.flink.testutil.LocalCrawler;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop with real parts: the production job (host scheduler on RocksDB, checkpoints,
 * exactly-once Kafka output) and StormCrawler's own fetcher and parser in the example topology of
 * {@code status-updater} ({@link LocalCrawler}), joined by a real Kafka broker, crawling a local
 * web site. A seed goes in; the job requests it, the crawler fetches it and sends its status and
 * outlinks back, the job requests those, and recrawls the seed: every request and status crosses
 * the topics as in a deployment.
 */
class CrawlLoopITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = TestClusters.miniCluster(TestClusters.strict(null));

  @RegisterExtension
  static final KafkaExtension KAFKA =
      new KafkaExtension(
          "crawl.status", 2, "crawl.requests", 2, "crawl.deadletters", 1, "crawl.control", 1);

  static final Duration DEADLINE = Duration.ofSeconds(180);

  @TempDir Path dir;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aSeedIsCrawledItsLinksFollowedAndItIsRecrawledThroughKafka() throws Exception {
    try (LinkedSite site = new LinkedSite()) {
      String home = site.base() + "/";
      JobClient job = startJob(KAFKA, dir, home);
      try (LocalCrawler crawler =
          LocalCrawler.start(KAFKA.kafka().bootstrapServers(), dir, "crawler")) {
        List<StatusEvent> statuses =
            await(KAFKA, crawler, s -> siteCrawledAndSeedRecrawled(s, site));
        // Statuses first: a request was committed before the crawler could answer it, so every
        // status read has its request among the requests read after it.
        List<CrawlRequest> requests = requests(KAFKA);
        checkCrawl(KAFKA, site, statuses, requests, crawler);
        // The crawler fetched only what the job asked for: as many requests of each URL as fetches.
        Map<String, Long> requested =
            requests.stream()
                .collect(Collectors.groupingBy(CrawlRequest::url, Collectors.counting()));
        for (String url :
            statuses.stream()
                .filter(e -> e.status() == CrawlStatus.FETCHED)
                .map(StatusEvent::url)
                .distinct()
                .toList()) {
          assertThat(requested.getOrDefault(url, 0L))
              .as("requests of %s", url)
              .isGreaterThanOrEqualTo(count(statuses, url, CrawlStatus.FETCHED));
        }
      } finally {
        TestClusters.cancelAndWait(job);
      }
    }
  }

  /**
   * The production job on Kafka with {@code seed}: a site crawled in seconds (revisits 5-10 s
   * apart, one-second due buckets).
   */
  static JobClient startJob(KafkaExtension kafka, Path dir, String seed) throws Exception {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), seed + "\n");
    Map<String, Object> settings = kafka.jobSettings("crawl-loop");
    settings.putAll(
        Map.ofEntries(
            Map.entry("recrawl.input.seeds", seeds.toString()),
            Map.entry("recrawl.deadletters.type", "kafka"),
            Map.entry("recrawl.watermark.idleness-ms", 500),
            Map.entry("recrawl.control.tick-interval-ms", 200),
            Map.entry("recrawl.engine.due.bucket", "1 s"),
            Map.entry("recrawl.engine.timer.recheck", "1 min"),
            Map.entry("recrawl.engine.revisit.min-interval", "5 s"),
            Map.entry("recrawl.engine.revisit.max-interval", "10 s"),
            Map.entry("recrawl.engine.lease", "1 min"),
            Map.entry("recrawl.parallelism", 2)));
    // Checkpoints commit the requests' Kafka transactions; the crawler reads them read_committed.
    return TestClusters.startJob(RecrawlConfig.fromMap(settings), "crawl-loop");
  }

  /** The statuses on the topic once {@code done} holds of them, or when the deadline passes. */
  static List<StatusEvent> await(
      KafkaExtension kafka, LocalCrawler crawler, Predicate<List<StatusEvent>> done)
      throws Exception {
    List<StatusEvent> statuses = List.of();
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      assertThat(crawler.isAlive())
          .as("the crawler JVM is running; its log: %s", crawler.log())
          .isTrue();
      statuses = statuses(kafka);
      if (done.test(statuses)) {
        break;
      }
      Thread.sleep(500);
    }
    return statuses;
  }

  /** Every page of the site fetched, and the seed twice. */
  static boolean siteCrawledAndSeedRecrawled(List<StatusEvent> statuses, LinkedSite site) {
    return count(statuses, site.base() + "/", CrawlStatus.FETCHED) >= 2
        && count(statuses, site.base() + "/a.html", CrawlStatus.FETCHED) >= 1
        && count(statuses, site.base() + "/b.html", CrawlStatus.FETCHED) >= 1;
  }

  /**
   * The crawl went as it should: links followed, the seed recrawled, each host paced, nothing
   * refused.
   */
  static void checkCrawl(
      KafkaExtension kafka,
      LinkedSite site,
      List<StatusEvent> statuses,
      List<CrawlRequest> requests,
      LocalCrawler crawler)
      throws Exception {
    String home = site.base() + "/";
    assertThat(count(statuses, home, CrawlStatus.FETCHED))
        .as("FETCHED of the seed in %s; crawler log: %s", statuses, crawler.log())
        .isGreaterThanOrEqualTo(2);
    List<StatusEvent> homeFetches =
        statuses.stream()
            .filter(e -> e.url().equals(home) && e.status() == CrawlStatus.FETCHED)
            .toList();
    assertThat(homeFetches.get(1).time() - homeFetches.get(0).time())
        .as("revisit.min-interval")
        .isGreaterThanOrEqualTo(5_000);
    assertThat(homeFetches.get(1).first("signature"))
        .as("the same content: evidence of no change")
        .isNotNull()
        .isEqualTo(homeFetches.get(0).first("signature"));
    assertThat(statuses)
        .anySatisfy(
            e -> {
              assertThat(e.url()).isEqualTo(site.base() + "/b.html");
              assertThat(e.status()).isEqualTo(CrawlStatus.DISCOVERED);
            });
    assertThat(count(statuses, site.base() + "/a.html", CrawlStatus.FETCHED))
        .isGreaterThanOrEqualTo(1);
    assertThat(count(statuses, site.base() + "/b.html", CrawlStatus.FETCHED))
        .isGreaterThanOrEqualTo(1);
    // Politeness, on the output: one request a second at most per host (host.max-rate 86400).
    CrawlRequests.assertSpacedPerHost(requests, 1_000);
    // Nothing either side could not read.
    assertThat(kafka.kafka().committed("crawl.deadletters")).isEmpty();
  }

  static long count(List<StatusEvent> events, String url, CrawlStatus status) {
    return events.stream().filter(e -> e.url().equals(url) && e.status() == status).count();
  }

  static List<CrawlRequest> requests(KafkaExtension kafka) {
    return kafka.kafka().committed("crawl.requests").stream()
        .map(v -> CrawlRequestCodec.parse(v, 0).value())
        .toList();
  }

  static List<StatusEvent> statuses(KafkaExtension kafka) {
    return kafka.kafka().committed("crawl.status").stream()
        .map(v -> StatusEventCodec.withDefaults().parse(v, System.currentTimeMillis()).value())
        .toList();
  }
}
