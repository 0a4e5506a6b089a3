package io.recrawl.flink.io.control;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.io.kafka.JsonRecordDeserializer;
import io.recrawl.flink.io.kafka.KafkaConnections;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.Parsed;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The broadcast control stream: the static global lambda, wall-clock ticks, and the {@code
 * crawl.control} topic. It always carries watermarks: a broadcast input without them would hold the
 * scheduler's event time back forever.
 */
public final class ControlSources {

  /** The control topic counts as idle after at most this much silence. */
  static final long CONTROL_TOPIC_IDLENESS_MS = 1000;

  private ControlSources() {}

  /**
   * The configured control stream: the static lambda, then wall-clock ticks if an interval is set,
   * plus the control topic with Kafka input or the controller (when {@code
   * recrawl.kafka.topic.control} is not empty).
   */
  public static DataStream<Parsed<ControlMessage>> fromConfig(
      StreamExecutionEnvironment env, RecrawlConfig config) {
    DataStream<Parsed<ControlMessage>> control = clock(env, config);
    if (config.readsControlTopic()) {
      control = control.union(kafka(env, config, null));
    }
    return control;
  }

  /**
   * The static lambda (epoch 0, so any controller epoch overrides it) followed by a wall-clock tick
   * every {@code recrawl.control.tick-interval-ms}.
   *
   * <p>With ticks off, only the lambda. If the status input is bounded (files read once) this
   * source ends too, and the job is a replay that ends. Otherwise it must not end: an ended
   * source's watermark is the end of time, so once the status input went idle every timer would
   * fire at once. It then stays open, carries no watermarks and is marked idle, so event time moves
   * with the status events alone.
   */
  public static DataStream<Parsed<ControlMessage>> clock(
      StreamExecutionEnvironment env, RecrawlConfig config) {
    double lambda0 = config.get(RecrawlOptions.GLOBAL_LAMBDA);
    long interval = config.get(RecrawlOptions.CONTROL_TICK_INTERVAL_MS);
    WatermarkStrategy<Parsed<ControlMessage>> wallClock =
        WatermarkStrategy.<Parsed<ControlMessage>>forMonotonousTimestamps()
            .withTimestampAssigner((p, t) -> p.value().time());
    if (interval <= 0 && inputIsBounded(config)) {
      return staticLambda(env, config);
    }
    if (interval <= 0) {
      // The lambda again once a day (harmless: same epoch, same value) keeps the source open.
      DataGeneratorSource<Parsed<ControlMessage>> silent =
          new DataGeneratorSource<>(
              new StaticLambda(lambda0),
              Long.MAX_VALUE,
              RateLimiterStrategy.perSecond(1.0 / 86_400),
              WireTypes.PARSED_CONTROL_MESSAGE);
      long idle = Math.max(1_000, config.get(RecrawlOptions.WATERMARK_IDLENESS_MS));
      return env.fromSource(
              silent,
              WatermarkStrategy.<Parsed<ControlMessage>>noWatermarks()
                  .withIdleness(Duration.ofMillis(idle)),
              "control-static-lambda")
          .setParallelism(1)
          .uid("control-static-lambda");
    }
    DataGeneratorSource<Parsed<ControlMessage>> ticks =
        new DataGeneratorSource<>(
            new WallClock(lambda0),
            Long.MAX_VALUE,
            RateLimiterStrategy.perSecond(1000.0 / interval),
            WireTypes.PARSED_CONTROL_MESSAGE);
    return env.fromSource(ticks, wallClock, "control-ticks")
        .setParallelism(1) // one clock; the control stream is broadcast to every scheduler subtask
        .uid("control-ticks");
  }

  /**
   * Just the static lambda, then the end: for replays and tests whose inputs are bounded, so that
   * the whole job ends. Never use it with an unbounded status input (see {@link #clock}).
   */
  public static DataStream<Parsed<ControlMessage>> staticLambda(
      StreamExecutionEnvironment env, RecrawlConfig config) {
    long now = System.currentTimeMillis();
    return env.fromData(
            List.of(
                Parsed.ok(ControlMessage.lambda(now, 0, config.get(RecrawlOptions.GLOBAL_LAMBDA)))),
            WireTypes.PARSED_CONTROL_MESSAGE)
        .uid("control-static-lambda")
        .name("static-lambda")
        .assignTimestampsAndWatermarks(
            WatermarkStrategy.<Parsed<ControlMessage>>forMonotonousTimestamps()
                .withTimestampAssigner((p, t) -> p.value().time()))
        .uid("control-static-lambda-watermarks");
  }

