package io.recrawl.flink.control;

import io.recrawl.engine.DemandLedger;
import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.GlobalLambdaController;
import io.recrawl.flink.scheduler.DemandReport;
import io.recrawl.wire.ControlMessage;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the scheduler subtasks' demand reports into one global lambda per control period. Every
 * subtask reports at every tick; a tick's round is complete when all of them have. At the first
 * complete round that ends a control period, the {@link GlobalLambdaController} gets the summed
 * demand curve, the rate of fetch outcomes over the period and the URLs in flight, and the new λ_0
 * goes out with the tick's time as its epoch (ticks only move forward, also across restarts). Plain
 * Java: the Flink function around it only adds state and metrics.
 */
public final class GlobalLambdaRounds {

  private final GlobalLambdaController controller;
  private final long periodMs;

  /** Rounds not yet complete, by tick time. */
  private final TreeMap<Long, Round> open = new TreeMap<>();

  /** Tick time of the last complete round. */
  private long lastRound = Long.MIN_VALUE;

  /** Tick time of the last update; Long.MIN_VALUE before the first. */
  private long periodStart = Long.MIN_VALUE;

  /** Fetch outcomes reported since {@link #periodStart}. */
  private long statuses;

  /** The fetch rate of the last period, crawls per day; NaN when not known. */
  private volatile double measuredRate = Double.NaN;

  /** False when a subtask restarted in this period: its count since its last report is lost. */
  private boolean statusesKnown = true;

  /** One tick's reports, summed as they come. */
  private static final class Round {
    final BitSet reported = new BitSet();
    double[] demand;
    long statuses;
    double inFlight;
    boolean restarted;
  }

  public GlobalLambdaRounds(GlobalLambdaController controller, long periodMs) {
    if (periodMs <= 0) {
      throw new IllegalArgumentException("control period must be > 0 ms, got " + periodMs);
    }
    this.controller = controller;
    this.periodMs = periodMs;
  }

  /**
   * Adds one subtask's report. Returns the new λ_0 if the report completes a round that ends a
   * control period (the first complete round always does), otherwise null.
   */
  public ControlMessage add(DemandReport r) {
    if (r.time <= lastRound) {
      return null; // a round already closed (a replay)
    }
    Round round = open.computeIfAbsent(r.time, t -> new Round());
    if (round.reported.get(r.subtask)) {
      return null; // the same report twice (a replay): counted once
    }
    round.reported.set(r.subtask);
    round.demand =
        round.demand == null ? r.demand.clone() : DemandLedger.sum(round.demand, r.demand);
    round.statuses += r.statuses;
    round.inFlight += r.inFlight;
    round.restarted |= r.since == Long.MIN_VALUE;
    if (round.reported.cardinality() < r.subtasks) {
      return null;
    }
    // Reports travel in tick order from each subtask, so older rounds still open never complete:
    // their counts are real, and join this one's.
    Iterator<Map.Entry<Long, Round>> older = open.headMap(r.time, true).entrySet().iterator();
    while (older.hasNext()) {
      Round o = older.next().getValue();
      statuses += o.statuses;
      statusesKnown &= !o.restarted;
      older.remove();
    }
    lastRound = r.time;
    if (periodStart != Long.MIN_VALUE && r.time - periodStart < periodMs) {
      return null;
    }
    double measured = Double.NaN;
    if (periodStart != Long.MIN_VALUE && statusesKnown) {
      measured = statuses / ((r.time - periodStart) / (double) EngineConfig.DAY_MS);
    }
    measuredRate = measured;
    double lambda = controller.update(round.demand, measured, round.inFlight);
    periodStart = r.time;
    statuses = 0;
    statusesKnown = true;
    return ControlMessage.lambda(r.time, r.time, lambda);
  }

  public GlobalLambdaController controller() {
    return controller;
  }

  /** The fetch rate over the last control period, crawls per day (NaN when not known). */
  public double measuredRate() {
    return measuredRate;
  }

  /** The controller's state and this period's counts, as numbers (a checkpoint keeps them). */
  public double[] snapshot() {
    double[] c = controller.snapshot();
    double[] out = Arrays.copyOf(c, c.length + 3);
    out[c.length] = periodStart;
    out[c.length + 1] = statuses;
    out[c.length + 2] = statusesKnown ? 1 : 0;
    return out;
  }

  /**
   * Continues from a {@link #snapshot()}; rounds still open then are not kept (their reports come
   * again or not at all).
   */
  public void restore(double[] s) {
    int n = GlobalLambdaController.SNAPSHOT_SIZE;
    if (s.length != n + 3) {
      throw new IllegalArgumentException(
          "a controller snapshot has " + (n + 3) + " numbers, got " + s.length);
    }
    controller.restore(Arrays.copyOf(s, n));
    periodStart = (long) s[n];
    statuses = (long) s[n + 1];
    statusesKnown = s[n + 2] != 0;
    open.clear();
  }
}
