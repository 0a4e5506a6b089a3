package io.recrawl.frontier;

import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes status events and control messages to Kafka. A write completes when the broker has the
 * record (acks=all, idempotent), which is when a PutURLs item may be acknowledged OK.
 */
final class TopicWriter implements AutoCloseable {

  private final KafkaProducer<String, String> producer;

  TopicWriter(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "recrawl-frontier-writer");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 2);
    // A broker that is away fails the write within this, and the item is acknowledged FAIL.
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    this.producer = new KafkaProducer<>(p);
  }

  /** Completes once the broker has the record, or exceptionally. */
  CompletableFuture<Void> write(String topic, String key, String value) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      producer.send(
          new ProducerRecord<>(topic, key, value),
          (meta, error) -> {
            if (error == null) {
              done.complete(null);
            } else {
              done.completeExceptionally(error);
            }
          });
    } catch (RuntimeException e) {
      done.completeExceptionally(e);
    }
    return done;
  }

  @Override
  public void close() {
    producer.close(java.time.Duration.ofSeconds(10));
  }
}
