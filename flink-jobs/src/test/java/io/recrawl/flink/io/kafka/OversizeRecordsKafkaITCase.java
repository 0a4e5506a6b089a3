package io.recrawl.flink.io.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.testutil.BoundedKafkaJob;
import io.recrawl.flink.testutil.KafkaExtension;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A 1 MB status event, a request too large for the producer and a URL with a control character go
 * through a real broker and the job's exactly-once Kafka sinks; each becomes one bounded dead
 * letter, and the job ends instead of failing on a record that Kafka refuses.
 */
class OversizeRecordsKafkaITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      TestClusters.miniCluster(TestClusters.strict("500 ms"));

  @RegisterExtension
  static final KafkaExtension KAFKA =
      new KafkaExtension(
          "crawl.status", 1, "crawl.requests", 1, "crawl.deadletters", 1, "crawl.control", 1);

  /** The job's producers take at most this, so that a valid status can make a request above it. */
  private static final int MAX_REQUEST_SIZE = 600_000;

  @Test
  void oneMegabyteStatusAndOversizeRequestBecomeBoundedDeadLetters() throws Exception {
    String huge =
        "{\"url\":\"http://big.example/\",\"status\":\""
            + "X".repeat(1_000_000)
            + "\",\"time\":1000000}";
    String bigMetadata =
        "{\"url\":\"http://fat.example/p\",\"status\":\"FETCHED\",\"time\":1000000,"
            + "\"metadata\":{\"blob\":\""
            + "a".repeat(700_000)
            + "\"}}";
    assertThat(huge.getBytes(StandardCharsets.UTF_8).length).isGreaterThan(1_000_000);
    KAFKA
        .kafka()
        .send(
            "crawl.status",
            List.of(
                "{\"url\":\"HTTP://OK.example:80\",\"status\":\"FETCHED\",\"time\":1000000}",
                huge,
                bigMetadata,
                "{\"url\":\"\\u0001http://ok.example/b\",\"status\":\"FETCHED\",\"time\":1000000}"));

    Map<String, Object> settings = KAFKA.jobSettings("oversize");
    settings.putAll(
        Map.of(
            "recrawl.deadletters.type",
            "kafka",
            "recrawl.output.delivery",
            "exactly-once",
            "recrawl.kafka.properties.max.request.size",
            String.valueOf(MAX_REQUEST_SIZE),
            "recrawl.control.tick-interval-ms",
            0,
            "recrawl.parallelism",
            1));
    RecrawlConfig config = RecrawlConfig.fromMap(settings);
    BoundedKafkaJob.run(config, "oversize-records");

    List<ConsumerRecord<String, String>> requests =
        KAFKA.kafka().read("crawl.requests", "read_committed", 1, Duration.ofSeconds(30));
    assertThat(requests)
        .singleElement()
        .satisfies(
            r ->
                assertThat(CrawlRequestCodec.parse(r.value(), 0).value().url())
                    .isEqualTo("http://ok.example/"));

    List<ConsumerRecord<String, String>> records =
        KAFKA.kafka().read("crawl.deadletters", "read_committed", 3, Duration.ofSeconds(30));
    assertThat(records)
        .allSatisfy(
            r ->
                assertThat(r.value().getBytes(StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(DeadLetter.MAX_JSON_BYTES));
    List<DeadLetter> dead =
        records.stream().map(r -> DeadLetterCodec.parse(r.value(), 0).value()).toList();
    assertThat(dead)
        .extracting(DeadLetter::reason)
        .containsExactlyInAnyOrder("unknown_status", "output_too_large", "bad_url");
    assertThat(dead)
        .filteredOn(d -> d.reason().equals("output_too_large"))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.detail()).contains("requests record of").contains("bytes");
              assertThat(d.raw()).startsWith("{\"url\":\"http://fat.example/p\"");
            });
  }
}
