package io.recrawl.flink.io.deadletters;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.io.files.JsonLinesFileSink;
import io.recrawl.flink.io.kafka.JsonRecordSerializer;
import io.recrawl.flink.io.kafka.KafkaConnections;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterCodec;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Where dead letters go ({@code recrawl.deadletters.type}): JSON-lines files, a Kafka topic, or
 * nowhere.
 */
public final class DeadLetterSinks {

  private DeadLetterSinks() {}

  /** Attaches the configured sink. Dead letters are counted whichever it is. */
  public static void attach(DataStream<DeadLetter> deadLetters, RecrawlConfig config) {
    switch (config.get(RecrawlOptions.DEADLETTERS_TYPE)) {
      case "kafka" ->
          deadLetters.sinkTo(kafka(config)).name("deadletters-kafka").uid("deadletters-kafka");
      case "discard" ->
          deadLetters
              .sinkTo(new DiscardingSink<>())
              .name("deadletters-discard")
              .uid("deadletters-discard");
      default ->
          deadLetters
              .map(DeadLetterCodec::toJson, Types.STRING)
              .name("deadletters-json")
              .uid("deadletters-json")
              .sinkTo(
                  JsonLinesFileSink.create(
                      config.get(RecrawlOptions.DEADLETTERS_PATH), "deadletters"))
              .name("deadletters-files")
              .uid("deadletters-files");
    }
  }

  /** The Kafka sink of {@code recrawl.kafka.topic.deadletters}, keyed by reason. */
  public static KafkaSink<DeadLetter> kafka(RecrawlConfig config) {
    return KafkaConnections.sink(
        config,
        "deadletters",
        new JsonRecordSerializer<>(
            config.get(RecrawlOptions.TOPIC_DEADLETTERS),
            DeadLetter::reason,
            DeadLetterCodec::toJson));
  }
}
