package io.recrawl.optimum;

import io.recrawl.policy.CrawlValue;

/**
 * The inverse of g(x) = 1 - e^(-x)(1 + x), as {@link CrawlValue#gInverse} computes it, but seeded
 * from a cubic Hermite table so that a single Newton step reaches full precision. The solver
 * evaluates it millions of times per solve; the table is built once from {@code gInverse} itself.
 */
final class FastGInverse {

  private FastGInverse() {}

  /** Below this y the series seed x = s (1 + s/3), s = sqrt(2y), is already within 1e-12. */
  private static final double SERIES_Y = 1e-12;
  private static final double SPLIT_Y = 0.5;
  private static final int KNOTS = 1024;
  /** Below this x, g is summed as a series (the closed form loses up to 1/x ulps to cancellation). */
  private static final double SERIES_X = 0.75;
  /**
   * g(x) = x^2 sum_{n>=0} G_SERIES[n] x^n, G_SERIES[n] = (-1)^n (n + 1) / (n + 2)!; 19 terms reach
   * 1e-19 relative at x = 0.75.
   */
  private static final double[] G_SERIES = new double[19];

  static {
    double factorial = 2; // (n + 2)! at n = 0
    for (int n = 0; n < G_SERIES.length; n++) {
      G_SERIES[n] = (n % 2 == 0 ? 1 : -1) * (n + 1) / factorial;
      factorial *= n + 3;
    }
  }

  // Lower half: ln x against ln y on [ln 1e-12, ln 0.5].
  private static final double LOW_Z0 = Math.log(SERIES_Y);
  private static final double LOW_H = (Math.log(SPLIT_Y) - LOW_Z0) / KNOTS;
  private static final double[] LOW_F = new double[KNOTS + 1];
  private static final double[] LOW_M = new double[KNOTS + 1];

  // Upper half: ln x against ln t, t = -ln(1 - y), on [ln ln 2, ln 40]; y < 1 in doubles gives t < 37.
  private static final double HIGH_Z0 = Math.log(Math.log(2));
  private static final double HIGH_H = (Math.log(40) - HIGH_Z0) / KNOTS;
  private static final double[] HIGH_F = new double[KNOTS + 1];
  private static final double[] HIGH_M = new double[KNOTS + 1];

  static {
    for (int k = 0; k <= KNOTS; k++) {
      double y = Math.exp(LOW_Z0 + k * LOW_H);
      double x = CrawlValue.gInverse(y);
      LOW_F[k] = Math.log(x);
      LOW_M[k] = CrawlValue.g(x) / (x * CrawlValue.gPrime(x)) * LOW_H; // d ln x / d ln y, scaled by h
      double t = Math.exp(HIGH_Z0 + k * HIGH_H);
      double xu = upperNewton(t, t + Math.log1p(t), 60);
      HIGH_F[k] = Math.log(xu);
      HIGH_M[k] = t * (1 + xu) / (xu * xu) * HIGH_H; // d ln x / d ln t, scaled by h
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
      double x0;
      if (y < SERIES_Y) {
        double s = Math.sqrt(2 * y);
        x0 = s * (1 + s / 3);
      } else {
        x0 = Math.exp(hermite(LOW_F, LOW_M, (Math.log(y) - LOW_Z0) / LOW_H));
      }
      // One Newton step on g(x) = y: the seed's error of about 1e-9 squares to far below an ulp.
      double e = Math.exp(-x0);
      double g = x0 < SERIES_X ? gSeries(x0) : 1 - e * (1 + x0);
      return x0 - (g - y) / (x0 * e);
    }
    double t = -Math.log(1 - y); // 1 - y is exact for y >= 0.5, so this equals -log1p(-y)
    double u = (Math.log(t) - HIGH_Z0) / HIGH_H;
    if (u > KNOTS) {
      return upperNewton(t, t + Math.log1p(t), 60);
    }
    return upperNewton(t, Math.exp(hermite(HIGH_F, HIGH_M, u)), 1);
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

  /** Cubic Hermite interpolation at u (in knot units) from values f and scaled slopes m. */
  private static double hermite(double[] f, double[] m, double u) {
    int k = (int) u;
    if (k >= KNOTS) {
      k = KNOTS - 1;
    } else if (k < 0) {
      k = 0;
    }
    double p = u - k;
    double p2 = p * p;
    double p3 = p2 * p;
    return (2 * p3 - 3 * p2 + 1) * f[k] + (p3 - 2 * p2 + p) * m[k]
        + (-2 * p3 + 3 * p2) * f[k + 1] + (p3 - p2) * m[k + 1];
  }
}
