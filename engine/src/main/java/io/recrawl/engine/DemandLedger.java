package io.recrawl.engine;

/**
 * The sum, over a set of hosts, of each host's demand curve capped at its rate limit: Σ_i min(k_i,
 * D_i(θ)) on the threshold grid. This is the total crawl rate the hosts would ask for at global
 * lambda θ; one ledger per Flink subtask (or one for the simulator), summed by the global lambda
 * controller.
 */
public final class DemandLedger {

  private final double[] total;

  public DemandLedger(ThresholdGrid grid) {
    total = new double[grid.size()];
  }

  /** Replaces one host's old capped curve by its new one (either may be null = nothing). */
  public void replace(double[] before, double[] after) {
    for (int i = 0; i < total.length; i++) {
      double d = (after == null ? 0 : after[i]) - (before == null ? 0 : before[i]);
      total[i] = Math.max(0, total[i] + d);
    }
  }

  /** A copy of the totals: crawls per day at each grid threshold. */
  public double[] snapshot() {
    return total.clone();
  }

  /** Adds another ledger's snapshot into this one (the controller sums subtasks). */
  public static double[] sum(double[] a, double[] b) {
    double[] out = a.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] += b[i];
    }
    return out;
  }
}
