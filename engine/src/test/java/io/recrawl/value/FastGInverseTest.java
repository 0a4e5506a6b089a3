package io.recrawl.value;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FastGInverseTest {

  @Test
  void agreesWithNewtonAcrossTheRange() {
    Random rnd = new Random(3);
    double worst = 0;
    for (int i = 0; i < 200_000; i++) {
      // Log-uniform in y over [1e-30, 0.5) and log-uniform in 1 - y over (1e-16, 0.5].
      double y =
          i % 2 == 0
              ? Math.exp(Math.log(1e-30) + rnd.nextDouble() * Math.log(0.5 / 1e-30))
              : 1 - Math.exp(Math.log(1e-16) + rnd.nextDouble() * Math.log(0.5 / 1e-16));
      double expected = CrawlValue.gInverseByNewton(y);
      double actual = FastGInverse.inverse(y);
      worst = Math.max(worst, Math.abs(actual - expected) / expected);
    }
    assertEquals(0, worst, 4e-15, "worst relative difference " + worst);
  }

  @Test
  void inverseMapsBackThroughG() {
    for (double y :
        new double[] {1e-300, 1e-12, 1e-12 * 1.0001, 0.25, 0.5, 0.5 - 1e-17, 0.9, 1 - 1e-16}) {
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
}
