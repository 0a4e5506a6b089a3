package io.recrawl.flink.scheduler;

import java.util.Arrays;

/**
 * One scheduler subtask's demand summary, emitted on the {@code DEMAND} side output at every clock
 * tick: the sum of its hosts' demand curves capped at their rate limits (crawls per day at each
 * threshold of the engine's grid), what it released and heard back since its previous report, and
 * its URLs in flight. The global lambda controller sums the reports of all subtasks: the price λ_0
 * that spends the global budget k_0 is where the summed curve meets k_0.
 */
public final class DemandReport {

  /** Index of the reporting subtask. */
  public int subtask;

  /** How many scheduler subtasks report: a tick's round is complete with this many reports. */
  public int subtasks;

  /** Event time of the tick that triggered the report, epoch ms. */
  public long time;

  /**
   * Event time of this subtask's previous report (Long.MIN_VALUE for its first since a start or
   * restore).
   */
  public long since;

  /** URLs released between {@link #since} and {@link #time}. */
  public long released;

  /**
   * Fetch outcomes (statuses other than DISCOVERED) applied between {@link #since} and {@link
   * #time}.
   */
  public long statuses;

  /**
   * URLs in flight that wait for the global budget: each host's, up to what its own limit fetches
   * in the controller's queue allowance ({@code HostThreshold.inFlightForBudget}).
   */
  public double inFlight;

  /** Σ_i min(k_i, D_i(θ)) over this subtask's hosts, on the engine's threshold grid. */
  public double[] demand;

  public DemandReport() {}

  public DemandReport(
      int subtask,
      int subtasks,
      long time,
      long since,
      long released,
      long statuses,
      double inFlight,
      double[] demand) {
    this.subtask = subtask;
    this.subtasks = subtasks;
    this.time = time;
    this.since = since;
    this.released = released;
    this.statuses = statuses;
    this.inFlight = inFlight;
    this.demand = demand;
  }

  @Override
  public String toString() {
    return "DemandReport{subtask="
        + subtask
        + "/"
        + subtasks
        + ", time="
        + time
        + ", since="
        + since
        + ", released="
        + released
        + ", statuses="
        + statuses
        + ", inFlight="
        + inFlight
        + ", demand="
        + Arrays.toString(demand)
        + "}";
  }
}
