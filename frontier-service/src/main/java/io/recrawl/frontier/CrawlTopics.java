package io.recrawl.frontier;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's side of the job's topics: status events and host-rate overrides out, crawl requests
 * in. A status event is checked by the job's own codec before it is sent, so that what the job
 * would refuse is refused here, with the codec's reason.
 */
final class CrawlTopics implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CrawlTopics.class);

  /** What became of a status event given to Kafka: sent, or failed with an error to resend. */
  interface Sent {
    void sent(Exception error);
  }

  private final FrontierSettings settings;
  private final StatusEventCodec codec;
  private final KafkaProducer<String, String> producer;
  private final TopicReader reader;

  CrawlTopics(FrontierSettings settings, Consumer<CrawlRequest> released) {
    this.settings = settings;
    this.codec =
        new StatusEventCodec(
            settings.partitionMode(),
            StatusEventCodec.DEFAULT_MAX_FUTURE_MS,
            StatusEventCodec.DEFAULT_MAX_CHARS);
    this.producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.LINGER_MS_CONFIG, "20"),
            new StringSerializer(),
            new StringSerializer());
    KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, settings.groupId(),
                // A new group reads what the job released before it joined; what is stale by then
                // (its lease ran out) the outbox drops.
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                // An instance that died without leaving hands its partitions on within seconds.
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000",
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "3000",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true"),
            new StringDeserializer(),
            new StringDeserializer());
    consumer.subscribe(List.of(settings.requestsTopic()));
    this.reader =
        new TopicReader(consumer, "recrawl-frontier-requests", json -> read(json, released));
  }

  /**
   * Checks a status event with the job's codec: the event and JSON the job will read, or its
   * refusal (a dead letter's reason and detail).
   */
  Parsed<StatusEventCodec.Encoded> check(StatusEvent e, long now) {
    return codec.encode(e, now);
  }

  /**
   * Sends a status event that {@link #check} accepted, keyed by its host as the job partitions
   * them.
   */
  void send(StatusEventCodec.Encoded checked, Sent whenSent) {
    try {
      producer.send(
          new ProducerRecord<>(settings.statusTopic(), checked.event().host(), checked.json()),
          (metadata, error) -> whenSent.sent(error));
    } catch (RuntimeException e) {
      whenSent.sent(e);
    }
  }

  /** The producer of the job's input topics, shared with {@link JobQueries}. */
  KafkaProducer<String, String> producer() {
    return producer;
  }

  /** Sends a host-rate override on the control topic (0 removes it). */
  void hostRate(String host, double crawlsPerDay, long now) throws Exception {
    control(ControlMessage.hostRate(now, key(host), crawlsPerDay));
  }

  /** Sends a host's cap on its pages on the control topic (0 removes it). */
  void hostLimit(String host, long maxPages, long now) throws Exception {
    control(ControlMessage.hostLimit(now, key(host), maxPages));
  }

  /** Sends the crawl's budget, crawls per day, to the job's global lambda controller. */
  void budget(double crawlsPerDay, long now) throws Exception {
    control(ControlMessage.budget(now, crawlsPerDay));
  }

  private String key(String host) {
    return HostKeys.of(settings.partitionMode()).keyOfHost(host);
  }

  private void control(ControlMessage m) throws Exception {
    producer
        .send(new ProducerRecord<>(settings.controlTopic(), ControlMessageCodec.toJson(m)))
        .get();
  }

  private static void read(String json, Consumer<CrawlRequest> released) {
    Parsed<CrawlRequest> p = CrawlRequestCodec.parse(json, System.currentTimeMillis());
    if (p.ok()) {
      released.accept(p.value());
    } else {
      LOG.warn("unreadable crawl request skipped: {}", p.deadLetter().detail());
    }
  }

  @Override
  public void close() {
    reader.close();
    producer.close(Duration.ofSeconds(5));
  }
}
