package io.recrawl.flink.io.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.functions.Function;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a record as one JSON Kafka message, keyed (e.g. by host, so that one host's requests stay
 * in one partition and in order).
 *
 * @param <T> the record type
 */
public final class JsonRecordSerializer<T> implements KafkaRecordSerializationSchema<T> {

  private static final long serialVersionUID = 1L;

  /** A serializable function from a record to a string. */
  @FunctionalInterface
  public interface ToText<T> extends Function {
    String apply(T value);
  }

  private final String topic;
  private final ToText<T> key;
  private final ToText<T> json;

  /**
   * @param key the message key, or null for none
   */
  public JsonRecordSerializer(String topic, ToText<T> key, ToText<T> json) {
    this.topic = topic;
    this.key = key;
    this.json = json;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      T value, KafkaSinkContext context, Long timestamp) {
    byte[] k = key == null ? null : key.apply(value).getBytes(StandardCharsets.UTF_8);
    return new ProducerRecord<>(
        topic, null, timestamp, k, json.apply(value).getBytes(StandardCharsets.UTF_8));
  }
}
