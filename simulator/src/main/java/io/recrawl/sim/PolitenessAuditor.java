package io.recrawl.sim;

import java.util.Arrays;

/**
 * Checks every fetch independently of the crawler's own gate: the gap since the host's previous
 * fetch must be at least 1/k_i and the gap since any previous fetch at least 1/k_0. Counts
 * violations (must stay 0) and the fastest rate each host was actually fetched at.
 */
public final class PolitenessAuditor {

  /** Relative slack for floating-point rounding of the gate's own arithmetic. */
  private static final double SLACK = 1e-9;

  /**
   * Absolute slack, days (about a microsecond): t + 1/k - t is not exactly 1/k in floating point.
   */
  private static final double ABS_SLACK = 1e-11;

  private final double[] hostLast;
  private final double[] minGap;
  private double globalLast = Double.NaN;
  private long hostViolations;
  private long budgetViolations;
  private double maxRatio;

  public PolitenessAuditor(int hosts) {
    hostLast = new double[hosts];
    minGap = new double[hosts];
    Arrays.fill(hostLast, Double.NaN);
    Arrays.fill(minGap, Double.POSITIVE_INFINITY);
  }

  /** Records a fetch of host {@code h} at {@code t} under the limits in force at {@code t}. */
  public void fetched(int h, double t, double hostMaxRate, double budget) {
    if (!Double.isNaN(hostLast[h])) {
      double gap = t - hostLast[h];
      minGap[h] = Math.min(minGap[h], gap);
      if (gap < (1.0 / hostMaxRate) * (1 - SLACK) - ABS_SLACK) {
        hostViolations++;
      }
      if (hostMaxRate != Double.POSITIVE_INFINITY) {
        maxRatio = Math.max(maxRatio, 1.0 / (gap * hostMaxRate));
      }
    }
    if (!Double.isNaN(globalLast) && t - globalLast < (1.0 / budget) * (1 - SLACK) - ABS_SLACK) {
      budgetViolations++;
    }
    hostLast[h] = t;
    globalLast = t;
  }

  public long hostViolations() {
    return hostViolations;
  }

  public long budgetViolations() {
    return budgetViolations;
  }

  /** Over limited hosts, the highest (1 / gap) / max_rate seen: at most 1 when politeness held. */
  public double maxRateRatio() {
    return maxRatio;
  }

  /** The highest instantaneous rate (1 / smallest gap, crawls per day) the host was fetched at. */
  public double maxObservedRate(int h) {
    return 1.0 / minGap[h];
  }
}
