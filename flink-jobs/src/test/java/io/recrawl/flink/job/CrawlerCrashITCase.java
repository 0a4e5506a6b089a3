package io.recrawl.flink.job;

import static io.recrawl.flink.job.CrawlLoopITCase.await;
import static io.recrawl.flink.job.CrawlLoopITCase.checkCrawl;
import static io.recrawl.flink.job.CrawlLoopITCase.count;
import static io.recrawl.flink.job.CrawlLoopITCase.requests;
import static io.recrawl.flink.job.CrawlLoopITCase.siteCrawledAndSeedRecrawled;
import static io.recrawl.flink.job.CrawlLoopITCase.startJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.KafkaExtension;
import io.recrawl.flink.testutil.LinkedSite;
import io.recrawl.flink.testutil.LocalCrawler;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing is lost when the crawler dies: the loop of {@link CrawlLoopITCase}, with the crawler's
 * JVM killed without warning once it has fetched the seed, and a new one started in its place (same
 * consumer group). The requests the dead crawler had taken but not answered are still in Kafka (the
 * spout commits an offset only once its tuple tree is acked), and so are those the job wrote while
 * no crawler ran: the new crawler fetches every page, and the seed again (a replay of its request
 * or the job's recrawl, at least once either way), with the same checks as the loop.
 */
class CrawlerCrashITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = TestClusters.miniCluster(TestClusters.strict(null));

  @RegisterExtension
  static final KafkaExtension KAFKA =
      new KafkaExtension(
          "crawl.status", 2, "crawl.requests", 2, "crawl.deadletters", 1, "crawl.control", 1);

  @TempDir Path dir;

  @Test
  @Timeout(value = 400, unit = TimeUnit.SECONDS)
  void aCrawlerKilledMidCrawlIsReplacedAndTheCrawlGoesOn() throws Exception {
    try (LinkedSite site = new LinkedSite()) {
      String home = site.base() + "/";
      JobClient job = startJob(KAFKA, dir, home);
      try {
        // Closed as well as killed: a failed assertion before the kill must not leave the JVM
        // running.
        try (LocalCrawler first =
            LocalCrawler.start(KAFKA.kafka().bootstrapServers(), dir, "first-crawler")) {
          List<StatusEvent> before =
              await(KAFKA, first, s -> count(s, home, CrawlStatus.FETCHED) >= 1);
          assertThat(count(before, home, CrawlStatus.FETCHED))
              .as("the seed fetched; crawler log: %s", first.log())
              .isEqualTo(1);
          first.kill();
          assertThat(first.isAlive()).isFalse();
        }
        try (LocalCrawler second =
            LocalCrawler.start(KAFKA.kafka().bootstrapServers(), dir, "second-crawler")) {
          List<StatusEvent> statuses =
              await(KAFKA, second, s -> siteCrawledAndSeedRecrawled(s, site));
          checkCrawl(KAFKA, site, statuses, requests(KAFKA), second);
        }
      } finally {
        TestClusters.cancelAndWait(job);
      }
    }
  }
}
