package io.recrawl.optimum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.recrawl.policy.CrawlValue;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FastGInverseTest {

  @Test
  void agreesWithCrawlValueInverseAcrossTheRange() {
    Random rnd = new Random(3);
    double worst = 0;
    for (int i = 0; i < 200_000; i++) {
      // Log-uniform in y over [1e-30, 0.5) and log-uniform in 1 - y over (1e-16, 0.5].
      double y = i % 2 == 0 ? Math.exp(Math.log(1e-30) + rnd.nextDouble() * Math.log(0.5 / 1e-30))
          : 1 - Math.exp(Math.log(1e-16) + rnd.nextDouble() * Math.log(0.5 / 1e-16));
      double expected = CrawlValue.gInverse(y);
      double actual = FastGInverse.inverse(y);
      worst = Math.max(worst, Math.abs(actual - expected) / expected);
    }
    assertEquals(0, worst, 4e-15, "worst relative difference " + worst);
  }

  @Test
  void inverseMapsBackThroughG() {
    for (double y : new double[] {1e-300, 1e-12, 1e-12 * 1.0001, 0.25, 0.5, 0.5 - 1e-17, 0.9, 1 - 1e-16}) {
      assertEquals(y, CrawlValue.g(FastGInverse.inverse(y)), 1e-14 * y, "y = " + y);
    }
  }

  @Test
  void edgesFollowTheConvention() {
    assertEquals(0.0, FastGInverse.inverse(0));
    assertEquals(0.0, FastGInverse.inverse(-1));
    assertEquals(Double.POSITIVE_INFINITY, FastGInverse.inverse(1));
    assertEquals(Double.POSITIVE_INFINITY, FastGInverse.inverse(2));
  }

  @Test
  void pageRatesMatchTheObjectives() {
    Random rnd = new Random(5);
    for (io.recrawl.policy.Objective o : new io.recrawl.policy.Objective[] {
        io.recrawl.policy.Freshness.INSTANCE, io.recrawl.policy.ChangesCaught.INSTANCE,
        io.recrawl.policy.HarmonicStaleness.INSTANCE}) {
      PageRate fast = PageRate.of(o);
      for (int i = 0; i < 20_000; i++) {
        double w = i % 97 == 0 ? 0 : Math.exp(3 * rnd.nextGaussian());
        double d = i % 89 == 0 ? 0 : Math.exp(2 * rnd.nextGaussian());
        double theta = i % 83 == 0 ? 0 : Math.exp(3 * rnd.nextGaussian());
        double expected = o.optimalRate(w, d, theta);
        double actual = fast.at(w, d, theta);
        if (expected == 0 || Double.isInfinite(expected)) {
          assertEquals(expected, actual, o.name() + " w=" + w + " d=" + d + " theta=" + theta);
        } else {
          assertEquals(expected, actual, 4e-15 * expected, o.name() + " w=" + w + " d=" + d + " theta=" + theta);
        }
      }
    }
  }
}
