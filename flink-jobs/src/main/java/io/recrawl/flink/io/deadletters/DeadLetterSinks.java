package io.recrawl.flink.io.deadletters;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.io.files.JsonLinesFileSink;
import io.recrawl.flink.io.kafka.JsonRecordSerializer;
import io.recrawl.flink.io.kafka.KafkaConnections;
import io.recrawl.flink.io.kafka.OutputGate;
import io.recrawl.flink.types.WireTypes;
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
    attach(deadLetters, config, null);
  }

  /**
   * Attaches a sink of dead letters from one origin: {@code null} for the job's main dead-letter
   * stream, else e.g. {@code requests} for the records that the requests' sink could not take
   * (their own operators, Kafka transactional ids and file names, to the same topic or directory).
   *
   * <p>A dead letter always fits in a Kafka message: its JSON is at most {@link
   * DeadLetter#MAX_JSON_BYTES} (about 105 KB); under a {@code max.request.size} below that, it is
   * cut further ({@link DeadLetter#fit}).
   */
  public static void attach(
      DataStream<DeadLetter> deadLetters, RecrawlConfig config, String origin) {
    String s = origin == null ? "" : "-" + origin;
    switch (config.get(RecrawlOptions.DEADLETTERS_TYPE)) {
      case "kafka" -> {
        long limit =
            OutputGate.kafkaLimit(config.kafkaProperties()) - 3L * DeadLetter.MAX_REASON_CHARS;
        DataStream<DeadLetter> fitting = deadLetters;
        if (limit < DeadLetter.MAX_JSON_BYTES) {
          fitting =
              deadLetters
                  .map(d -> d.fit(limit), WireTypes.DEAD_LETTER)
                  .name("deadletters-fit" + s)
                  .uid("deadletters-fit" + s);
        }
        fitting
            .sinkTo(kafka(config, origin))
            .name("deadletters-kafka" + s)
            .uid("deadletters-kafka" + s);
      }
      case "discard" ->
          deadLetters
              .sinkTo(new DiscardingSink<>())
              .name("deadletters-discard" + s)
              .uid("deadletters-discard" + s);
      default ->
          deadLetters
              .map(DeadLetterCodec::toJson, Types.STRING)
              .name("deadletters-json" + s)
              .uid("deadletters-json" + s)
              .sinkTo(
                  JsonLinesFileSink.create(
                      config.get(RecrawlOptions.DEADLETTERS_PATH), "deadletters" + s))
              .name("deadletters-files" + s)
              .uid("deadletters-files" + s);
    }
  }

  /** The Kafka sink of {@code recrawl.kafka.topic.deadletters}, keyed by reason. */
  public static KafkaSink<DeadLetter> kafka(RecrawlConfig config) {
    return kafka(config, null);
  }

  private static KafkaSink<DeadLetter> kafka(RecrawlConfig config, String origin) {
    return KafkaConnections.sink(
        config,
        origin == null ? "deadletters" : "deadletters-" + origin,
        new JsonRecordSerializer<>(
            config.get(RecrawlOptions.TOPIC_DEADLETTERS),
            DeadLetter::reason,
            DeadLetterCodec::toJson));
  }
}
