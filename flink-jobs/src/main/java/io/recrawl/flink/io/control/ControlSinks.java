package io.recrawl.flink.io.control;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.io.kafka.JsonRecordSerializer;
import io.recrawl.flink.io.kafka.KafkaConnections;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Where the controller's λ_0 goes: the {@code crawl.control} topic, which the schedulers' control
 * stream reads ({@link ControlSources#kafka}). That topic closes the loop: a Flink 2 job has no
 * iterations, and a topic also lets an operator watch the prices.
 */
public final class ControlSinks {

  /** Key of the controller's messages: one key, so that they stay in order in one partition. */
  static final String KEY = "lambda";

  private ControlSinks() {}

  /** Attaches the Kafka sink of the controller's messages. */
  public static void attach(DataStream<ControlMessage> lambdas, RecrawlConfig config) {
    // One writer, like the one controller: its messages stay in order.
    lambdas.sinkTo(kafka(config)).setParallelism(1).name("control-out").uid("control-out");
  }

  /**
   * Attaches the Kafka sink of the answers to queries, if the job reads the control topic that
   * carries them and {@code recrawl.kafka.topic.answers} is set. At-least-once: an answer is
   * awaited now, and its asker takes one answer per part.
   */
  public static void attachAnswers(DataStream<String> answers, RecrawlConfig config) {
    String topic = config.get(RecrawlOptions.TOPIC_ANSWERS);
    if (!config.readsControlTopic() || topic.isEmpty()) {
      return;
    }
    answers
        .sinkTo(
            KafkaConnections.sink(
                config,
                "answers",
                new JsonRecordSerializer<String>(topic, a -> ANSWER_KEY, a -> a),
                false))
        .name("answers-out")
        .uid("answers-out");
  }

  /** Key of the answers: the asker reads them all. */
  private static final String ANSWER_KEY = "answer";

  /**
   * At-least-once, whatever {@code recrawl.output.delivery} says: a price must reach the schedulers
   * at once, not at the next checkpoint's commit, and a duplicate is harmless (same epoch, same
   * value).
   */
  public static KafkaSink<ControlMessage> kafka(RecrawlConfig config) {
    return KafkaConnections.sink(
        config,
        "control",
        new JsonRecordSerializer<>(
            config.get(RecrawlOptions.TOPIC_CONTROL), m -> KEY, ControlMessageCodec::toJson),
        false);
  }
}
