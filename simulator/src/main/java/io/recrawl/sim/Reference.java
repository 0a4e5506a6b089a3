package io.recrawl.sim;

import io.recrawl.sim.policy.Optimum;
import io.recrawl.sim.workload.Workload;
import io.recrawl.value.Freshness;

/**
 * The optimum a run is compared with: the exact static optimum's predicted weighted freshness for
 * the true rates and limits in force. When the scenario changes mid-window it is the average of the
 * optima before and after, weighted by weight x time (what a solver that knew the change instantly
 * would predict, ignoring transients).
 */
public final class Reference {

  public final double weightedFreshness;
  public final double lambda0;

  /** lambda_0 after the scenario's change (equal to lambda0 when stationary). */
  public final double lambda0After;

  /** The optimum's crawls per day on limited hosts, and in all (before any change). */
  public final double limitedRate;

  public final double totalRate;

  private Reference(double f, double l, double la, double limitedRate, double totalRate) {
    weightedFreshness = f;
    lambda0 = l;
    lambda0After = la;
    this.limitedRate = limitedRate;
    this.totalRate = totalRate;
  }

  public static Reference compute(Simulator.Config cfg) {
    Workload w = cfg.workload;
    Scenario sc = cfg.scenario;
    double[] limits = w.hostMaxRates();
    boolean[] before = new boolean[w.pages()];
    double weightBefore = 0;
    double weightAll = 0;
    for (int p = 0; p < before.length; p++) {
      before[p] = !(sc.hidesHost() && w.hostOf(p) == sc.host());
      weightAll += w.weight(p);
      if (before[p]) {
        weightBefore += w.weight(p);
      }
    }
    Optimum.Solution s0 =
        Optimum.solve(w, w.changeRates(), limits, cfg.budget, Freshness.INSTANCE, before);
    double limitedRate = 0;
    double totalRate = 0;
    for (int p = 0; p < w.pages(); p++) {
      totalRate += s0.rates()[p];
      if (w.constrained(w.hostOf(p))) {
        limitedRate += s0.rates()[p];
      }
    }
    if (sc.stationary() || !(sc.changeTime() < cfg.days)) {
      return new Reference(
          s0.weightedFreshness(), s0.lambda0(), s0.lambda0(), limitedRate, totalRate);
    }
    double[] rates = sc.newRates() != null ? sc.newRates() : w.changeRates();
    double[] limitsAfter = limits.clone();
    if (sc.dropsCapacity()) {
      limitsAfter[sc.host()] = sc.newMaxRate();
    }
    Optimum.Solution s1 =
        Optimum.solve(
            w, rates, limitsAfter, cfg.budget * sc.budgetFactor(), Freshness.INSTANCE, null);
    double t0 = Math.max(0, sc.changeTime() - cfg.warmUp);
    double t1 = cfg.days - Math.max(cfg.warmUp, sc.changeTime());
    double a = weightBefore * t0;
    double b = weightAll * t1;
    double f = (s0.weightedFreshness() * a + s1.weightedFreshness() * b) / (a + b);
    return new Reference(f, s0.lambda0(), s1.lambda0(), limitedRate, totalRate);
  }
}
