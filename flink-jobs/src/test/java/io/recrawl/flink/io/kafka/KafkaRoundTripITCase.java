package io.recrawl.flink.io.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.testutil.BoundedKafkaJob;
import io.recrawl.flink.testutil.KafkaExtension;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Status and control JSON through a real Kafka broker (in-process KRaft), the job's Kafka sources
 * (with malformed records that must come out as dead letters), and the job's EXACTLY_ONCE Kafka
 * sinks, read back with a {@code read_committed} consumer. MiniCluster with RocksDB, no Kryo.
 */
class KafkaRoundTripITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      TestClusters.miniCluster(TestClusters.strict("500 ms"));

  @RegisterExtension
  static final KafkaExtension KAFKA =
      new KafkaExtension(
          "crawl.status", 2, "crawl.requests", 2, "crawl.deadletters", 1, "crawl.control", 1);

  @Test
  void statusToRequestsExactlyOnceWithDeadLetters() throws Exception {
    int hosts = 10;
    int perHost = 6;
    List<String> status = new ArrayList<>();
    for (int i = 0; i < hosts * perHost; i++) {
      String url = "http://host" + (i % hosts) + ".example/page" + i;
      status.add(
          "{\"url\":\""
              + url
              + "\",\"status\":\"FETCHED\",\"time\":"
              + (1_000_000 + i)
              + ",\"metadata\":{\"n\":\""
              + i
              + "\"}}");
    }
    KAFKA.kafka().send("crawl.status", status);
    KAFKA
        .kafka()
        .send(
            "crawl.status",
            List.of(
                "{\"url\":\"http://bad.example/\",\"status\":", // malformed_json
                "{\"url\":\"http://bad.example/\",\"status\":\"FETCHED\",\"time\":99999999999999}")); // time_in_future
    KAFKA.kafka().sendRaw("crawl.status", List.of(new byte[] {'{', (byte) 0xff, '}'})); // not UTF-8
    KAFKA
        .kafka()
        .send(
            "crawl.control",
            List.of(
                "{\"type\":\"lambda\",\"time\":1000000,\"epoch\":3,\"lambda0\":0.5}",
                "{\"type\":\"reboot\",\"time\":1000000}")); // unknown_type

    Map<String, Object> settings = KAFKA.jobSettings("roundtrip");
    settings.putAll(
        Map.of(
            "recrawl.deadletters.type", "kafka",
            "recrawl.output.delivery", "exactly-once",
            "recrawl.kafka.properties.client.dns.lookup",
                "use_all_dns_ips", // passed to every client
            "recrawl.control.tick-interval-ms", 0,
            "recrawl.parallelism", 2));
    RecrawlConfig config = RecrawlConfig.fromMap(settings);

    BoundedKafkaJob.run(config, "kafka-round-trip");

    List<ConsumerRecord<String, String>> requests =
        KAFKA
            .kafka()
            .read("crawl.requests", "read_committed", status.size(), Duration.ofSeconds(30));
    assertThat(requests).hasSize(status.size());
    Map<String, Integer> perHostCount = new HashMap<>();
    for (ConsumerRecord<String, String> r : requests) {
      CrawlRequest req = CrawlRequestCodec.parse(r.value(), 0).value();
      assertThat(r.key()).isEqualTo(req.host()); // keyed by host
      assertThat(req.url()).startsWith("http://" + req.host() + "/");
      perHostCount.merge(req.host(), 1, Integer::sum);
    }
    assertThat(perHostCount).hasSize(hosts).allSatisfy((h, n) -> assertThat(n).isEqualTo(perHost));
    assertThat(requests).extracting(ConsumerRecord::value).doesNotHaveDuplicates();
    // Written in transactions: each commit marker takes an offset, so a partition's log is longer
    // than its records.
    for (int partition = 0; partition < 2; partition++) {
      int p = partition;
      long records = requests.stream().filter(r -> r.partition() == p).count();
      if (records > 0) {
        assertThat(KAFKA.kafka().endOffset("crawl.requests", p))
            .as("log end offset of partition %d", p)
            .isGreaterThan(records);
      }
    }
    // One host's requests share one partition (and stay in order there).
    for (int h = 0; h < hosts; h++) {
      String host = "host" + h + ".example";
      assertThat(
              requests.stream()
                  .filter(r -> r.key().equals(host))
                  .map(ConsumerRecord::partition)
                  .distinct())
          .hasSize(1);
    }

    List<DeadLetter> dead =
        KAFKA
            .kafka()
            .read("crawl.deadletters", "read_committed", 4, Duration.ofSeconds(30))
            .stream()
            .map(r -> DeadLetterCodec.parse(r.value(), 0).value())
            .toList();
    assertThat(dead)
        .extracting(DeadLetter::reason)
        .containsExactlyInAnyOrder(
            "malformed_json", "time_in_future", "malformed_json", "unknown_type");
    assertThat(dead)
        .filteredOn(d -> !d.reason().equals("unknown_type"))
        .allSatisfy(d -> assertThat(d.detail()).startsWith("crawl.status/"));
    assertThat(dead)
        .filteredOn(d -> d.reason().equals("unknown_type"))
        .singleElement()
        .satisfies(d -> assertThat(d.detail()).startsWith("crawl.control/0@1: "));
    assertThat(dead)
        .extracting(DeadLetter::detail)
        .anySatisfy(d -> assertThat(d).endsWith("not UTF-8"));
  }
}
