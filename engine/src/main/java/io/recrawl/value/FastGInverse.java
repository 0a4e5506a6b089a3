package io.recrawl.value;

/**
 * The inverse of g(x) = 1 - e^(-x)(1 + x), seeded from a cubic Hermite table so that a single
 * Newton step reaches full precision. The engine computes one per due time and the solver millions
 * per solve; Newton from a rough start ({@link CrawlValue#gInverseByNewton}, which builds the
 * table) took four to six steps, each with a logarithm.
 *
 * <p>The tables avoid logarithms and exponentials in the seed. Below y = 1/2 they hold x / s
 * against s = sqrt(2y), which is analytic at s = 0 (x = s + s^2/3 + ...). Above, they hold x
 * against t = -ln(1 - y), the variable in which the inverse stays well-conditioned as y nears 1.
 */
final class FastGInverse {

  private FastGInverse() {}

  private static final double SPLIT_Y = 0.5;
  private static final int KNOTS = 1024;
  // Lower half: x / s against s = sqrt(2y) on [0, 1].
  private static final double LOW_H = 1.0 / KNOTS;
  private static final double[] LOW = new double[2 * (KNOTS + 1)]; // value, slope x h; interleaved

  // Upper half: x against t = -ln(1 - y) on [ln 2, 40]; y < 1 in doubles gives t < 37.
  private static final double HIGH_T0 = Math.log(2);
  private static final double HIGH_H = (40 - HIGH_T0) / KNOTS;
  private static final double[] HIGH = new double[2 * (KNOTS + 1)];

  static {
    LOW[0] = 1; // x / s -> 1 as s -> 0
    LOW[1] = LOW_H / 3; // d(x / s)/ds -> 1/3
    for (int k = 1; k <= KNOTS; k++) {
      double s = k * LOW_H;
      double x = CrawlValue.gInverseByNewton(s * s / 2);
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
      // One Newton step on g(x) = y: the seed's relative error (under 1e-10) squares to far below
      // an ulp.
      double e = Math.exp(-x0);
      double g = x0 < CrawlValue.SERIES_LIMIT ? CrawlValue.gSeries(x0) : 1 - e * (1 + x0);
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
    return (2 * p3 - 3 * p2 + 1) * table[i]
        + (p3 - 2 * p2 + p) * table[i + 1]
        + (-2 * p3 + 3 * p2) * table[i + 2]
        + (p3 - p2) * table[i + 3];
  }
}
