package io.recrawl.flink.scheduler;

import java.util.Arrays;

/**
 * One scheduler subtask's demand summary, emitted on the {@code DEMAND} side output at every clock
 * tick: the sum of its hosts' demand curves capped at their rate limits (crawls per day at each
 * threshold of the engine's grid) and how many URLs it released since its previous report. The
 * global lambda controller sums the reports of all subtasks: the price λ_0 that spends the global
 * budget k_0 is where the summed curve meets k_0.
 */
public final class DemandReport {

  /** Index of the reporting subtask. */
  public int subtask;
  /** Event time of the tick that triggered the report, epoch ms. */
  public long time;
  /** Event time of this subtask's previous report (Long.MIN_VALUE for the first one). */
  public long since;
  /** URLs released between {@link #since} and {@link #time}. */
  public long released;
  /** Σ_i min(k_i, D_i(θ)) over this subtask's hosts, on the engine's threshold grid. */
  public double[] demand;

  public DemandReport() {}

  public DemandReport(int subtask, long time, long since, long released, double[] demand) {
    this.subtask = subtask;
    this.time = time;
    this.since = since;
    this.released = released;
    this.demand = demand;
  }

  @Override
  public String toString() {
    return "DemandReport{subtask=" + subtask + ", time=" + time + ", since=" + since + ", released=" + released
        + ", demand=" + Arrays.toString(demand) + "}";
  }
}
