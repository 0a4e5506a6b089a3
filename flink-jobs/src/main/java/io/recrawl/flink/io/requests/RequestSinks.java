package io.recrawl.flink.io.requests;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.io.deadletters.DeadLetterSinks;
import io.recrawl.flink.io.deadletters.DeadLetters;
import io.recrawl.flink.io.files.JsonLinesFileSink;
import io.recrawl.flink.io.kafka.JsonRecordSerializer;
import io.recrawl.flink.io.kafka.KafkaConnections;
import io.recrawl.flink.io.kafka.OutputGate;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Where crawl requests go: the {@code crawl.requests} topic (keyed by host) or JSON-lines files.
 */
public final class RequestSinks {

  private RequestSinks() {}

  /**
   * Attaches the configured sink ({@code recrawl.output.type}), behind an {@link OutputGate}: a
   * request the sink cannot take (larger than the Kafka producer's {@code max.request.size}, or not
   * serializable) goes to the dead-letter sink, with the origin {@code requests}, instead of
   * failing the job.
   */
  public static void attach(DataStream<CrawlRequest> requests, RecrawlConfig config) {
    SingleOutputStreamOperator<CrawlRequest> writable =
        requests
            .process(gate(config), WireTypes.CRAWL_REQUEST)
            .name("requests-check")
            .uid("requests-check");
    DeadLetterSinks.attach(writable.getSideOutput(DeadLetters.TAG), config, "requests");
    attachSink(writable, config);
  }

  /** The check before the sink: the Kafka producer's limit, or none for files. */
  public static OutputGate<CrawlRequest> gate(RecrawlConfig config) {
    return new OutputGate<>(
        "requests",
        CrawlRequestCodec::toJson,
        CrawlRequest::host,
        CrawlRequestCodec::maxJsonBytes,
        config.kafkaOutput() ? OutputGate.kafkaLimit(config.kafkaProperties()) : Long.MAX_VALUE);
  }

  private static void attachSink(DataStream<CrawlRequest> requests, RecrawlConfig config) {
    if (config.kafkaOutput()) {
      requests.sinkTo(kafka(config)).name("requests-kafka").uid("requests-kafka");
    } else {
      requests
          .map(CrawlRequestCodec::toJson, Types.STRING)
          .name("requests-json")
          .uid("requests-json")
          .sinkTo(JsonLinesFileSink.create(config.get(RecrawlOptions.OUTPUT_PATH), "requests"))
          .name("requests-files")
          .uid("requests-files");
    }
  }

  /**
   * The Kafka sink: one JSON message per request, keyed by host so that a host's requests stay in
   * one partition, in order; exactly-once or at-least-once as configured.
   */
  public static KafkaSink<CrawlRequest> kafka(RecrawlConfig config) {
    return KafkaConnections.sink(
        config,
        "requests",
        new JsonRecordSerializer<>(
            config.get(RecrawlOptions.TOPIC_REQUESTS),
            CrawlRequest::host,
            CrawlRequestCodec::toJson));
  }
}
