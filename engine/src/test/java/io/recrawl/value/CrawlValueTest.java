package io.recrawl.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CrawlValueTest {

  private static final double TOL = 1e-12;

  /** x = delta tau log-spaced over [1e-9, 1e3], plus the series/closed-form switch point. */
  private static double[] grid() {
    int n = 1201;
    double[] xs = new double[n + 2];
    for (int i = 0; i < n; i++) {
      xs[i] = Math.pow(10, -9 + 12.0 * i / (n - 1));
    }
    xs[n] = Math.nextDown(0.75);
    xs[n + 1] = 0.75;
    return xs;
  }

  @Test
  void referenceFormulasAgreeWithEachOther() {
    // The series and the closed form at 100 digits must agree where both are usable; otherwise the
    // reference is wrong.
    for (double x : new double[] {0.5, 1, 3, 7.5, 12, 20}) {
      BigDecimal s = ReferenceG.gSeries(new BigDecimal(x));
      BigDecimal c = ReferenceG.gClosed(new BigDecimal(x));
      assertThat(s.subtract(c).abs().doubleValue()).as("x=%s", x).isLessThan(1e-60);
    }
  }

  @Test
  void gIsAccurateOverTheWholeRange() {
    double worst = 0;
    double worstX = 0;
    for (double x : grid()) {
      double err = ReferenceG.relErr(CrawlValue.g(x), ReferenceG.g(new BigDecimal(x)));
      if (err > worst) {
        worst = err;
        worstX = x;
      }
    }
    assertThat(worst).as("worst relative error of g, at x=%s", worstX).isLessThan(TOL);
  }

  @Test
  void valueIsAccurateOverTheWholeRange() {
    SplittableRandom rnd = new SplittableRandom(11);
    double worst = 0;
    for (double x : grid()) {
      double w = Math.exp(rnd.nextDouble(-5, 5));
      double delta = Math.exp(rnd.nextDouble(-7, 4));
      double tau = x / delta;
      BigDecimal bw = new BigDecimal(w);
      BigDecimal bd = new BigDecimal(delta);
      BigDecimal exactX = bd.multiply(new BigDecimal(tau), ReferenceG.MC);
      BigDecimal expected =
          bw.divide(bd, ReferenceG.MC).multiply(ReferenceG.g(exactX), ReferenceG.MC);
      worst = Math.max(worst, ReferenceG.relErr(CrawlValue.value(w, delta, tau), expected));
    }
    assertThat(worst).isLessThan(TOL);
  }

  @Test
  void gInverseMatchesTheReferenceForExactInputs() {
    // y log-spaced from 1e-18 to 0.5, then 1 - y log-spaced from 0.5 down to 1e-15.
    double worst = 0;
    double worstY = 0;
    for (int i = 0; i <= 400; i++) {
      double lo = Math.pow(10, -18 + 17.7 * i / 400);
      double hi = 1 - Math.pow(10, -15 + 14.7 * i / 400);
      for (double y : new double[] {lo, hi}) {
        double x = CrawlValue.gInverse(y);
        double err = ReferenceG.relErr(x, ReferenceG.gInverse(new BigDecimal(y), x));
        if (err > worst) {
          worst = err;
          worstY = y;
        }
      }
    }
    assertThat(worst).as("worst relative error of gInverse, at y=%s", worstY).isLessThan(TOL);
  }

  @Test
  void gInverseRoundTripsInX() {
    // Wherever g(x) < 1 - 1e-6. Near 1 the rounding of y = g(x) to a double alone moves x by
    // eps * kappa, kappa = g / (x g') being the condition number of the inverse; the bound allows
    // for it.
    double eps = Math.ulp(1.0);
    for (double x : grid()) {
      double y = CrawlValue.g(x);
      if (!(y < 1 - 1e-6)) {
        continue;
      }
      double kappa = y / (x * CrawlValue.gPrime(x));
      double back = CrawlValue.gInverse(y);
      assertThat(Math.abs(back - x) / x)
          .as("x=%s kappa=%s", x, kappa)
          .isLessThan(Math.max(TOL, 4 * eps * kappa));
      if (y < 1 - 1e-4) {
        assertThat(Math.abs(back - x) / x).as("x=%s", x).isLessThan(TOL);
      }
    }
  }

  @Test
  void valueAtTimeToThresholdIsTheThreshold() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      double w = Math.exp(rnd.nextDouble(-5, 5));
      double delta = Math.exp(rnd.nextDouble(-7, 4));
      double ceiling = w / delta;
      double theta = ceiling * Math.pow(10, -rnd.nextDouble(0, 12)) * (1 - 1e-6);
      double tau = CrawlValue.timeToThreshold(w, delta, theta);
      assertThat(tau).isFinite().isPositive();
      double v = CrawlValue.value(w, delta, tau);
      assertThat(Math.abs(v - theta) / theta)
          .as("w=%s delta=%s theta=%s", w, delta, theta)
          .isLessThan(TOL);
    }
  }

  @Test
  void neverWhenThresholdReachesTheCeiling() {
    double w = 3;
    double delta = 0.5;
    assertThat(CrawlValue.ceiling(w, delta)).isEqualTo(6.0);
    assertThat(CrawlValue.timeToThreshold(w, delta, 6.0)).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(CrawlValue.timeToThreshold(w, delta, 7.0)).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(CrawlValue.timeToThreshold(w, delta, Math.nextDown(6.0))).isFinite();
    assertThat(Freshness.INSTANCE.optimalRate(w, delta, 6.0)).isZero();
    // A page that never changes is never worth a crawl.
    assertThat(CrawlValue.timeToThreshold(w, 0, 1e-9)).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void valueStartsAtZeroRisesAndApproachesTheCeiling() {
    double w = 2;
    double delta = 0.3;
    assertThat(CrawlValue.value(w, delta, 0)).isZero();
    double prev = 0;
    for (int i = 1; i <= 2000; i++) {
      double tau = Math.pow(10, -6 + 9.0 * i / 2000);
      double v = CrawlValue.value(w, delta, tau);
      // Strictly rising until e^(-x)(1 + x) drops below an ulp of the ceiling (x ~ 35); flat after.
      if (delta * tau < 30) {
        assertThat(v).as("tau=%s", tau).isGreaterThan(prev);
      } else {
        assertThat(v).as("tau=%s", tau).isGreaterThanOrEqualTo(prev);
      }
      assertThat(v).isLessThanOrEqualTo(w / delta);
      prev = v;
    }
    assertThat(CrawlValue.value(w, delta, 1000 / delta)).isEqualTo(w / delta);
    assertThat(CrawlValue.value(w, delta, Double.POSITIVE_INFINITY)).isEqualTo(w / delta);
    // Near 0, V ~ w delta tau^2 / 2.
    double tau = 1e-5;
    assertThat(CrawlValue.value(w, delta, tau) / (w * delta * tau * tau / 2))
        .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
  }

  @Test
  void freshnessOfRegularCrawls() {
    assertThat(CrawlValue.freshness(1, 1))
        .isCloseTo(1 - Math.exp(-1), org.assertj.core.data.Offset.offset(1e-15));
    assertThat(CrawlValue.freshness(2, 0)).isEqualTo(1.0);
    assertThat(CrawlValue.freshness(2, Double.POSITIVE_INFINITY)).isZero();
    assertThat(CrawlValue.freshness(1e-12, 1))
        .isCloseTo(1 - 5e-13, org.assertj.core.data.Offset.offset(1e-20));
  }
}
