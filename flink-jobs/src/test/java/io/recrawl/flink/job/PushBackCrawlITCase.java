package io.recrawl.flink.job;

import static io.recrawl.flink.job.CrawlLoopITCase.await;
import static io.recrawl.flink.job.CrawlLoopITCase.count;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.testutil.KafkaExtension;
import io.recrawl.flink.testutil.LocalCrawler;
import io.recrawl.flink.testutil.PushBackSite;
import io.recrawl.flink.testutil.PushBackSite.Hit;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a server's push-back is obeyed across the whole loop. The production job and
 * StormCrawler's example topology ({@link LocalCrawler}), joined by Kafka, crawl a local site of
 * two hosts ({@link PushBackSite}); one answers its first page request with {@code 429 Too Many
 * Requests} and {@code Retry-After: 5}. Its next request comes no sooner than the Retry-After
 * allows, on the requests topic (the job's release) and in the site's access log (the crawler's
 * fetch), and the other host is crawled meanwhile.
 *
 * <p>A fetch error is retried after a second here ({@code fetch-error.backoff}), so that only the
 * push-back can keep the 429'd page away for the Retry-After: with {@code politeness.push-back:
 * false} the page comes back within about two seconds and this test fails.
 */
class PushBackCrawlITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = TestClusters.miniCluster(TestClusters.strict(null));

  @RegisterExtension
  static final KafkaExtension KAFKA =
      new KafkaExtension(
          "crawl.status", 2, "crawl.requests", 2, "crawl.deadletters", 1, "crawl.control", 1);

  static final int RETRY_AFTER_S = 5;
  static final long RETRY_AFTER_MS = RETRY_AFTER_S * 1000L;

  /**
   * The default back-off (politeness.backoff.initial, 1 min, less a jitter of at most 25 %): the
   * block must end with the Retry-After, well before it.
   */
  static final long SHORTEST_DEFAULT_BACKOFF_MS = 45_000;

  @TempDir Path dir;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aHostThatAnswers429IsNotRequestedBeforeItsRetryAfterAndOthersAreCrawledMeanwhile()
      throws Exception {
    try (PushBackSite site = new PushBackSite(RETRY_AFTER_S, 1)) {
      String busyHome = site.busyBase() + "/";
      String otherHome = site.otherBase() + "/";
      JobClient job = startJob(dir, List.of(busyHome, otherHome));
      try (LocalCrawler crawler =
          LocalCrawler.start(KAFKA.kafka().bootstrapServers(), dir, "crawler")) {
        // Done once the busy host's home page was fetched after its 429.
        List<StatusEvent> statuses =
            await(
                KAFKA,
                crawler,
                s ->
                    count(s, busyHome, CrawlStatus.FETCH_ERROR) >= 1
                        && count(s, busyHome, CrawlStatus.FETCHED) >= 1);
        List<Hit> log = site.accessLog();
        // Statuses first: every request that was answered is among the requests read after them.
        List<TimedRequest> requests = requests();
        String context =
            String.format(
                "%nstatuses: %s%nrequests: %s%naccess log: %s%ncrawler log: %s",
                statuses, requests, log, crawler.log());

        // The 429 reached the job: status, code and Retry-After, from the crawler's fetch.
        StatusEvent pushBack =
            statuses.stream()
                .filter(e -> e.url().equals(busyHome) && e.status() == CrawlStatus.FETCH_ERROR)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no FETCH_ERROR of " + busyHome + context));
        assertThat(pushBack.httpStatus()).as("http_status%s", context).isEqualTo(429);
        assertThat(pushBack.firstIgnoreCase("protocol.retry-after"))
            .as("protocol.retry-after%s", context)
            .isEqualTo(Integer.toString(RETRY_AFTER_S));
        assertThat(count(statuses, busyHome, CrawlStatus.FETCHED))
            .as("the busy host's home page fetched after the block%s", context)
            .isGreaterThanOrEqualTo(1);
        long eventTime = pushBack.time(); // when the crawler's status bolt saw the 429
        System.out.printf(
            "push-back timeline (ms from the 429 served): status event %d; busy host: %s;"
                + " other host: %s%n",
            eventTime - firstPushBack(log, site),
            timeline(log, site.busyHost(), firstPushBack(log, site)),
            timeline(log, site.otherHost(), firstPushBack(log, site)));

        // The site's view: the 429, then the busy host's next fetch no sooner than its Retry-After.
        List<Hit> busyPages =
            log.stream().filter(h -> h.host().equals(site.busyHost()) && h.isPage()).toList();
        assertThat(busyPages).as("busy host's page fetches%s", context).hasSizeGreaterThan(1);
        Hit served429 = busyPages.get(0);
        Hit next = busyPages.get(1);
        assertThat(served429.code()).as("first answer%s", context).isEqualTo(429);
        assertThat(next.code()).as("second answer%s", context).isEqualTo(200);
        assertThat(served429.timeMs())
            .as("429 served before its status")
            .isLessThanOrEqualTo(eventTime);
        assertThat(next.timeMs() - served429.timeMs())
            .as(
                "ms from the 429 to the busy host's next fetch (Retry-After %d s)%s",
                RETRY_AFTER_S, context)
            .isGreaterThanOrEqualTo(RETRY_AFTER_MS);

        // The job's view: no request to the busy host released between the 429 and its
        // Retry-After, counted from the event time of the 429 (the crawler's time of it), neither
        // in the request's time nor in the Kafka record's timestamp.
        List<TimedRequest> busyRequests =
            requests.stream().filter(r -> r.request().host().equals(site.busyHost())).toList();
        assertThat(busyRequests).as("requests of the busy host%s", context).hasSizeGreaterThan(1);
        assertThat(busyRequests.get(0).request().time())
            .as("the first request precedes the 429")
            .isLessThanOrEqualTo(eventTime);
        for (TimedRequest r : busyRequests.subList(1, busyRequests.size())) {
          assertThat(r.request().time())
              .as("release time of %s after the 429 at %d%s", r, eventTime, context)
              .isGreaterThanOrEqualTo(eventTime + RETRY_AFTER_MS);
          assertThat(r.kafkaTimestamp())
              .as("Kafka timestamp of %s after the 429 at %d%s", r, eventTime, context)
              .isGreaterThanOrEqualTo(eventTime + RETRY_AFTER_MS);
        }
        // ... and the block ended with the Retry-After, not with the default back-off.
        assertThat(busyRequests.get(1).request().time() - eventTime)
            .as("ms from the 429 to the busy host's next release%s", context)
            .isLessThan(SHORTEST_DEFAULT_BACKOFF_MS);

        // Meanwhile the other host was crawled: released and fetched within the block.
        assertThat(
                log.stream()
                    .filter(
                        h ->
                            h.host().equals(site.otherHost())
                                && h.isPage()
                                && h.code() == 200
                                && h.timeMs() > served429.timeMs()
                                && h.timeMs() < next.timeMs())
                    .count())
            .as("the other host's fetches while the busy host was blocked%s", context)
            .isGreaterThanOrEqualTo(2);
        assertThat(
                requests.stream()
                    .filter(
                        r ->
                            r.request().host().equals(site.otherHost())
                                && r.request().time() > eventTime
                                && r.request().time() < eventTime + RETRY_AFTER_MS)
                    .count())
            .as("the other host's requests while the busy host was blocked%s", context)
            .isGreaterThanOrEqualTo(2);
        // Nothing either side could not read.
        assertThat(KAFKA.kafka().committed("crawl.deadletters")).isEmpty();
      } finally {
        TestClusters.cancelAndWait(job);
      }
    }
  }

  /**
   * The production job on Kafka with {@code seeds}, configured like {@link CrawlLoopITCase}'s (a
   * site crawled in seconds), with push-back obeyed and fetch errors retried after a second.
   */
  static JobClient startJob(Path dir, List<String> seeds) throws Exception {
    Path seedFile = Files.write(dir.resolve("seeds.txt"), seeds);
    Map<String, Object> settings = KAFKA.jobSettings("push-back");
    settings.putAll(
        Map.ofEntries(
            Map.entry("recrawl.input.seeds", seedFile.toString()),
            Map.entry("recrawl.deadletters.type", "kafka"),
            Map.entry("recrawl.watermark.idleness-ms", 500),
            Map.entry("recrawl.control.tick-interval-ms", 200),
            Map.entry("recrawl.engine.due.bucket", "1 s"),
            Map.entry("recrawl.engine.timer.recheck", "1 min"),
            Map.entry("recrawl.engine.revisit.min-interval", "5 s"),
            Map.entry("recrawl.engine.revisit.max-interval", "10 s"),
            Map.entry("recrawl.engine.lease", "1 min"),
            Map.entry("recrawl.engine.fetch-error.backoff", "1 s"),
            Map.entry("recrawl.engine.politeness.push-back", true),
            Map.entry("recrawl.parallelism", 2)));
    return TestClusters.startJob(RecrawlConfig.fromMap(settings), "push-back");
  }

  /** When the site served its first 429. */
  static long firstPushBack(List<Hit> log, PushBackSite site) {
    return log.stream().filter(h -> h.code() == 429).findFirst().map(Hit::timeMs).orElse(0L);
  }

  /** A host's page fetches as "path code @ms" relative to {@code t0}. */
  static String timeline(List<Hit> log, String host, long t0) {
    return log.stream()
        .filter(h -> h.host().equals(host) && h.isPage())
        .map(h -> h.path() + " " + h.code() + " @" + (h.timeMs() - t0))
        .toList()
        .toString();
  }

  /** A request read from the topic, with its Kafka record timestamp. */
  record TimedRequest(CrawlRequest request, long kafkaTimestamp) {}

  /** Every committed request on the topic, in release-time order. */
  static List<TimedRequest> requests() {
    Properties p = new Properties();
    p.put("bootstrap.servers", KAFKA.kafka().bootstrapServers());
    p.put("isolation.level", "read_committed");
    p.put("enable.auto.commit", "false");
    List<TimedRequest> out = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor("crawl.requests").stream()
              .map(i -> new TopicPartition("crawl.requests", i.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))
          && System.nanoTime() < deadline) {
        consumer
            .poll(Duration.ofMillis(100))
            .forEach(
                r ->
                    out.add(
                        new TimedRequest(
                            CrawlRequestCodec.parse(r.value(), 0).value(), r.timestamp())));
      }
    }
    out.sort(Comparator.comparingLong(r -> r.request().time()));
    return out;
  }
}
