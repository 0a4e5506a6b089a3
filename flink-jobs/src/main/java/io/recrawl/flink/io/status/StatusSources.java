package io.recrawl.flink.io.status;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.io.kafka.JsonRecordDeserializer;
import io.recrawl.flink.io.kafka.KafkaConnections;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Where status events come from: the {@code crawl.status} Kafka topic, or JSON-lines files, plus an
 * optional seed file. Every source yields parsed events or dead letters, with event-time timestamps
 * and watermarks already assigned.
 */
public final class StatusSources {

  private StatusSources() {}

  /** The configured input ({@code recrawl.input.type}) plus the seeds, if any. */
  public static DataStream<Parsed<StatusEvent>> fromConfig(
      StreamExecutionEnvironment env, RecrawlConfig config) {
    DataStream<Parsed<StatusEvent>> events =
        config.kafkaInput() ? kafka(env, config, null) : files(env, config);
    DataStream<Parsed<StatusEvent>> seeds = seeds(env, config, System.currentTimeMillis());
    return seeds == null ? events : events.union(seeds);
  }

  /**
   * Event time = the event's {@code time}. Watermarks per Kafka partition (the source generates
   * them per split): bounded out-of-orderness, and a partition silent for the idleness time stops
   * holding event time back. Dead letters carry no event time: they never move a watermark.
   */
  public static WatermarkStrategy<Parsed<StatusEvent>> watermarks(RecrawlConfig config) {
    WatermarkStrategy<Parsed<StatusEvent>> w =
        WatermarkStrategy.<Parsed<StatusEvent>>forBoundedOutOfOrderness(
                Duration.ofMillis(config.get(RecrawlOptions.WATERMARK_OUT_OF_ORDERNESS_MS)))
            .withTimestampAssigner((p, kafkaTime) -> p.ok() ? p.value().time() : Long.MIN_VALUE);
    long idle = config.get(RecrawlOptions.WATERMARK_IDLENESS_MS);
    return idle > 0 ? w.withIdleness(Duration.ofMillis(idle)) : w;
  }

  static StatusEventCodec codec(RecrawlConfig config) {
    return new StatusEventCodec(
        config.partitionMode(),
        config.get(RecrawlOptions.INPUT_MAX_FUTURE_MS),
        Math.toIntExact(config.get(RecrawlOptions.INPUT_MAX_CHARS)));
  }

  /**
   * The {@code crawl.status} topic.
   *
   * @param stopAt null in production; an offsets initializer (e.g. latest) makes it bounded for
   *     tests
   */
  public static DataStream<Parsed<StatusEvent>> kafka(
      StreamExecutionEnvironment env, RecrawlConfig config, OffsetsInitializer stopAt) {
    StatusEventCodec codec = codec(config);
    var source =
        KafkaConnections.source(
            config,
            config.get(RecrawlOptions.TOPIC_STATUS),
            "status",
            new JsonRecordDeserializer<>(codec::parse, WireTypes.PARSED_STATUS_EVENT),
            stopAt);
    return env.fromSource(source, watermarks(config), "status-kafka").uid("status-kafka");
  }

  /**
   * JSON-lines files under {@code recrawl.input.path}; watched for new files if an interval is set.
   * Read once (a bounded replay), they are read by one subtask with {@link ReplayWatermarks}: the
   * same files then give the same event time, event by event, whatever the machine's speed.
   */
  public static DataStream<Parsed<StatusEvent>> files(
      StreamExecutionEnvironment env, RecrawlConfig config) {
    var builder =
        FileSource.forRecordStreamFormat(
            new TextLineInputFormat(), new Path(config.get(RecrawlOptions.INPUT_PATH)));
    long monitor = config.get(RecrawlOptions.INPUT_MONITOR_MS);
    if (monitor > 0) {
      builder.monitorContinuously(Duration.ofMillis(monitor));
    }
    StatusEventCodec codec = codec(config);
    var lines =
        env.fromSource(
                builder.build(), WatermarkStrategy.noWatermarks(), "status-files", Types.STRING)
            .uid("status-files");
    var nonBlank =
        lines.filter(line -> !line.isBlank()).name("skip-blank-lines").uid("status-files-nonblank");
    var parsed =
        nonBlank
            .map(new ParseStatusLine(codec), WireTypes.PARSED_STATUS_EVENT)
            .name("parse-status")
            .uid("status-files-parse");
    if (monitor > 0) {
      return parsed
          .assignTimestampsAndWatermarks(watermarks(config))
          .name("status-watermarks")
          .uid("status-files-watermarks");
    }
    // A bounded replay: one reader, and watermarks that are a function of the files alone, so that
    // the same files give the same requests whatever the machine's speed (see ReplayWatermarks).
    lines.setParallelism(1);
    nonBlank.setParallelism(1);
    parsed.setParallelism(1);
    return parsed
        .transform(
            "status-replay-watermarks",
            WireTypes.PARSED_STATUS_EVENT,
            new ReplayWatermarks(config.get(RecrawlOptions.WATERMARK_OUT_OF_ORDERNESS_MS)))
        .setParallelism(1)
        .uid("status-files-watermarks");
  }

  /**
   * The seed file ({@code recrawl.input.seeds}), each URL a DISCOVERED event at the seeds' time;
   * null if no seed file is configured. Read once.
   *
   * @param buildTime the seeds' time if {@code recrawl.input.seeds-time} is not set
   */
  public static DataStream<Parsed<StatusEvent>> seeds(
      StreamExecutionEnvironment env, RecrawlConfig config, long buildTime) {
    String path = config.get(RecrawlOptions.INPUT_SEEDS);
    if (path.isEmpty()) {
      return null;
    }
    long time = config.seedsTime(buildTime);
    StatusEventCodec codec = codec(config);
    var source =
        FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(path)).build();
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "seeds", Types.STRING)
        .uid("seeds")
        .filter(line -> !line.isBlank() && !line.strip().startsWith("#"))
        .name("skip-comments")
        .uid("seeds-noncomment")
        .map(new ParseSeedLine(codec, time), WireTypes.PARSED_STATUS_EVENT)
        .name("parse-seeds")
        .uid("seeds-parse")
        .assignTimestampsAndWatermarks(watermarks(config))
        .name("seed-watermarks")
        .uid("seeds-watermarks");
  }

  /** One JSON line to an event or a dead letter. */
  static final class ParseStatusLine implements MapFunction<String, Parsed<StatusEvent>> {
    private static final long serialVersionUID = 1L;
    private final StatusEventCodec codec;

    ParseStatusLine(StatusEventCodec codec) {
      this.codec = codec;
    }

    @Override
    public Parsed<StatusEvent> map(String line) {
      return codec.parse(line, System.currentTimeMillis());
    }
  }

  /** One seed line to a DISCOVERED event or a dead letter. */
  static final class ParseSeedLine implements MapFunction<String, Parsed<StatusEvent>> {
    private static final long serialVersionUID = 1L;
    private final StatusEventCodec codec;
    private final long time;

    ParseSeedLine(StatusEventCodec codec, long time) {
      this.codec = codec;
      this.time = time;
    }

    @Override
    public Parsed<StatusEvent> map(String line) {
      return codec.parseSeed(line, time);
    }
  }
}
