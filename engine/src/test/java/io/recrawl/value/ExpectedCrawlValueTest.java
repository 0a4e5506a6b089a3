package io.recrawl.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ExpectedCrawlValueTest {

  /** E[V] by quadrature over the Gamma(a, b) density, in t = ln delta. */
  private static double numeric(double w, double a, double b, double tau) {
    double lo = -30;
    double hi = 8;
    int n = 200_000;
    double h = (hi - lo) / n;
    double z = 0;
    double sum = 0;
    for (int i = 0; i <= n; i++) {
      double t = lo + i * h;
      double delta = Math.exp(t);
      double density = Math.exp(a * t - b * delta) * ((i == 0 || i == n) ? 0.5 : 1.0);
      z += density;
      sum += density * CrawlValue.value(w, delta, tau);
    }
    return sum / z;
  }

  @Test
  void theClosedFormIsTheAverageOfTheCrawlValueOverThePosterior() {
    double[][] cases = {
      {1.0, 1.0, 1.0},
      {1.0, 1.0, 20.0},
      {0.5, 2.0, 3.0},
      {3.0, 6.0, 1.5},
      {2.0, 0.5, 0.01},
      {40.0, 20.0, 4.0},
      {1.0, 100.0, 0.01}, // tau far below b: the series
    };
    for (double[] c : cases) {
      double a = c[0];
      double b = c[1];
      double tau = c[2];
      double expected = numeric(2.0, a, b, tau);
      assertThat(ExpectedCrawlValue.value(2.0, a, b, tau))
          .as("a=%s b=%s tau=%s", a, b, tau)
          .isCloseTo(expected, within(1e-6 * Math.max(1, expected)));
    }
  }

  @Test
  void anUncertainRateIsWorthMoreThanItsMeanAndACertainOneIsWorthItsMean() {
    // Jensen, where V falls and is convex in delta: long gaps and the ceiling.
    assertThat(ExpectedCrawlValue.ceiling(1, 2, 4)).isGreaterThan(CrawlValue.ceiling(1, 0.5));
    for (double tau : new double[] {10, 30}) {
      assertThat(ExpectedCrawlValue.value(1, 2, 4, tau))
          .isGreaterThan(CrawlValue.value(1, 0.5, tau));
    }
    for (double tau : new double[] {0.1, 1, 5, 30}) {
      double a = 1e6;
      assertThat(ExpectedCrawlValue.value(1, a, a / 0.5, tau))
          .isCloseTo(CrawlValue.value(1, 0.5, tau), within(1e-5));
    }
  }

  @Test
  void theSlopeIsTheDerivativeAndTheSeriesMeetsTheClosedForm() {
    double a = 1.7;
    double b = 3;
    for (double tau : new double[] {0.2, 1, 4}) {
      double d = 1e-6;
      double numeric =
          (ExpectedCrawlValue.value(1, a, b, tau + d) - ExpectedCrawlValue.value(1, a, b, tau - d))
              / (2 * d);
      assertThat(ExpectedCrawlValue.slope(1, a, b, tau)).isCloseTo(numeric, within(1e-6));
    }
    // Either side of the switch to the series (at (a + 2) tau / b = 1e-3).
    double edge = 1e-3 * b / (a + 2);
    assertThat(ExpectedCrawlValue.value(1, a, b, edge * 0.999))
        .isCloseTo(
            ExpectedCrawlValue.value(1, a, b, edge * 1.001) * (0.999 * 0.999) / (1.001 * 1.001),
            within(1e-12));
  }

  @Test
  void theTimeToThresholdInvertsTheValueAndIsNeverOnlyAboveTheCeiling() {
    double[][] cases = {{1.0, 1.0}, {0.6, 0.3}, {3.0, 6.0}, {50.0, 10.0}};
    for (double[] c : cases) {
      double a = c[0];
      double b = c[1];
      for (double theta : new double[] {1e-4, 0.05, 0.5, 2}) {
        double ceiling = ExpectedCrawlValue.ceiling(1, a, b);
        double tau =
            ExpectedCrawlValue.timeToThreshold(
                1, a, b, theta, CrawlValue.timeToThreshold(1, a / b, theta));
        if (theta >= ceiling) {
          assertThat(tau).isInfinite();
        } else {
          assertThat(tau).as("a=%s b=%s theta=%s", a, b, theta).isFinite();
          assertThat(ExpectedCrawlValue.value(1, a, b, tau)).isCloseTo(theta, within(1e-9 * theta));
        }
      }
    }
    // With shape <= 1 the ceiling is infinite: a page is never written off, only put off.
    assertThat(ExpectedCrawlValue.ceiling(1, 1, 0.5)).isInfinite();
    assertThat(CrawlValue.timeToThreshold(1, 2, 0.6)).isInfinite(); // at its mean rate: never
    assertThat(ExpectedCrawlValue.timeToThreshold(1, 1, 0.5, 0.6, Double.POSITIVE_INFINITY))
        .isFinite();
    assertThat(ExpectedCrawlValue.ceiling(1, 3, 6)).isEqualTo(3.0);
  }

  @Test
  void withoutAGuessTheTimeIsFoundUpToTheCeilingAndFarBeyondTheMeanRatesCeiling() {
    // Past w / mean the value at the mean rate never reaches theta, so there is no guess: the
    // solver
    // starts from where E[V] approaches its own ceiling (or grows like ln tau at a = 1).
    for (double a : new double[] {0.4, 1.0, 1.05, 1.3, 3.0, 40.0}) {
      double b = 2.0;
      double top = a > 1 ? ExpectedCrawlValue.ceiling(1, a, b) : 40 * b;
      for (double f : new double[] {0.3, 0.6, 0.9, 0.99, 0.999}) {
        double theta = f * top;
        double tau = ExpectedCrawlValue.timeToThreshold(1, a, b, theta, Double.POSITIVE_INFINITY);
        if (tau == Double.POSITIVE_INFINITY) {
          // Only past the solver's horizon of 1e9 days.
          assertThat(ExpectedCrawlValue.value(1, a, b, 1e9))
              .as("a=%s f=%s", a, f)
              .isLessThan(theta);
          continue;
        }
        assertThat(ExpectedCrawlValue.value(1, a, b, tau))
            .as("a=%s f=%s", a, f)
            .isCloseTo(theta, within(1e-9 * theta));
      }
    }
  }
}