  /**
   * Whether the control stream's watermarks count in the scheduler's event time. Not in a bounded
   * replay without ticks ({@link #staticLambda}): its one message is stamped with the wall clock,
   * and when it and its watermark reach the scheduler, against the status events, depends on the
   * machine's speed; event time is then the status files' alone (see {@code ReplayWatermarks}).
   */
  public static boolean carriesEventTime(RecrawlConfig config) {
    return config.get(RecrawlOptions.CONTROL_TICK_INTERVAL_MS) > 0 || !inputIsBounded(config);
  }

  /** True if the status input ends by itself: files read once, no Kafka. */
  public static boolean inputIsBounded(RecrawlConfig config) {
    return !config.kafkaInput() && config.get(RecrawlOptions.INPUT_MONITOR_MS) == 0;
  }

  /** Always the static lambda, stamped with the wall clock. */
  static final class StaticLambda implements GeneratorFunction<Long, Parsed<ControlMessage>> {
    private static final long serialVersionUID = 1L;
    private final double lambda0;

    StaticLambda(double lambda0) {
      this.lambda0 = lambda0;
    }

    @Override
    public Parsed<ControlMessage> map(Long index) {
      return Parsed.ok(ControlMessage.lambda(System.currentTimeMillis(), 0, lambda0));
    }
  }

  /**
   * Element 0 is the static lambda, every other element a tick, each stamped with the wall clock.
   */
  static final class WallClock implements GeneratorFunction<Long, Parsed<ControlMessage>> {
    private static final long serialVersionUID = 1L;
    private final double lambda0;

    WallClock(double lambda0) {
      this.lambda0 = lambda0;
    }

    @Override
    public Parsed<ControlMessage> map(Long index) {
      long now = System.currentTimeMillis();
      return Parsed.ok(
          index == 0 ? ControlMessage.lambda(now, 0, lambda0) : ControlMessage.tick(now));
    }
  }

  /**
   * The control topic's codec: {@code host_rate} overrides are keyed by the job's partition mode,
   * the key function of the status events, so that an override reaches its host.
   */
  static ControlMessageCodec codec(RecrawlConfig config) {
    return new ControlMessageCodec(
        config.partitionMode(), config.get(RecrawlOptions.INPUT_MAX_FUTURE_MS));
  }

  /** The {@code crawl.control} topic; bounded if {@code stopAt} is given (tests). */
  public static DataStream<Parsed<ControlMessage>> kafka(
      StreamExecutionEnvironment env, RecrawlConfig config, OffsetsInitializer stopAt) {
    ControlMessageCodec codec = codec(config);
    var source =
        KafkaConnections.source(
            config,
            config.get(RecrawlOptions.TOPIC_CONTROL),
            "control",
            new JsonRecordDeserializer<>(codec::parse, WireTypes.PARSED_CONTROL_MESSAGE),
            stopAt);
    WatermarkStrategy<Parsed<ControlMessage>> w =
        WatermarkStrategy.<Parsed<ControlMessage>>forMonotonousTimestamps()
            .withTimestampAssigner((p, t) -> p.ok() ? p.value().time() : Long.MIN_VALUE);
    // The control topic is mostly silent: without idleness it would stop event time. And soon idle:
    // a message (the controller's price, stamped with the tick it was made at) makes it active with
    // a watermark just behind the ticks', which holds event time still until it is idle again.
    long idle = config.get(RecrawlOptions.WATERMARK_IDLENESS_MS);
    w =
        w.withIdleness(
            Duration.ofMillis(
                idle > 0 ? Math.min(idle, CONTROL_TOPIC_IDLENESS_MS) : CONTROL_TOPIC_IDLENESS_MS));
    return env.fromSource(source, w, "control-kafka").uid("control-kafka");
  }
}
