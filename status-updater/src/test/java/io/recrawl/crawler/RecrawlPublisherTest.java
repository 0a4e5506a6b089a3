package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.crawler.RecrawlPublisher.Delivery;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterCodec;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class RecrawlPublisherTest {

  private static final long NOW = 1_795_334_400_000L;

  private final MockProducer<String, String> producer =
      new MockProducer<>(false, new StringSerializer(), new StringSerializer());
  private final List<Delivery> deliveries = new ArrayList<>();

  private RecrawlPublisher publisher(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    m.put(CrawlerSettings.BOOTSTRAP_SERVERS, "broker:9092");
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    CrawlerSettings s = CrawlerSettings.fromConf(m);
    return new RecrawlPublisher(
        s,
        new StatusEvents(s, List.of()),
        producer,
        Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));
  }

  private void publish(RecrawlPublisher p, String url, String status, String... kv) {
    Map<String, String[]> md = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      md.put(kv[i], new String[] {kv[i + 1]});
    }
    p.publishStatus(url, status, md, (d, e) -> deliveries.add(d));
  }

  @Test
  void aStatusIsAckedOnlyWhenKafkaConfirmsIt() {
    RecrawlPublisher p = publisher();
    publish(p, "HTTP://Example.COM:80/a", "FETCHED", "fetch.statusCode", "200", "signature", "s1");
    assertThat(deliveries).as("nothing before Kafka answers").isEmpty();
    ProducerRecord<String, String> r = producer.history().get(0);
    assertThat(r.topic()).isEqualTo("crawl.status");
    assertThat(r.key()).as("the normalised host key").isEqualTo("example.com");
    Parsed<StatusEvent> e = StatusEventCodec.withDefaults().parse(r.value(), NOW);
    assertThat(e.ok()).isTrue();
    assertThat(e.value().host()).isEqualTo("example.com");
    assertThat(e.value().time()).isEqualTo(NOW);
    assertThat(e.value().first("signature")).isEqualTo("s1");
    producer.completeNext();
    assertThat(deliveries).containsExactly(Delivery.SENT);
  }

  @Test
  void aFailedSendFailsTheTuple() {
    RecrawlPublisher p = publisher();
    publish(p, "http://example.com/a", "FETCH_ERROR");
    producer.errorNext(new TimeoutException("broker down"));
    assertThat(deliveries).containsExactly(Delivery.FAILED);
  }

  @Test
  void aStatusKafkaCanNeverTakeBecomesADeadLetterInsteadOfFailingForever() {
    RecrawlPublisher p = publisher();
    publish(p, "http://example.com/a", "FETCHED", "fetch.statusCode", "200");
    producer.errorNext(new RecordTooLargeException("the message is 1200000 bytes"));
    assertThat(deliveries).as("not acked until the dead letter is in Kafka").isEmpty();
    ProducerRecord<String, String> r = producer.history().get(1);
    assertThat(r.topic()).isEqualTo("crawl.deadletters");
    Parsed<DeadLetter> d = DeadLetterCodec.parse(r.value(), NOW);
    assertThat(d.value().reason()).isEqualTo("too_large");
    assertThat(d.value().raw()).contains("http://example.com/a");
    assertThat(d.value().detail()).contains("1200000 bytes");
    producer.completeNext();
    assertThat(deliveries).containsExactly(Delivery.DEAD_LETTERED);
  }

  @Test
  void aSendThatThrowsFailsTheTuple() {
    RecrawlPublisher p = publisher();
    producer.close();
    publish(p, "http://example.com/a", "FETCHED");
    assertThat(deliveries).containsExactly(Delivery.FAILED);
  }

  @Test
  void repeatedDiscoveredAreSkippedUnlessTheFirstSendFailed() {
    RecrawlPublisher p = publisher();
    publish(p, "http://example.com/b", "DISCOVERED");
    publish(p, "http://example.com/b", "DISCOVERED"); // while the first is in flight
    assertThat(deliveries).containsExactly(Delivery.DEDUPLICATED);
    producer.errorNext(new TimeoutException("broker down"));
    assertThat(deliveries).containsExactly(Delivery.DEDUPLICATED, Delivery.FAILED);
    publish(p, "http://example.com/b", "DISCOVERED"); // the replay is sent again
    producer.completeNext();
    publish(p, "http://example.com/b", "DISCOVERED");
    publish(p, "http://example.com/b", "FETCHED"); // only DISCOVERED is skipped
    producer.completeNext();
    assertThat(deliveries)
        .containsExactly(
            Delivery.DEDUPLICATED,
            Delivery.FAILED,
            Delivery.SENT,
            Delivery.DEDUPLICATED,
            Delivery.SENT);
    assertThat(producer.history()).hasSize(3);
  }

  @Test
  void withoutTheCacheEveryDiscoveredIsSent() {
    RecrawlPublisher p = publisher("status.updater.use.cache", false);
    publish(p, "http://example.com/b", "DISCOVERED");
    publish(p, "http://example.com/b", "DISCOVERED");
    assertThat(producer.history()).hasSize(2);
  }

  @Test
  void aStatusTheJobWouldRefuseBecomesADeadLetter() {
    RecrawlPublisher p = publisher();
    publish(p, "mailto:someone@example.com", "DISCOVERED");
    publish(p, "http://example.com/a", "DISCOVERED", "recrawl.change-rate", "often");
    producer.completeNext();
    producer.completeNext();
    assertThat(deliveries).containsExactly(Delivery.DEAD_LETTERED, Delivery.DEAD_LETTERED);
    List<String> reasons = new ArrayList<>();
    for (ProducerRecord<String, String> r : producer.history()) {
      assertThat(r.topic()).isEqualTo("crawl.deadletters");
      Parsed<DeadLetter> d = DeadLetterCodec.parse(r.value(), NOW);
      assertThat(d.ok()).isTrue();
      reasons.add(d.value().reason());
    }
    assertThat(reasons).containsExactly("bad_url", "bad_metadata");
  }

  @Test
  void withoutADeadLetterTopicADeadLetterIsOnlyCounted() {
    RecrawlPublisher p = publisher("recrawl.kafka.topic.deadletters", "");
    publish(p, "ftp://example.com/a", "FETCHED");
    assertThat(deliveries).containsExactly(Delivery.DROPPED);
    assertThat(producer.history()).isEmpty();
  }

  @Test
  void byDomainKeysGroupAHostsSubdomains() {
    RecrawlPublisher p = publisher("recrawl.partition.mode", "byDomain");
    publish(p, "https://news.bbc.co.uk/x", "DISCOVERED");
    assertThat(producer.history().get(0).key()).isEqualTo("bbc.co.uk");
  }
}
