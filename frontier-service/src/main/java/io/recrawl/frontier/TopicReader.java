package io.recrawl.frontier;

import java.time.Duration;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;

/**
 * A daemon thread that polls a subscribed (or assigned) consumer and hands each record's value on,
 * until it is closed; it closes the consumer on its way out.
 */
final class TopicReader implements AutoCloseable {

  private final KafkaConsumer<String, String> consumer;
  private final Thread thread;
  private volatile boolean closed;

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
