package io.recrawl.flink.io.decisions;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.io.files.JsonLinesFileSink;
import io.recrawl.flink.io.kafka.JsonRecordSerializer;
import io.recrawl.flink.io.kafka.KafkaConnections;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Where the decision log goes ({@code recrawl.decisions.type}): nowhere, JSON-lines files or a
 * Kafka topic.
 */
public final class DecisionSinks {

  private DecisionSinks() {}

  /** Attaches the configured sink; with {@code none} the scheduler's decisions are dropped. */
  public static void attach(DataStream<ReleaseDecision> decisions, RecrawlConfig config) {
    switch (config.get(RecrawlOptions.DECISIONS_TYPE)) {
      case "kafka" ->
          decisions
              .sinkTo(
                  KafkaConnections.sink(
                      config,
                      "decisions",
                      new JsonRecordSerializer<>(
                          config.get(RecrawlOptions.TOPIC_DECISIONS),
                          d -> d.host,
                          ReleaseDecision::toJson)))
              .name("decisions-kafka")
              .uid("decisions-kafka");
      case "files" ->
          decisions
              .map(ReleaseDecision::toJson, Types.STRING)
              .name("decisions-json")
              .uid("decisions-json")
              .sinkTo(
                  JsonLinesFileSink.create(config.get(RecrawlOptions.DECISIONS_PATH), "decisions"))
              .name("decisions-files")
              .uid("decisions-files");
      default -> {} // none
    }
  }
}
