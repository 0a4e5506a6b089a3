package io.recrawl.flink.testutil;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.io.control.ControlSources;
import io.recrawl.flink.io.status.StatusSources;
import io.recrawl.flink.job.JobSinks;
import io.recrawl.flink.job.JobSources;
import io.recrawl.flink.job.RecrawlJob;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The production job on Kafka with bounded versions of its Kafka sources (they stop at the offsets
 * of the job's start), so that it ends; the sinks are production's.
 */
public final class BoundedKafkaJob {

  private BoundedKafkaJob() {}

  /** Builds the job from {@code config} and runs it to its end. */
  public static void run(RecrawlConfig config, String name) throws Exception {
    JobSources bounded =
        new JobSources() {
          @Override
          public DataStream<Parsed<StatusEvent>> statusEvents(StreamExecutionEnvironment env) {
            return StatusSources.kafka(env, config, OffsetsInitializer.latest());
          }

          @Override
          public DataStream<Parsed<ControlMessage>> control(StreamExecutionEnvironment env) {
            return ControlSources.staticLambda(env, config)
                .union(ControlSources.kafka(env, config, OffsetsInitializer.latest()));
          }
        };
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    RecrawlJob.build(env, config, bounded, JobSinks.fromConfig(config), new PassThroughStage());
    env.execute(name);
  }
}
