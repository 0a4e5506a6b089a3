package io.recrawl.flink.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.testutil.KafkaExtension;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job with a global budget, as configured for production: status events from a real Kafka
 * broker (in-process KRaft), two scheduler subtasks on RocksDB, their demand reports summed by the
 * controller, and its λ_0 sent through the control topic back to the schedulers. Checked on the
 * topics themselves: the controller prices a budget below demand, and pages released afterwards are
 * released at that price.
 */
class GlobalLambdaLoopITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      TestClusters.miniCluster(TestClusters.strict("500 ms"));

  @RegisterExtension
  static final KafkaExtension KAFKA =
      new KafkaExtension("crawl.status", 2, "crawl.requests", 2, "crawl.control", 1);

  private static final long HOUR = 3_600_000L;
  private static final long DAY = 24 * HOUR;

  /** Pages fetched {@code ago} ms before now that change once a day, of the given weight. */
  private static List<String> fetched(
      String hostPrefix, int hosts, int perHost, long ago, double weight) {
    long time = System.currentTimeMillis() - ago;
    List<String> out = new ArrayList<>();
    for (int h = 0; h < hosts; h++) {
      for (int p = 0; p < perHost; p++) {
        String url = "http://" + hostPrefix + h + ".example/page" + p;
        out.add(
            "{\"url\":\""
                + url
                + "\",\"status\":\"FETCHED\",\"time\":"
                + time
                + ",\"changed\":true,\"weight\":"
                + weight
                + ",\"metadata\":{\"recrawl.change-rate\":\"1\"}}");
      }
    }
    return out;
  }

  @Test
  void theControllersPriceReachesTheSchedulersThroughTheControlTopic() throws Exception {
    // 400 pages fetched an hour ago, which would take about 400 crawls a day at a price of 0.3 and
    // far more at 0: a budget of 500 a day is priced above 0. (Until the first price they go out at
    // 0. In the test's minute of event time that budget allows under one crawl, so once priced they
    // wait: V grows by days, not seconds.)
    KAFKA.kafka().send("crawl.status", fetched("first", 20, 20, HOUR, 1));
    Map<String, Object> settings = KAFKA.jobSettings("lambda-loop");
    settings.putAll(
        Map.ofEntries(
            Map.entry("recrawl.deadletters.type", "discard"),
            Map.entry("recrawl.watermark.idleness-ms", 500),
            Map.entry("recrawl.control.tick-interval-ms", 200),
            Map.entry("recrawl.controller.budget", 500),
            Map.entry("recrawl.controller.period-ms", 1_000),
            // Hosts far from their own limit: their threshold is then λ_0 itself.
            Map.entry("recrawl.engine.host.max-rate", 8_640_000),
            // Nobody answers the requests here: a lease longer than the test keeps the pages in
            // flight
            // instead of re-releasing them.
            Map.entry("recrawl.engine.lease", "3 d"),
            Map.entry("recrawl.parallelism", 2)));
    // Checkpoints commit the crawl requests' transactions (exactly-once, the default delivery).
    JobClient job = TestClusters.startJob(RecrawlConfig.fromMap(settings), "global-lambda-loop");
    try {
      // The controller's prices (epoch > 0; the configured static λ_0 has epoch 0).
      List<ControlMessage> prices = controllerPrices(1, Duration.ofSeconds(90));
      assertThat(prices).as("a price above 0 for a budget below demand").isNotEmpty();
      // Pages worth ten times as much, fetched a day ago, arrive now: V = 10 (1 - 2/e) = 2.6, far
      // above any price this budget sets, so they go at once, at the price the schedulers hold now.
      KAFKA.kafka().send("crawl.status", fetched("second", 10, 10, DAY, 10));
      List<CrawlRequest> second = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (second.size() < 100 && System.nanoTime() < deadline) {
        second =
            KAFKA
                .kafka()
                .read("crawl.requests", "read_committed", Integer.MAX_VALUE, Duration.ofSeconds(1))
                .stream()
                .map(r -> CrawlRequestCodec.parse(r.value(), 0).value())
                .filter(r -> r.host().startsWith("second"))
                .toList();
      }
      assertThat(second.stream().map(CrawlRequest::url).distinct())
          .as("requests of the second batch: %s", second)
          .hasSize(100);
      Set<Double> published = new TreeSet<>();
      controllerPrices(1, Duration.ofSeconds(1)).forEach(m -> published.add(m.globalLambda()));
      assertThat(second)
          .allSatisfy(
              r ->
                  assertThat(published)
                      .as("thresholds of the released pages")
                      .contains(r.threshold()));
      assertThat(second).allSatisfy(r -> assertThat(r.threshold()).isPositive());
      assertThat(published.stream().filter(l -> l > 0)).isNotEmpty();

      // The budget raised a hundredfold on the control topic: the next prices are lower.
      List<ControlMessage> before = controllerPrices(1, Duration.ofSeconds(1));
      ControlMessage last = before.get(before.size() - 1);
      long raised = System.currentTimeMillis();
      KAFKA
          .kafka()
          .send(
              "crawl.control",
              List.of("{\"type\":\"budget\",\"time\":" + raised + ",\"budget\":50000}"));
      List<ControlMessage> after = new ArrayList<>();
      deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (after.size() < 2 && System.nanoTime() < deadline) {
        after = allPrices().stream().filter(m -> m.time() > raised + 1_000).toList();
      }
      assertThat(after)
          .as("prices after the budget message")
          .isNotEmpty()
          .allSatisfy(m -> assertThat(m.globalLambda()).isLessThan(last.globalLambda()));
    } finally {
      TestClusters.cancelAndWait(job);
    }
  }

  /**
   * The controller's LAMBDA messages on the control topic with a price above 0 (waits for {@code
   * atLeast}).
   */
  private static List<ControlMessage> controllerPrices(int atLeast, Duration timeout) {
    List<ControlMessage> out;
    long deadline = System.nanoTime() + timeout.toNanos();
    do {
      out = allPrices().stream().filter(m -> m.globalLambda() > 0).toList();
    } while (out.size() < atLeast && System.nanoTime() < deadline);
    return out;
  }

  /** Every LAMBDA message of the controller on the control topic so far, in order. */
  private static List<ControlMessage> allPrices() {
    ControlMessageCodec codec = new ControlMessageCodec(-1);
    List<ControlMessage> out = new ArrayList<>();
    for (ConsumerRecord<String, String> r :
        KAFKA
            .kafka()
            .read("crawl.control", "read_committed", Integer.MAX_VALUE, Duration.ofMillis(500))) {
      ControlMessage m = codec.parse(r.value(), 0).value();
      if (m.kind() == ControlMessage.Kind.LAMBDA) {
        assertThat(r.key()).isEqualTo("lambda");
        assertThat(m.epoch()).as("the tick's time").isEqualTo(m.time());
        out.add(m);
      }
    }
    return out;
  }
}
