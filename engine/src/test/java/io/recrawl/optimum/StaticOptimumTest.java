package io.recrawl.optimum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.recrawl.value.CrawlValue;
import io.recrawl.value.HarmonicStaleness;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StaticOptimumTest {

  private static final double INF = Double.POSITIVE_INFINITY;

  /** Cho and Garcia-Molina (TODS 2003): 5 pages changing 1..5 times a day, 5 crawls a day. */
  @Test
  void reproducesChoGarciaMolinaFivePageExample() {
    double[] delta = {1, 2, 3, 4, 5};
    double[] w = {1, 1, 1, 1, 1};
    OptimumResult r =
        StaticOptimum.solve(
            OptimumProblem.builder(w, delta, new int[5], new double[] {INF}).budget(5).build());

    double[] expected = {1.15, 1.36, 1.35, 1.14, 0.0};
    for (int j = 0; j < 5; j++) {
      assertEquals(expected[j], r.rate(j), 0.005, "page changing " + delta[j] + "/day");
    }
    assertEquals(0.0, r.rate(4), "the fastest-changing page is never crawled");
    assertEquals(5.0, r.totalRate(), 5e-12);
    assertEquals(0.0, r.hostLambda(0), "the only host has no limit");
    assertTrue(r.globalLambda() > 0);

    double uniform = meanFreshness(delta, new double[] {1, 1, 1, 1, 1});
    double proportional = meanFreshness(delta, Arrays.stream(delta).map(d -> d / 3).toArray());
    assertEquals(0.374, r.weightedFreshness(), 0.0005);
    assertEquals(meanFreshness(delta, r.rates()), r.weightedFreshness(), 1e-15);
    assertEquals(0.365, uniform, 0.0005);
    assertEquals(0.317, proportional, 0.0005);
    assertTrue(r.weightedFreshness() > uniform && uniform > proportional);
    assertTrue(r.kktResidual() < 1e-10, "KKT residual " + r.kktResidual());
  }

  private static double meanFreshness(double[] delta, double[] rates) {
    double sum = 0;
    for (int j = 0; j < delta.length; j++) {
      sum += CrawlValue.freshness(delta[j], 1.0 / rates[j]);
    }
    return sum / delta.length;
  }

  @Test
  void constrainedHostGetsPositiveHostLambdaAndUnconstrainedGetsZero() {
    // Host 0: ten pages, max 1 crawl/day. Host 1: ten pages, no limit. Budget 10/day.
    double[] w = new double[20];
    double[] delta = new double[20];
    int[] host = new int[20];
    for (int j = 0; j < 20; j++) {
      w[j] = 1 + j % 3;
      delta[j] = 0.1 + 0.05 * (j % 10);
      host[j] = j / 10;
    }
    OptimumResult r =
        StaticOptimum.solve(
            OptimumProblem.builder(w, delta, host, new double[] {1.0, INF}).budget(10).build());
    assertTrue(r.hostLambda(0) > 0, "host lambda of the constrained host");
    assertEquals(0.0, r.hostLambda(1));
    assertEquals(1.0, r.hostDemand(0), 1e-12);
    assertEquals(10.0, r.totalRate(), 1e-11);
    assertEquals(1, r.constrainedHosts());
    assertTrue(r.hostThreshold(0) > r.hostThreshold(1));
    assertTrue(r.kktResidual() < 1e-10, "KKT residual " + r.kktResidual());
  }

  @Test
  void slackBudgetLeavesGlobalLambdaAtZero() {
    double[] w = {1, 2, 3};
    double[] delta = {0.5, 1, 2};
    OptimumResult r =
        StaticOptimum.solve(
            OptimumProblem.builder(w, delta, new int[] {0, 0, 1}, new double[] {2, 3})
                .budget(100)
                .build());
    assertEquals(0.0, r.globalLambda());
    assertEquals(2.0, r.hostDemand(0), 1e-12);
    assertEquals(3.0, r.hostDemand(1), 1e-12);
    assertEquals(3.0, r.rate(2), 1e-12, "a single-page host takes its whole limit");
    assertTrue(r.kktResidual() < 1e-10, "KKT residual " + r.kktResidual());
  }

  @Test
  void infiniteBudgetWithFiniteHostsSolvesEachHostAlone() {
    double[] w = {1, 1, 1, 1};
    double[] delta = {0.2, 0.4, 0.2, 0.4};
    int[] host = {0, 0, 1, 1};
    OptimumResult both =
        StaticOptimum.solve(OptimumProblem.builder(w, delta, host, new double[] {1, 4}).build());
    OptimumResult alone =
        StaticOptimum.solve(
            OptimumProblem.builder(
                    new double[] {1, 1}, new double[] {0.2, 0.4}, new int[2], new double[] {1})
                .build());
    assertEquals(alone.rate(0), both.rate(0), 1e-12);
    assertEquals(alone.rate(1), both.rate(1), 1e-12);
    assertEquals(4.0, both.hostDemand(1), 1e-12);
  }

  @Test
  void harmonicStalenessNeverGivesAPageRateZero() {
    // The fastest page here is starved under freshness; harmonic staleness still crawls it.
    double[] delta = {1, 2, 3, 4, 5, 50};
    double[] w = {1, 1, 1, 1, 1, 0.01};
    OptimumProblem.Builder b =
        OptimumProblem.builder(w, delta, new int[6], new double[] {INF}).budget(5);
    OptimumResult harmonic = StaticOptimum.solve(b.objective(HarmonicStaleness.INSTANCE).build());
    for (int j = 0; j < 6; j++) {
      assertTrue(harmonic.rate(j) > 0, "page " + j + " rate " + harmonic.rate(j));
    }
    assertEquals(5.0, harmonic.totalRate(), 1e-11);
    assertTrue(harmonic.kktResidual() < 1e-10, "KKT residual " + harmonic.kktResidual());
  }

  @Test
  void unchangingAndWeightlessPagesGetNoCrawlsUnlessFloored() {
    double[] w = {1, 0, 1, 1};
    double[] delta = {0, 1, 1, 0.5};
    OptimumProblem.Builder b =
        OptimumProblem.builder(w, delta, new int[4], new double[] {INF}).budget(2);
    OptimumResult plain = StaticOptimum.solve(b.build());
    assertEquals(0.0, plain.rate(0), "a page that never changes");
    assertEquals(0.0, plain.rate(1), "a page of weight 0");
    assertEquals(2.0, plain.rate(2) + plain.rate(3), 1e-12);

    OptimumResult floored = StaticOptimum.solve(b.revisitIntervals(10, 0).build());
    assertEquals(0.1, floored.rate(0), 1e-15);
    assertEquals(0.1, floored.rate(1), 1e-15);
    assertEquals(2.0, floored.totalRate(), 1e-12);
    assertTrue(floored.kktResidual() < 1e-10, "KKT residual " + floored.kktResidual());
  }

  @Test
  void revisitBoundsHoldAndStarvedPagesGetTheirFloor() {
    double[] delta = {1, 2, 3, 4, 5};
    double[] w = {1, 1, 1, 1, 1};
    OptimumResult r =
        StaticOptimum.solve(
            OptimumProblem.builder(w, delta, new int[5], new double[] {INF})
                .budget(5)
                .revisitIntervals(4, 0.8)
                .build());
    for (int j = 0; j < 5; j++) {
      assertTrue(r.rate(j) >= 0.25 && r.rate(j) <= 1.25, "page " + j + " rate " + r.rate(j));
    }
    assertEquals(0.25, r.rate(4), 1e-15, "starved without the floor");
    assertEquals(1.25, r.rate(1), 1e-15, "wants more than the cap");
    assertEquals(5.0, r.totalRate(), 1e-11);
    assertTrue(r.kktResidual() < 1e-10, "KKT residual " + r.kktResidual());
  }

  @Test
  void infeasibleFloorsAreReportedNotSolved() {
    double[] w = {1, 1, 1};
    double[] delta = {1, 1, 1};
    OptimumProblem.Builder b =
        OptimumProblem.builder(w, delta, new int[] {0, 0, 1}, new double[] {0.5, INF})
            .budget(10)
            .revisitIntervals(1, 0);
    OptimumResult r = StaticOptimum.solve(b.build());
    assertEquals(OptimumResult.Status.INFEASIBLE, r.status());
    assertTrue(r.infeasibility().contains("host 0"), r.infeasibility());
    assertEquals(3.0, r.kkt().hostLimits(), 1e-15, "floors of 2/day on a host of 0.5/day: 3x over");

    OptimumResult overBudget =
        StaticOptimum.solve(
            OptimumProblem.builder(w, delta, new int[3], new double[] {INF})
                .budget(2)
                .revisitIntervals(0.5, 0)
                .build());
    assertEquals(OptimumResult.Status.INFEASIBLE, overBudget.status());
    assertTrue(overBudget.infeasibility().contains("global budget"), overBudget.infeasibility());

    OptimumResult fine =
        StaticOptimum.solve(
            OptimumProblem.builder(w, delta, new int[3], new double[] {INF})
                .budget(4)
                .revisitIntervals(1, 0)
                .build());
    assertEquals(OptimumResult.Status.OPTIMAL, fine.status());
    assertNull(fine.infeasibility());
  }

  @Test
  void unboundedProblemIsRejected() {
    OptimumProblem p =
        OptimumProblem.builder(new double[] {1}, new double[] {1}, new int[1], new double[] {INF})
            .build();
    assertThrows(IllegalArgumentException.class, () -> StaticOptimum.solve(p));
    // Capping the page makes it bounded again: it is crawled at its cap.
    OptimumResult capped =
        StaticOptimum.solve(
            OptimumProblem.builder(
                    new double[] {1}, new double[] {1}, new int[1], new double[] {INF})
                .revisitIntervals(INF, 0.5)
                .build());
    assertEquals(2.0, capped.rate(0));
  }

  @Test
  void badInputIsRejectedWithAMessage() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                OptimumProblem.builder(
                        new double[] {1}, new double[] {-1}, new int[1], new double[] {1})
                    .build());
    assertTrue(e.getMessage().contains("change rate"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            OptimumProblem.builder(
                    new double[] {1}, new double[] {1}, new int[] {3}, new double[] {1})
                .build());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            OptimumProblem.builder(new double[] {1}, new double[] {1}, new int[1], new double[] {0})
                .build());
  }

  @Test
  void parallelAndSequentialSolvesAgreeExactly() {
    RandomInstance inst = RandomInstance.generate(7, 40, 60);
    OptimumResult p = StaticOptimum.PARALLEL.run(inst.problem().build());
    OptimumResult s = StaticOptimum.SEQUENTIAL.run(inst.problem().build());
    assertEquals(s.globalLambda(), p.globalLambda());
    assertTrue(Arrays.equals(s.rates(), p.rates()));
  }
}
