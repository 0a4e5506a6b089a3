package io.recrawl.flink.testutil;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.job.SchedulerStage;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.StatusEvent;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Test-only stand-in for the scheduler, to test the wiring around it: the same shape as the real
 * operator (keyed by host, control broadcast), but it turns every event straight into a request. It
 * schedules nothing.
 */
public final class PassThroughStage implements SchedulerStage {

  public static final MapStateDescriptor<String, Double> LAMBDA =
      new MapStateDescriptor<>("lambda0", Types.STRING, Types.DOUBLE);

  @Override
  public SingleOutputStreamOperator<CrawlRequest> schedule(
      KeyedStream<StatusEvent, String> eventsByHost,
      DataStream<ControlMessage> control,
      RecrawlConfig config) {
    return eventsByHost
        .connect(control.broadcast(LAMBDA))
        .process(new Echo(), WireTypes.CRAWL_REQUEST)
        .name("pass-through")
        .uid("pass-through");
  }

  static final class Echo
      extends KeyedBroadcastProcessFunction<String, StatusEvent, ControlMessage, CrawlRequest> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(StatusEvent e, ReadOnlyContext ctx, Collector<CrawlRequest> out)
        throws Exception {
      Double lambda0 = ctx.getBroadcastState(LAMBDA).get("lambda0");
      out.collect(
          new CrawlRequest(
              e.url(),
              ctx.getCurrentKey(),
              e.metadata(),
              e.time(),
              e.time(),
              0,
              lambda0 == null ? -1 : lambda0,
              e.time() + 1));
    }

    @Override
    public void processBroadcastElement(ControlMessage m, Context ctx, Collector<CrawlRequest> out)
        throws Exception {
      if (m.kind() == ControlMessage.Kind.LAMBDA) {
        ctx.getBroadcastState(LAMBDA).put("lambda0", m.globalLambda());
      }
    }
  }
}
