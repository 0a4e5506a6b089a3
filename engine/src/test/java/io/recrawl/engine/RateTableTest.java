package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.value.Objective;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RateTableTest {

  @Test
  void tableRatesMatchTheExactOptimalRatesForEveryObjective() {
    ThresholdGrid grid = new ThresholdGrid(1e-6, 1e6, 3);
    Random rnd = new Random(7);
    for (String name : new String[] {"freshness", "harmonic-staleness", "changes-caught"}) {
      Objective o = Objective.byName(name);
      RateTable table = new RateTable(o, grid);
      for (int trial = 0; trial < 200; trial++) {
        double w = Math.exp(rnd.nextGaussian() * 2);
        double delta = Math.exp(rnd.nextGaussian() * 2);
        double[] curve = new double[grid.size()];
        table.add(curve, w, delta, 0, 0, Double.POSITIVE_INFINITY, +1);
        for (int g = 0; g < grid.size(); g++) {
          double exact = o.optimalRate(w, delta, grid.threshold(g));
          // Near a freshness cut-off (rate -> 0) compare absolutely, elsewhere relatively.
          assertThat(Math.abs(curve[g] - exact))
              .as("%s w=%s delta=%s theta=%s", name, w, delta, grid.threshold(g))
              .isLessThanOrEqualTo(2e-3 * exact + 1e-3 * delta);
        }
        table.add(curve, w, delta, 0, 0, Double.POSITIVE_INFINITY, -1);
        for (double c : curve) {
          assertThat(c).isLessThan(1e-9 * (1 + delta));
        }
      }
    }
  }

  @Test
  void posteriorRatesMatchTheRatesThatPlanningWithTheExpectedValueGives() {
    ThresholdGrid grid = new ThresholdGrid(1e-6, 1e6, 3);
    Objective o = Objective.byName("freshness");
    RateTable table = new RateTable(o, grid);
    Random rnd = new Random(11);
    double worst = 0;
    for (int trial = 0; trial < 400; trial++) {
      double w = Math.exp(rnd.nextGaussian() * 2);
      double mean = Math.exp(rnd.nextGaussian() * 2);
      // Shapes from below the first table to the estimator's cap, on and off the table points.
      double shape = trial < 20 ? 0.1 + 0.01 * trial : Math.exp(rnd.nextDouble() * Math.log(250));
      double b = shape / mean;
      double[] curve = new double[grid.size()];
      table.add(curve, w, mean, shape, 0, Double.POSITIVE_INFINITY, +1);
      for (int g = 0; g < grid.size(); g++) {
        double tau = o.expectedTimeToThreshold(w, shape, b, grid.threshold(g));
        double exact = tau == Double.POSITIVE_INFINITY ? 0 : 1 / tau;
        assertThat(Math.abs(curve[g] - exact))
            .as("w=%s mean=%s shape=%s theta=%s", w, mean, shape, grid.threshold(g))
            .isLessThanOrEqualTo(5e-3 * exact + 1e-3 * mean);
        if (exact > 1e-3 * mean) {
          worst = Math.max(worst, Math.abs(curve[g] / exact - 1));
        }
      }
      table.add(curve, w, mean, shape, 0, Double.POSITIVE_INFINITY, -1);
      for (double c : curve) {
        assertThat(c).isLessThan(1e-9 * (1 + mean));
      }
    }
    // The worst cells are just above a = 1, where E[V] gains a ceiling: 0.4 % there.
    assertThat(worst).as("largest relative error").isLessThan(5e-3);
  }

  @Test
  void aPageWithLittleEvidenceCountsForLessThanAtItsMeanRateNearItsThreshold() {
    // E[V] grows more slowly than V at the mean: such a page is recrawled less often than its mean
    // rate alone would have it, which the curve must say for the global lambda to be right.
    ThresholdGrid grid = new ThresholdGrid(1e-6, 1e6, 3);
    RateTable table = new RateTable(Objective.byName("freshness"), grid);
    double[] atMean = new double[grid.size()];
    double[] planned = new double[grid.size()];
    table.add(atMean, 1, 0.5, 0, 0, Double.POSITIVE_INFINITY, +1);
    table.add(planned, 1, 0.5, 2, 0, Double.POSITIVE_INFINITY, +1);
    int g =
        (int) Math.round(Math.log10(1 / grid.min()) * 3); // theta = 1, about a quarter of w / mean
    assertThat(grid.threshold(g)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(planned[g]).isLessThan(0.9 * atMean[g]).isGreaterThan(0);
  }
}
