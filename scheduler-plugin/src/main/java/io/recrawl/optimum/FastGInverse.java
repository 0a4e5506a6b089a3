package io.recrawl.optimum;

import io.recrawl.policy.CrawlValue;

/**
 * The inverse of g(x) = 1 - e^(-x)(1 + x), as {@link CrawlValue#gInverse} computes it, but seeded
 * from a cubic Hermite table so that a single Newton step reaches full precision. The solver
 * evaluates it millions of times per solve; the table is built once from {@code gInverse} itself.
 *
 * <p>The tables avoid logarithms and exponentials in the seed. Below y = 1/2 they hold
 * x / s against s = sqrt(2y), which is analytic at s = 0 (x = s + s^2/3 + ...). Above, they hold x
 * against t = -ln(1 - y), the variable in which the inverse stays well-conditioned as y nears 1.
 */
final class FastGInverse {

  private FastGInverse() {}

  private static final double SPLIT_Y = 0.5;
  private static final int KNOTS = 1024;
  /** Below this x, g is summed as a series (the closed form loses up to 1/x ulps to cancellation). */
  private static final double SERIES_X = 0.75;

  /**
   * g(x) = x^2 sum_{n>=0} G_SERIES[n] x^n, G_SERIES[n] = (-1)^n (n + 1) / (n + 2)!; 19 terms reach
   * 1e-19 relative at x = 0.75.
   */
  private static final double[] G_SERIES = new double[19];

  // Lower half: x / s against s = sqrt(2y) on [0, 1].
  private static final double LOW_H = 1.0 / KNOTS;
  private static final double[] LOW = new double[2 * (KNOTS + 1)]; // value, slope x h; interleaved

  // Upper half: x against t = -ln(1 - y) on [ln 2, 40]; y < 1 in doubles gives t < 37.
  private static final double HIGH_T0 = Math.log(2);
  private static final double HIGH_H = (40 - HIGH_T0) / KNOTS;
  private static final double[] HIGH = new double[2 * (KNOTS + 1)];

  static {
    double factorial = 2; // (n + 2)! at n = 0
    for (int n = 0; n < G_SERIES.length; n++) {
      G_SERIES[n] = (n % 2 == 0 ? 1 : -1) * (n + 1) / factorial;
      factorial *= n + 3;
    }
    LOW[0] = 1; // x / s -> 1 as s -> 0
    LOW[1] = LOW_H / 3; // d(x / s)/ds -> 1/3
    for (int k = 1; k <= KNOTS; k++) {
      double s = k * LOW_H;
      double x = CrawlValue.gInverse(s * s / 2);
      double dxds = s / CrawlValue.gPrime(x); // g(x) = s^2 / 2
      LOW[2 * k] = x / s;
      LOW[2 * k + 1] = (dxds - x / s) / s * LOW_H;
    }
    for (int k = 0; k <= KNOTS; k++) {
      double t = HIGH_T0 + k * HIGH_H;
      double x = upperNewton(t, t + Math.log1p(t), 60);
      HIGH[2 * k] = x;
      HIGH[2 * k + 1] = (1 + x) / x * HIGH_H; // dx/dt from x - ln(1 + x) = t
    }
  }

  /** The x >= 0 with g(x) = y: 0 for y <= 0, +infinity for y >= 1. */
  static double inverse(double y) {
    if (!(y > 0)) {
      return 0.0;
    }
    if (!(y < 1)) {
      return Double.POSITIVE_INFINITY;
    }
    if (y < SPLIT_Y) {
      double s = Math.sqrt(2 * y);
      double x0 = s * hermite(LOW, s / LOW_H);
      // One Newton step on g(x) = y: the seed's relative error (under 1e-10) squares to far below an ulp.
      double e = Math.exp(-x0);
      double g = x0 < SERIES_X ? gSeries(x0) : 1 - e * (1 + x0);
      return x0 - (g - y) / (x0 * e);
    }
    double t = -Math.log(1 - y); // 1 - y is exact for y >= 0.5, so this equals -log1p(-y)
    double u = (t - HIGH_T0) / HIGH_H;
    if (u > KNOTS) {
      return upperNewton(t, t + Math.log1p(t), 60);
    }
    return upperNewton(t, hermite(HIGH, u), 1);
  }

  /** Newton on x - ln(1 + x) = t, which is g(x) = y written without cancellation near y = 1. */
  private static double upperNewton(double t, double x, int maxSteps) {
    for (int i = 0; i < maxSteps; i++) {
      // x > 1.6 here (y >= 0.5), so log(1 + x) loses nothing against log1p.
      double next = x - (x - Math.log(1 + x) - t) * (1 + x) / x;
      if (Math.abs(next - x) <= 1e-15 * x) {
        return next;
      }
      x = next;
    }
    return x;
  }

  /** g by its Taylor series, for x below SERIES_X where 1 - e^(-x)(1 + x) would cancel. */
  private static double gSeries(double x) {
    double p = 0;
    for (int n = G_SERIES.length - 1; n >= 0; n--) {
      p = p * x + G_SERIES[n];
    }
    return x * x * p;
  }

  /** Cubic Hermite interpolation at u (in knot units) from interleaved values and scaled slopes. */
  private static double hermite(double[] table, double u) {
    int k = (int) u;
    if (k >= KNOTS) {
      k = KNOTS - 1;
    } else if (k < 0) {
      k = 0;
    }
    double p = u - k;
    double p2 = p * p;
    double p3 = p2 * p;
    int i = 2 * k;
    return (2 * p3 - 3 * p2 + 1) * table[i] + (p3 - 2 * p2 + p) * table[i + 1]
        + (-2 * p3 + 3 * p2) * table[i + 2] + (p3 - p2) * table[i + 3];
  }
}
