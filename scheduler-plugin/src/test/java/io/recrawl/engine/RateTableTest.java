package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.policy.Objective;
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
        table.add(curve, w, delta, 0, Double.POSITIVE_INFINITY, +1);
        for (int g = 0; g < grid.size(); g++) {
          double exact = o.optimalRate(w, delta, grid.threshold(g));
          // Near a freshness cut-off (rate -> 0) compare absolutely, elsewhere relatively.
          assertThat(Math.abs(curve[g] - exact))
              .as("%s w=%s delta=%s theta=%s", name, w, delta, grid.threshold(g))
              .isLessThanOrEqualTo(2e-3 * exact + 1e-3 * delta);
        }
        table.add(curve, w, delta, 0, Double.POSITIVE_INFINITY, -1);
        for (double c : curve) {
          assertThat(c).isLessThan(1e-9 * (1 + delta));
        }
      }
    }
  }
}
