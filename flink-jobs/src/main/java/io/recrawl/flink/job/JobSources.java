package io.recrawl.flink.job;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.io.control.ControlSources;
import io.recrawl.flink.io.status.StatusSources;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job's inputs, each already parsed (value or dead letter) and with event-time watermarks.
 * Production takes them from the configuration; tests inject bounded ones.
 */
public interface JobSources {

  /** Status events: from Kafka or files, plus seeds. */
  DataStream<Parsed<StatusEvent>> statusEvents(StreamExecutionEnvironment env);

  /** The control stream: global lambda, clock ticks, host rate overrides. Must carry watermarks. */
  DataStream<Parsed<ControlMessage>> control(StreamExecutionEnvironment env);

  /** The sources named by the configuration. */
  static JobSources fromConfig(RecrawlConfig config) {
    return new JobSources() {
      @Override
      public DataStream<Parsed<StatusEvent>> statusEvents(StreamExecutionEnvironment env) {
        return StatusSources.fromConfig(env, config);
      }

      @Override
      public DataStream<Parsed<ControlMessage>> control(StreamExecutionEnvironment env) {
        return ControlSources.fromConfig(env, config);
      }
    };
  }
}
