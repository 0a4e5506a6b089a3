package io.recrawl.optimum;

/**
 * How far a solution is from the KKT conditions, as maximum relative violations: host limits and
 * the budget (primal feasibility), complementary slackness of the global lambda and every host
 * lambda, and stationarity (V(1/rho) = theta for pages strictly inside their bounds, V at or below
 * theta for pages at rate 0 or at their floor, at or above it for pages at their cap).
 */
public final class KktResidual {

  private final double hostLimits;
  private final double budget;
  private final double slackness;
  private final double stationarity;

  KktResidual(double hostLimits, double budget, double slackness, double stationarity) {
    this.hostLimits = hostLimits;
    this.budget = budget;
    this.slackness = slackness;
    this.stationarity = stationarity;
  }

  /** Largest relative excess of a host's demand over its max rate. */
  public double hostLimits() {
    return hostLimits;
  }

  /** Relative excess of the total rate over the global budget. */
  public double budget() {
    return budget;
  }

  /** Largest relative unused capacity of a host or of the budget whose lambda is positive. */
  public double slackness() {
    return slackness;
  }

  /** Largest relative gap between a page's crawl value at its rate and its host's threshold. */
  public double stationarity() {
    return stationarity;
  }

  /** The residual: the largest of the four violations. */
  public double max() {
    return Math.max(Math.max(hostLimits, budget), Math.max(slackness, stationarity));
  }

  /**
   * Measures a solution given host by host: {@code rate} by host-grouped position, each host's
   * threshold {@code hostTheta} = lambda_0 + lambda_i.
   */
  static KktResidual measure(
      HostPages hp,
      double[] rate,
      double[] hostLimit,
      double budget,
      double globalLambda,
      double[] hostLambda,
      double[] hostDemand) {
    double[] hostStationarity = new double[hp.hosts];
    hp.forEachHost(
        i -> hostStationarity[i] = stationarity(hp, rate, i, globalLambda + hostLambda[i]));
    double stat = 0;
    double limits = 0;
    double slack = 0;
    double total = 0;
    for (int i = 0; i < hp.hosts; i++) {
      stat = Math.max(stat, hostStationarity[i]);
      total += hostDemand[i];
      if (Double.isFinite(hostLimit[i])) {
        limits = Math.max(limits, (hostDemand[i] - hostLimit[i]) / hostLimit[i]);
        if (hostLambda[i] > 0) {
          slack = Math.max(slack, Math.abs(hostLimit[i] - hostDemand[i]) / hostLimit[i]);
        }
      }
    }
    double overBudget = 0;
    if (Double.isFinite(budget)) {
      overBudget = Math.max(0, (total - budget) / budget);
      if (globalLambda > 0) {
        slack = Math.max(slack, Math.abs(budget - total) / budget);
      }
    }
    return new KktResidual(Math.max(0, limits), overBudget, slack, stat);
  }

  private static double stationarity(HostPages hp, double[] rate, int host, double theta) {
    if (!(theta > 0)) {
      return 0; // at theta = 0 every active page sits at its cap, where V >= 0 holds trivially
    }
    double worst = 0;
    for (int pos = hp.start[host], end = hp.start[host + 1]; pos < end; pos++) {
      double w = hp.weight[pos];
      double d = hp.changeRate[pos];
      if (w == 0) {
        continue; // a weightless page has value 0 at every rate: V <= theta holds
      }
      double r = rate[pos];
      double violation;
      boolean atFloor = r == hp.minRate[pos];
      boolean atCap = r == hp.maxRate[pos];
      if (atFloor && atCap) {
        continue; // the bounds fix the rate
      } else if (r == 0) {
        violation = hp.objective.valueCeiling(w, d) - theta; // never crawled: sup V <= theta
      } else {
        double v = hp.objective.crawlValue(w, d, 1.0 / r);
        if (atFloor) {
          violation = v - theta;
        } else if (atCap) {
          violation = theta - v;
        } else {
          violation = Math.abs(v - theta);
        }
      }
      worst = Math.max(worst, violation / theta);
    }
    return worst;
  }
}
