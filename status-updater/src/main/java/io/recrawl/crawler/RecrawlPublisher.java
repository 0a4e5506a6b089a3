package io.recrawl.crawler;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterCodec;
import io.recrawl.wire.DeadLetterReason;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends status events and dead letters to Kafka and reports, once per input, whether Kafka has
 * them. Storm-free: the bolts turn the report into ack or fail.
 */
public final class RecrawlPublisher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RecrawlPublisher.class);

  /**
   * What became of one input. Only {@link #FAILED} means "not in Kafka": the tuple must be
   * replayed.
   */
  public enum Delivery {
    /** Kafka acknowledged the status event. */
    SENT,
    /**
     * A DISCOVERED for a URL this bolt recently sent: skipped, as StormCrawler's status updater
     * does.
     */
    DEDUPLICATED,
    /** The input could not be a valid event; Kafka acknowledged its dead letter. */
    DEAD_LETTERED,
    /** A dead letter with no dead-letter topic configured: logged and counted only. */
    DROPPED,
    /** The send failed. */
    FAILED
  }

  /** Called exactly once per input, possibly on the producer's I/O thread. */
  public interface Done {
    void done(Delivery delivery, Exception error);
  }

  private final CrawlerSettings settings;
  private final StatusEvents events;
  private final StatusEventCodec codec;
  private final HostKeys keys;
  private final Producer<String, String> producer;
  private final Clock clock;

  /**
   * URLs recently sent (or being sent), to skip repeated DISCOVERED; null when the cache is off.
   */
  private final Cache<String, Boolean> sent;

  public RecrawlPublisher(
      CrawlerSettings settings,
      StatusEvents events,
      Producer<String, String> producer,
      Clock clock) {
    this.settings = settings;
    this.events = events;
    this.codec =
        new StatusEventCodec(
            settings.partitionMode(),
            StatusEventCodec.DEFAULT_MAX_FUTURE_MS,
            StatusEventCodec.DEFAULT_MAX_CHARS);
    this.keys = HostKeys.of(settings.partitionMode());
    this.producer = producer;
    this.clock = clock;
    this.sent = settings.useCache() ? Caffeine.from(settings.cacheSpec()).build() : null;
  }

  /**
   * A producer for the settings: acks=all and idempotence, so that "acknowledged" means kept, in
   * order.
   */
  public static Producer<String, String> createProducer(CrawlerSettings settings) {
    Map<String, Object> props = new HashMap<>(settings.producerProperties());
    props.put("bootstrap.servers", settings.bootstrapServers());
    return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
  }

  /**
   * Publishes one status. The record's key is the URL's host key, so that one host's events stay in
   * one partition, in order.
   */
  public void publishStatus(String url, String status, Map<String, String[]> metadata, Done done) {
    long now = clock.millis();
    boolean discovered = CrawlStatus.DISCOVERED.name().equals(status);
    if (discovered && sent != null && sent.getIfPresent(url) != null) {
      done.done(Delivery.DEDUPLICATED, null);
      return;
    }
    String json;
    Parsed<StatusEvent> checked;
    try {
      CrawlStatus.valueOf(status);
      String host;
      try {
        host = keys.keyOf(url);
      } catch (IllegalArgumentException e) {
        host = ""; // the check below turns it into a bad_url dead letter
      }
      json = StatusEventCodec.toJson(events.toEvent(url, status, metadata, host, now));
      // What the job would refuse (bad URL, bad recrawl.change-rate, too large) goes to the dead
      // letters here, where the crawler's operator sees it, instead of being sent.
      checked = codec.parse(json, now);
    } catch (IllegalArgumentException e) {
      checked =
          Parsed.rejected(
              DeadLetter.of(
                  url + " " + status, DeadLetterReason.UNKNOWN_STATUS, e.getMessage(), now));
      json = null;
    }
    if (!checked.ok()) {
      publishDeadLetter(checked.deadLetter(), done);
      return;
    }
    if (sent != null) {
      // At send time, so that a DISCOVERED arriving while this is in flight is skipped. Kept when a
      // status other than DISCOVERED fails: that URL came in a crawl request, so the job knows it.
      sent.put(url, Boolean.TRUE);
    }
    String event = json;
    send(
        settings.statusTopic(),
        checked.value().host(),
        event,
        error -> {
          if (error == null) {
            done.done(Delivery.SENT, null);
          } else if (error instanceof RecordTooLargeException) {
            // Kafka will never take this record (max.request.size, or the topic's
            // max.message.bytes):
            // replaying the tuple would fail forever, so it becomes a dead letter, with its reason.
            publishDeadLetter(
                DeadLetter.of(
                    event,
                    DeadLetterReason.TOO_LARGE,
                    event.length() + " characters; Kafka refused the record: " + error.getMessage(),
                    clock.millis()),
                done);
          } else {
            if (discovered && sent != null) {
              sent.invalidate(url);
            }
            done.done(Delivery.FAILED, error);
          }
        });
  }

  /** Publishes a dead letter to the dead-letter topic, or only logs it when there is none. */
  public void publishDeadLetter(DeadLetter deadLetter, Done done) {
    if (settings.deadLettersTopic().isEmpty()) {
      LOG.warn(
          "dead letter ({} not set): {}: {}",
          CrawlerSettings.DEAD_LETTERS_TOPIC,
          deadLetter.reason(),
          deadLetter.detail());
      done.done(Delivery.DROPPED, null);
      return;
    }
    send(
        settings.deadLettersTopic(),
        null,
        DeadLetterCodec.toJson(deadLetter),
        error -> done.done(error == null ? Delivery.DEAD_LETTERED : Delivery.FAILED, error));
  }

  private interface Sent {
    void sent(Exception error);
  }

  private void send(String topic, String key, String value, Sent whenSent) {
    try {
      producer.send(
          new ProducerRecord<>(topic, key, value), (metadata, error) -> whenSent.sent(error));
    } catch (RuntimeException e) {
      // A closed producer, or metadata not available within max.block.ms.
      whenSent.sent(e);
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(30));
  }
}
