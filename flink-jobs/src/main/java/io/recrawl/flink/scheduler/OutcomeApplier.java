package io.recrawl.flink.scheduler;

import io.recrawl.engine.EngineOutcome;
import io.recrawl.flink.io.decisions.ReleaseDecision;
import io.recrawl.wire.CrawlRequest;
import java.util.List;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.Collector;

/**
 * Applies a committed engine call to Flink: its requests go out (with their decisions), the ledger
 * takes its demand, the metrics count it, and the host's one timer moves from where it was to where
 * the call left it, once, however often the engine moved its wake-up. A call whose state was rolled
 * back is never applied: a request that went out while its page is not in flight would be sent
 * again at the next wake-up.
 */
final class OutcomeApplier {

  /** The fired timer of a call that is not a wake-up: no timer has this time. */
  static final long NO_TIMER = Long.MIN_VALUE;

  private final SchedulerMetrics metrics;
  private final SubtaskDemand demand;
  private final boolean decisionLog;

  /** The event time of the latest request released, of this subtask since it started. */
  private long latestRelease = Long.MIN_VALUE;

  OutcomeApplier(SchedulerMetrics metrics, SubtaskDemand demand, boolean decisionLog) {
    this.metrics = metrics;
    this.demand = demand;
    this.decisionLog = decisionLog;
  }

  /**
   * @param globalLambda λ_0 of the call, for the decision log
   * @param fired the timer that started the call, already gone from the timer service; or {@link
   *     #NO_TIMER}
   */
  void apply(
      EngineOutcome o,
      double globalLambda,
      TimerService timers,
      long fired,
      Collector<CrawlRequest> out,
      SideOutput side) {
    List<CrawlRequest> requests = o.releases();
    for (int i = 0; i < requests.size(); i++) {
      CrawlRequest request = requests.get(i);
      out.collect(request);
      latestRelease = Math.max(latestRelease, request.time());
      if (decisionLog) {
        side.output(
            SchedulerOutputs.DECISIONS,
            ReleaseDecision.of(request, o.reason(i), globalLambda, o.hostMaxRate(i)));
      }
    }
    for (int i = 0; i < o.demandChanges(); i++) {
      demand.replace(o.demandBefore(i), o.demandAfter(i));
    }
    metrics.count(o);
    if (o.wakeMoved()) {
      moveTimer(timers, o.wakeBefore(), o.wakeAfter(), fired);
    }
  }

  /** The event time of the latest request released since this subtask started. */
  long latestRelease() {
    return latestRelease;
  }

  private static void moveTimer(TimerService timers, long before, long after, long fired) {
    if (before != Long.MAX_VALUE && before != fired && before != after) {
      timers.deleteEventTimeTimer(before);
    }
    if (after != Long.MAX_VALUE && (after != before || after == fired)) {
      timers.registerEventTimeTimer(after);
    }
  }
}
