package io.recrawl.flink.scheduler;

import io.recrawl.engine.DemandLedger;
import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.GlobalLambdaController;
import io.recrawl.engine.HostState;
import io.recrawl.engine.HostThreshold;
import java.util.Map;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.runtime.state.KeyedStateFunction;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;

/**
 * The subtask's side of the global price: its {@link DemandLedger} (the sum of its hosts' capped
 * demand curves), its {@link DemandReport} at every tick, and the rebuild of both, with the
 * subtask's counts, from keyed state after a restore or a quarantine. The ledger is transient:
 * keyed state holds each host's curve, and one pass over the subtask's hosts sums them again.
 */
final class SubtaskDemand {

  private final EngineConfig cfg;
  private final HostThreshold thresholds;
  private final SchedulerMetrics metrics;
  private final int subtask;
  private final int subtasks;
  private DemandLedger ledger;
  private boolean rebuilt;
  private long lastReport = Long.MIN_VALUE;

  SubtaskDemand(
      EngineConfig cfg,
      HostThreshold thresholds,
      SchedulerMetrics metrics,
      int subtask,
      int subtasks) {
    this.cfg = cfg;
    this.thresholds = thresholds;
    this.metrics = metrics;
    this.subtask = subtask;
    this.subtasks = subtasks;
    this.ledger = new DemandLedger(cfg.grid);
  }

  /** Replaces a host's capped curve in the ledger (see {@link DemandLedger#replace}). */
  void replace(double[] before, double[] after) {
    ledger.replace(before, after);
  }

  /**
   * The ledger and counts no longer match keyed state: rebuild them at the next control message.
   */
  void invalidate() {
    rebuilt = false;
  }

  /** Whether the ledger and counts must be rebuilt before the next control message is handled. */
  boolean stale() {
    return !rebuilt;
  }

  /**
   * Rebuilds the ledger and the subtask's counts from keyed state and the host-rate table; a host
   * record that cannot be read is quarantined, or fails the job (see {@link Quarantine}).
   */
  void rebuild(
      KeyedBroadcastProcessFunction<String, ?, ?, ?>.Context ctx, Quarantine quarantine, long now)
      throws Exception {
    DemandLedger fresh = new DemandLedger(cfg.grid);
    long[] counts = new long[3];
    double[] inFlight = new double[1];
    KeyedStateFunction<String, ValueState<HostState>> add =
        (host, state) -> {
          HostState h;
          try {
            h = state.value();
          } catch (Exception unreadable) {
            quarantine.quarantineOrThrow(host, unreadable, now);
            return;
          }
          if (h != null) {
            fresh.replace(null, thresholds.ledgerContribution(h));
            counts[0]++;
            counts[1] += h.pages;
            counts[2] += h.ready.size();
            inFlight[0] += inFlightForBudget(h);
          }
        };
    ctx.applyToKeyedState(SchedulerState.hostDescriptor(), add);
    ledger = fresh;
    int overrides = 0;
    for (Map.Entry<String, Double> ignored :
        ctx.getBroadcastState(SchedulerState.hostRatesDescriptor()).immutableEntries()) {
      overrides++;
    }
    metrics.hostRateOverrides = overrides;
    metrics.hosts = counts[0];
    metrics.urls = counts[1];
    metrics.dueBacklog = counts[2];
    metrics.inFlightForBudget = inFlight[0];
    rebuilt = true;
  }

  /** The report of the tick at {@code time}: the global lambda controller's input. */
  DemandReport report(long time) {
    DemandReport r =
        new DemandReport(
            subtask,
            subtasks,
            time,
            lastReport,
            metrics.releasedSinceReport,
            metrics.statusesSinceReport,
            metrics.inFlightForBudget,
            ledger.snapshot());
    metrics.releasedSinceReport = 0;
    metrics.statusesSinceReport = 0;
    lastReport = time;
    return r;
  }

  /** The ledger; for tests. */
  DemandLedger ledger() {
    return ledger;
  }

  /** URLs of the host in flight that wait for the global budget (see {@link DemandReport}). */
  static double inFlightForBudget(HostState h) {
    return h == null
        ? 0
        : HostThreshold.inFlightForBudget(h, GlobalLambdaController.QUEUE_ALLOWANCE_DAYS);
  }
}
