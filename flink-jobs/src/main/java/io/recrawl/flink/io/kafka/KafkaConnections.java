package io.recrawl.flink.io.kafka;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** Builds the job's Kafka sources and sinks from the configuration, with one set of conventions. */
public final class KafkaConnections {

  private KafkaConnections() {}

  /**
   * A source of one topic. Offsets are committed to the group on checkpoints (for monitoring; Flink
   * restores from its own checkpointed offsets). Sources read transactional producers' output with
   * {@code read_committed}.
   *
   * @param stopAt null for an unbounded source; e.g. {@code OffsetsInitializer.latest()} in tests
   */
  public static <T> KafkaSource<T> source(
      RecrawlConfig config,
      String topic,
      String clientIdSuffix,
      KafkaRecordDeserializationSchema<T> deserializer,
      OffsetsInitializer stopAt) {
    KafkaSourceBuilder<T> b =
        KafkaSource.<T>builder()
            .setBootstrapServers(config.get(RecrawlOptions.KAFKA_BOOTSTRAP))
            .setTopics(topic)
            .setGroupId(config.get(RecrawlOptions.KAFKA_GROUP_ID))
            .setClientIdPrefix(config.get(RecrawlOptions.KAFKA_GROUP_ID) + "-" + clientIdSuffix)
            .setStartingOffsets(startingOffsets(config))
            .setDeserializer(deserializer)
            .setProperty("commit.offsets.on.checkpoint", "true")
            .setProperty("isolation.level", "read_committed");
    config.kafkaProperties().forEach(b::setProperty);
    if (stopAt != null) {
      b.setBounded(stopAt);
    }
    return b.build();
  }

  private static OffsetsInitializer startingOffsets(RecrawlConfig config) {
    return switch (config.get(RecrawlOptions.KAFKA_STARTING_OFFSETS)) {
      case "earliest" -> OffsetsInitializer.earliest();
      case "latest" -> OffsetsInitializer.latest();
      default -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
    };
  }

  /**
   * A sink with the configured delivery guarantee. Exactly-once uses Kafka transactions committed
   * on checkpoints, with the configured transaction timeout (it must not exceed the broker's {@code
   * transaction.max.timeout.ms}) and a transactional id prefix unique to this sink.
   */
  public static <T> KafkaSink<T> sink(
      RecrawlConfig config, String idSuffix, KafkaRecordSerializationSchema<T> serializer) {
    return sink(config, idSuffix, serializer, config.exactlyOnce());
  }

  /**
   * A sink with the given delivery guarantee, otherwise as {@link #sink(RecrawlConfig, String,
   * KafkaRecordSerializationSchema)}.
   */
  public static <T> KafkaSink<T> sink(
      RecrawlConfig config,
      String idSuffix,
      KafkaRecordSerializationSchema<T> serializer,
      boolean exactlyOnce) {
    var b =
        KafkaSink.<T>builder()
            .setBootstrapServers(config.get(RecrawlOptions.KAFKA_BOOTSTRAP))
            .setRecordSerializer(serializer)
            .setDeliveryGuarantee(
                exactlyOnce ? DeliveryGuarantee.EXACTLY_ONCE : DeliveryGuarantee.AT_LEAST_ONCE);
    config.kafkaProperties().forEach(b::setProperty);
    if (exactlyOnce) {
      b.setTransactionalIdPrefix(
              config.get(RecrawlOptions.OUTPUT_TRANSACTIONAL_ID_PREFIX) + "-" + idSuffix)
          .setProperty(
              "transaction.timeout.ms",
              String.valueOf(config.get(RecrawlOptions.OUTPUT_TRANSACTION_TIMEOUT_MS)));
    }
    return b.build();
  }
}
