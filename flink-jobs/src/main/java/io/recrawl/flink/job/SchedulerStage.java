package io.recrawl.flink.job;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.StatusEvent;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The keyed scheduling step of the job: status events keyed by host and the control stream in,
 * crawl requests out. Input it refuses goes to the {@code DeadLetters.TAG} side output of the
 * returned operator.
 */
@FunctionalInterface
public interface SchedulerStage {

  SingleOutputStreamOperator<CrawlRequest> schedule(
      KeyedStream<StatusEvent, String> eventsByHost,
      DataStream<ControlMessage> control,
      RecrawlConfig config);
}
