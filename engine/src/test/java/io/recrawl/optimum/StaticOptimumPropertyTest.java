package io.recrawl.optimum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.recrawl.value.ChangesCaught;
import io.recrawl.value.Freshness;
import io.recrawl.value.HarmonicStaleness;
import io.recrawl.value.Objective;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StaticOptimumPropertyTest {

  private static final Objective[] OBJECTIVES = {
    Freshness.INSTANCE, HarmonicStaleness.INSTANCE, ChangesCaught.INSTANCE
  };

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void ratesAreFeasibleAndKktHolds(long seed) {
    RandomInstance inst = RandomInstance.generate(seed, 5 + (int) seed * 3, 40);
    Objective objective = OBJECTIVES[(int) (seed % OBJECTIVES.length)];
    OptimumProblem problem = inst.problem().objective(objective).build();
    OptimumResult r = StaticOptimum.solve(problem);

    assertEquals(OptimumResult.Status.OPTIMAL, r.status());
    double total = 0;
    double[] perHost = new double[problem.hosts()];
    for (int j = 0; j < inst.pages(); j++) {
      assertTrue(r.rate(j) >= 0 && Double.isFinite(r.rate(j)), "page " + j + " rate " + r.rate(j));
      perHost[inst.hostIndex[j]] += r.rate(j);
      total += r.rate(j);
    }
    for (int i = 0; i < problem.hosts(); i++) {
      assertTrue(perHost[i] <= inst.hostLimit[i] * (1 + 1e-9), "host " + i + " over its limit");
      assertEquals(perHost[i], r.hostDemand(i), 1e-9 * perHost[i] + 1e-300);
      if (r.hostLambda(i) > 0) {
        assertEquals(
            inst.hostLimit[i],
            perHost[i],
            1e-9 * inst.hostLimit[i],
            "a priced host uses its whole limit");
      }
    }
    assertTrue(total <= inst.budget * (1 + 1e-9), "total " + total + " over budget " + inst.budget);
    assertTrue(r.kktResidual() < 1e-9, "KKT residual " + r.kktResidual());
    // Check stationarity independently of the solver's residual, on a few pages.
    for (int j = 0; j < inst.pages(); j += 7) {
      double rate = r.rate(j);
      if (rate > 0) {
        double v = objective.crawlValue(inst.weight[j], inst.changeRate[j], 1 / rate);
        assertEquals(
            r.hostThreshold(inst.hostIndex[j]), v, 1e-9 * v, "V(1/rho) = theta for page " + j);
      } else {
        assertTrue(
            objective.valueCeiling(inst.weight[j], inst.changeRate[j])
                <= r.hostThreshold(inst.hostIndex[j]));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {21, 22, 23, 24, 25, 26})
  void noPerturbedFeasibleAllocationDoesBetter(long seed) {
    RandomInstance inst = RandomInstance.generate(seed, 8, 25);
    Objective objective = OBJECTIVES[(int) (seed % OBJECTIVES.length)];
    OptimumResult r = StaticOptimum.solve(inst.problem().objective(objective).build());
    double best = r.objectiveValue();
    assertEquals(utility(inst, objective, r.rates()), best, 1e-12 * Math.abs(best));

    Random rnd = new Random(seed);
    double[] scales = {1e-3, 1e-2, 0.1, 1.0};
    int n = inst.pages();
    for (int trial = 0; trial < 400; trial++) {
      double sigma = scales[trial % scales.length];
      double[] rates = new double[n];
      for (int j = 0; j < n; j++) {
        double base = r.rate(j) > 0 ? r.rate(j) : (rnd.nextBoolean() ? 0 : 0.01 * rnd.nextDouble());
        rates[j] = base * Math.exp(sigma * rnd.nextGaussian());
      }
      scaleToFeasibility(inst, rates);
      double other = utility(inst, objective, rates);
      assertTrue(
          other <= best + 1e-12 * Math.abs(best),
          "trial " + trial + " (sigma " + sigma + "): " + other + " beats the optimum " + best);
    }
  }

  /** Scales each host down to its limit, then everything down to the budget. */
  private static void scaleToFeasibility(RandomInstance inst, double[] rates) {
    double[] perHost = new double[inst.hostLimit.length];
    for (int j = 0; j < rates.length; j++) {
      perHost[inst.hostIndex[j]] += rates[j];
    }
    double total = 0;
    for (int j = 0; j < rates.length; j++) {
      int i = inst.hostIndex[j];
      if (perHost[i] > inst.hostLimit[i]) {
        rates[j] *= inst.hostLimit[i] / perHost[i];
      }
      total += rates[j];
    }
    if (total > inst.budget) {
      for (int j = 0; j < rates.length; j++) {
        rates[j] *= inst.budget / total;
      }
    }
  }

  private static double utility(RandomInstance inst, Objective objective, double[] rates) {
    double sum = 0;
    for (int j = 0; j < rates.length; j++) {
      sum += objective.utility(inst.weight[j], inst.changeRate[j], rates[j]);
    }
    return sum;
  }

  @ParameterizedTest
  @ValueSource(longs = {31, 32, 33, 34, 35, 36})
  void perPageRevisitBoundsHoldWithKkt(long seed) {
    RandomInstance inst = RandomInstance.generate(seed, 12, 30);
    Objective objective = OBJECTIVES[(int) (seed % OBJECTIVES.length)];
    Random rnd = new Random(seed);
    int n = inst.pages();
    double[] lo = new double[n];
    double[] hi = new double[n];
    for (int j = 0; j < n; j++) {
      lo[j] =
          rnd.nextBoolean() ? 0 : 1.0 / (30 + 300 * rnd.nextDouble()); // at least every 30-330 days
      hi[j] =
          rnd.nextBoolean()
              ? Double.POSITIVE_INFINITY
              : 1.0 / (0.5 + 3 * rnd.nextDouble()); // at most every 0.5-3.5 days
    }
    // One host with no pages at all, past the last page's host.
    double[] limits = java.util.Arrays.copyOf(inst.hostLimit, inst.hostLimit.length + 1);
    limits[limits.length - 1] = 1.0;
    OptimumResult r =
        StaticOptimum.solve(
            OptimumProblem.builder(inst.weight, inst.changeRate, inst.hostIndex, limits)
                .budget(inst.budget)
                .objective(objective)
                .minRates(lo)
                .maxRates(hi)
                .build());

    assertEquals(OptimumResult.Status.OPTIMAL, r.status());
    int atFloor = 0;
    int atCap = 0;
    for (int j = 0; j < n; j++) {
      assertTrue(
          r.rate(j) >= lo[j] && r.rate(j) <= hi[j],
          "page " + j + " rate " + r.rate(j) + " outside its bounds");
      atFloor += r.rate(j) == lo[j] && lo[j] > 0 ? 1 : 0;
      atCap += r.rate(j) == hi[j] ? 1 : 0;
    }
    assertTrue(atFloor + atCap > 0, "the bounds bind somewhere");
    assertEquals(0.0, r.hostDemand(limits.length - 1));
    assertEquals(0.0, r.hostLambda(limits.length - 1));
    assertTrue(r.totalRate() <= inst.budget * (1 + 1e-9));
    assertTrue(r.kktResidual() < 1e-9, "KKT residual " + r.kktResidual());
  }
}
