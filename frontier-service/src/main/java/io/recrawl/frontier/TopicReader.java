package io.recrawl.frontier;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A daemon thread that polls a subscribed (or assigned) consumer and hands each record's value on,
 * until it is closed; it closes the consumer on its way out.
 */
final class TopicReader implements AutoCloseable {

  private final KafkaConsumer<String, String> consumer;
  private final Thread thread;
  private volatile boolean closed;

  /**
   * A reader of every partition of {@code topic} from its end as of now (fixed before this returns:
   * nothing written later is missed), outside any consumer group.
   *
   * @throws IllegalStateException the topic does not exist
   */
  static TopicReader fromEnd(
      String bootstrapServers, String topic, String name, Consumer<String> values) {
    KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                "false"),
            new StringDeserializer(),
            new StringDeserializer());
    List<TopicPartition> partitions = new ArrayList<>();
    consumer
        .partitionsFor(topic, Duration.ofSeconds(30))
        .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
    if (partitions.isEmpty()) {
      consumer.close();
      throw new IllegalStateException("topic " + topic + " does not exist");
    }
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position);
    return new TopicReader(consumer, name, values);
  }

  TopicReader(KafkaConsumer<String, String> consumer, String name, Consumer<String> values) {
    this.consumer = consumer;
    this.thread = new Thread(() -> read(values), name);
    thread.setDaemon(true);
    thread.start();
  }

  private void read(Consumer<String> values) {
    try {
      while (!closed) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) {
          values.accept(r.value());
        }
      }
    } catch (WakeupException stopping) {
      // close() woke the poll up
    } finally {
      consumer.close();
    }
  }

  @Override
  public void close() {
    closed = true;
    consumer.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
