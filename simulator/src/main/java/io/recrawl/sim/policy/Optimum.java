package io.recrawl.sim.policy;

import io.recrawl.optimum.OptimumProblem;
import io.recrawl.optimum.OptimumResult;
import io.recrawl.optimum.StaticOptimum;
import io.recrawl.sim.workload.Workload;
import io.recrawl.value.Objective;

/** Calls the project's exact static optimum ({@link StaticOptimum}) for a subset of the pages. */
public final class Optimum {

  /**
   * Per-page optimal rates (0 for pages left out), the global lambda and the predicted freshness.
   */
  public record Solution(
      double[] rates, double lambda0, double weightedFreshness, double kktResidual) {}

  private Optimum() {}

  /**
   * @param changeRate the rates to plan with (true or estimated), per day
   * @param hostLimit every host's max rate now (+infinity = unlimited)
   * @param include which pages exist (null = all)
   */
  public static Solution solve(
      Workload w,
      double[] changeRate,
      double[] hostLimit,
      double budget,
      Objective objective,
      boolean[] include) {
    int n = w.pages();
    int m = 0;
    for (int p = 0; p < n; p++) {
      if (include == null || include[p]) {
        m++;
      }
    }
    double[] weight = new double[m];
    double[] rate = new double[m];
    int[] host = new int[m];
    int[] page = new int[m];
    int k = 0;
    for (int p = 0; p < n; p++) {
      if (include == null || include[p]) {
        weight[k] = w.weight(p);
        rate[k] = changeRate[p];
        host[k] = w.hostOf(p);
        page[k++] = p;
      }
    }
    OptimumResult r =
        StaticOptimum.solve(
            OptimumProblem.builder(weight, rate, host, hostLimit)
                .budget(budget)
                .objective(objective)
                .build());
    double[] out = new double[n];
    double[] solved = r.rates();
    for (int i = 0; i < m; i++) {
      out[page[i]] = solved[i];
    }
    return new Solution(out, r.globalLambda(), r.weightedFreshness(), r.kktResidual());
  }
}
