package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import com.digitalpebble.stormcrawler.Metadata;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.storm.kafka.spout.KafkaTuple;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class CrawlRequestTranslatorTest {

  private final CrawlRequestTranslator translator = new CrawlRequestTranslator();

  private static ConsumerRecord<String, String> record(String value) {
    return new ConsumerRecord<>("crawl.requests", 3, 41, "example.com", value);
  }

  @Test
  void aCrawlRequestBecomesStormCrawlersUrlAndMetadata() {
    String json =
        CrawlRequestCodec.toJson(
            new CrawlRequest(
                "https://example.com/a",
                "example.com",
                Map.of("depth", List.of("1"), "tags", List.of("x", "y")),
                10,
                5,
                0.7,
                0.5,
                20));
    List<Object> t = translator.apply(record(json));
    assertThat(((KafkaTuple) t).getStream()).isEqualTo(Utils.DEFAULT_STREAM_ID);
    assertThat(t).hasSize(2);
    assertThat(t.get(0)).isEqualTo("https://example.com/a");
    Metadata md = (Metadata) t.get(1);
    assertThat(md.getFirstValue("depth")).isEqualTo("1");
    assertThat(md.getValues("tags")).containsExactly("x", "y");
    assertThat(md.size()).isEqualTo(2);
  }

  @Test
  void malformedRecordsGoToTheDeadLetterStreamWithAReason() {
    assertDeadLetter("{not json", "malformed_json");
    assertDeadLetter(null, "malformed_json");
    assertDeadLetter("[1]", "not_an_object");
    assertDeadLetter(
        "{\"url\": \"https://example.com/\", \"host\": \"example.com\"}", "missing_field:time");
    assertDeadLetter(
        CrawlRequestCodec.toJson(
            new CrawlRequest("ftp://example.com/f", "example.com", Map.of(), 1, 1, 1, 1, 1)),
        "bad_url");
  }

  private void assertDeadLetter(String value, String reason) {
    List<Object> t = translator.apply(record(value));
    assertThat(((KafkaTuple) t).getStream()).isEqualTo(KafkaDeadLetterBolt.STREAM);
    assertThat(t).hasSize(KafkaDeadLetterBolt.FIELDS.size());
    assertThat(t.get(0)).isEqualTo(reason);
    assertThat((String) t.get(1))
        .as("names where the record is")
        .startsWith("crawl.requests/3@41: ");
    assertThat(t.get(2)).isEqualTo(value == null ? "" : value);
    assertThat(t.get(3)).isInstanceOf(Long.class);
  }

  @Test
  void declaresBothStreams() {
    assertThat(translator.streams())
        .containsExactly(Utils.DEFAULT_STREAM_ID, KafkaDeadLetterBolt.STREAM);
    assertThat(translator.getFieldsFor(Utils.DEFAULT_STREAM_ID).toList())
        .containsExactly("url", "metadata");
    assertThat(translator.getFieldsFor(KafkaDeadLetterBolt.STREAM).toList())
        .containsExactly("reason", "detail", "raw", "time");
  }

  @Test
  void theSpoutConfigReadsTheSettings() {
    var cfg =
        RequestSpouts.spoutConfig(
            CrawlerSettings.fromConf(
                Map.of(
                    CrawlerSettings.BOOTSTRAP_SERVERS,
                    "broker:9092",
                    CrawlerSettings.REQUESTS_TOPIC,
                    "my.requests",
                    "recrawl.kafka.consumer.max.poll.records",
                    7)));
    assertThat(cfg.getKafkaProps())
        .containsEntry("bootstrap.servers", "broker:9092")
        .containsEntry("group.id", "recrawl-crawler")
        .containsEntry("max.poll.records", "7");
    assertThat(cfg.getTopicFilter().getTopicsString()).isEqualTo("my.requests");
    assertThat(cfg.getTranslator()).isInstanceOf(CrawlRequestTranslator.class);
  }
}
