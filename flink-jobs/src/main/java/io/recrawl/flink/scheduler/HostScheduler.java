package io.recrawl.flink.scheduler;

import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.StatusEvent;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Wires the host scheduler into a job: status events keyed by host, the control stream broadcast.
 */
public final class HostScheduler {

  private HostScheduler() {}

  /**
   * The crawl requests for a stream of validated status events. The control stream must carry
   * watermarks (ticks): the operator's event time is the minimum of both inputs. Side outputs:
   * {@link HostSchedulerFunction#DEAD_LETTERS}, {@link HostSchedulerFunction#DEMAND} and, with
   * {@code decisionLog}, {@link HostSchedulerFunction#DECISIONS}.
   *
   * @param engineSettings the {@code recrawl.engine} section (keys of {@link
   *     io.recrawl.engine.EngineKeys#ALL})
   * @param initialGlobalLambda λ_0 until the control stream sends one
   * @param decisionLog whether to write the decision log's side output
   */
  public static SingleOutputStreamOperator<CrawlRequest> schedule(
      DataStream<StatusEvent> statuses,
      DataStream<ControlMessage> control,
      Map<String, ?> engineSettings,
      double initialGlobalLambda,
      boolean decisionLog) {
    return schedule(
        statuses.keyBy((KeySelector<StatusEvent, String>) StatusEvent::host, Types.STRING),
        control,
        engineSettings,
        initialGlobalLambda,
        decisionLog);
  }

  /** The same, for status events already keyed by {@link StatusEvent#host()}. */
  public static SingleOutputStreamOperator<CrawlRequest> schedule(
      KeyedStream<StatusEvent, String> statusesByHost,
      DataStream<ControlMessage> control,
      Map<String, ?> engineSettings,
      double initialGlobalLambda,
      boolean decisionLog) {
    return schedule(
        statusesByHost,
        control,
        engineSettings,
        initialGlobalLambda,
        decisionLog,
        true,
        null,
        0,
        0);
  }

  /**
   * The same, as the job configures it. With {@code controlCarriesTime} false, event time is the
   * status input's alone and the control stream's watermarks are ignored (bounded replays, see
   * {@link HostSchedulerOperator}). {@code partitionMode} (the job's {@code
   * recrawl.partition.mode}, which computed the keys) is kept with the state, and a restore under
   * another one is refused; null = not checked. Each subtask quarantines up to {@code
   * quarantineMaxHosts} hosts whose state cannot be read or whose wake-up throws, instead of
   * failing (the job's {@code recrawl.quarantine.max-hosts}; 0 = fail-fast). {@code
   * statusLatenessMs} is the status source's out-of-orderness: event time lags that far behind the
   * statuses read, and a front end's query is answered once it is that close.
   */
  public static SingleOutputStreamOperator<CrawlRequest> schedule(
      KeyedStream<StatusEvent, String> statusesByHost,
      DataStream<ControlMessage> control,
      Map<String, ?> engineSettings,
      double initialGlobalLambda,
      boolean decisionLog,
      boolean controlCarriesTime,
      String partitionMode,
      long quarantineMaxHosts,
      long statusLatenessMs) {
    // The operator registers the broadcast state itself: the control stream is only broadcast here.
    return statusesByHost
        .connect(control.broadcast())
        .transform(
            "host-scheduler",
            WireTypes.CRAWL_REQUEST,
            new HostSchedulerOperator(
                new HostSchedulerFunction(engineSettings, initialGlobalLambda, decisionLog)
                    .keyedBy(partitionMode)
                    .quarantining(quarantineMaxHosts),
                controlCarriesTime,
                statusLatenessMs))
        .uid(SchedulerState.OPERATOR_UID)
        .name("host-scheduler");
  }
}
