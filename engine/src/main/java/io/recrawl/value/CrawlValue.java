package io.recrawl.value;

/**
 * The crawl value function of Google's "Crawling the internet" post, and its inverse.
 *
 * <p>For a page of weight {@code w} that changes as a Poisson process of rate {@code delta}, last
 * crawled {@code tau} ago: {@code V(tau) = (w/delta)(1 - e^(-delta tau)) - w tau e^(-delta tau)}.
 * With {@code x = delta tau} this is {@code (w/delta) g(x)} where {@code g(x) = 1 - e^(-x)(1 + x)}
 * is universal, so a single well-conditioned inverse of {@code g} serves every page. Time and rate
 * units are the caller's, as long as they agree (the project uses days).
 */
public final class CrawlValue {

  private CrawlValue() {}

  /** Below this x, g is summed as a series: the closed form cancels catastrophically near 0. */
  static final double SERIES_LIMIT = 0.75;

  /**
   * Newton stops once a step is this small relative to x: the next step would be far below an ulp.
   * (A tolerance under one ulp, 2.2e-16, is never met once the iterate dithers by an ulp, and every
   * call would then run all its iterations.)
   */
  private static final double NEWTON_TOLERANCE = 1e-15;

  /** g(x) = 1 - e^(-x)(1 + x), accurate to a few ulps for every x >= 0. */
  public static double g(double x) {
    if (!(x > 0)) {
      return 0.0;
    }
    return x < SERIES_LIMIT ? gSeries(x) : -Math.expm1(-x) - x * Math.exp(-x);
  }

  /**
   * g(x) = x^2 sum_{n>=0} G_SERIES[n] x^n with G_SERIES[n] = (-1)^n (n + 1) / (n + 2)!; 19 terms
   * reach 1e-19 relative at x = 0.75.
   */
  private static final double[] G_SERIES = new double[19];

  static {
    double factorial = 2; // (n + 2)! at n = 0
    for (int n = 0; n < G_SERIES.length; n++) {
      G_SERIES[n] = (n % 2 == 0 ? 1 : -1) * (n + 1) / factorial;
      factorial *= n + 3;
    }
  }

  /** g by its Taylor series (Horner), for x below SERIES_LIMIT where the closed form cancels. */
  static double gSeries(double x) {
    double p = 0;
    for (int n = G_SERIES.length - 1; n >= 0; n--) {
      p = p * x + G_SERIES[n];
    }
    return x * x * p;
  }

  /** g'(x) = x e^(-x). */
  public static double gPrime(double x) {
    return x * Math.exp(-x);
  }

  /**
   * The inverse of g on [0, 1): the x with g(x) = y. Returns 0 for y <= 0 and +infinity for y >= 1
   * (the threshold is at or above the value ceiling: the page is never worth a crawl). Every due
   * time is one of these, so it is read from a table and polished by one Newton step ({@link
   * FastGInverse}); it agrees with {@link #gInverseByNewton} to 4e-15 relative.
   */
  public static double gInverse(double y) {
    return FastGInverse.inverse(y);
  }

  /**
   * The inverse of g by Newton's method from a rough start: the reference the table is built from.
   */
  static double gInverseByNewton(double y) {
    if (!(y > 0)) {
      return 0.0;
    }
    if (!(y < 1)) {
      return Double.POSITIVE_INFINITY;
    }
    if (y < 0.5) {
      // Newton on ln g(x) = ln y: nearly linear in ln x because g ~ x^2/2 near 0.
      double x = Math.sqrt(2 * y) * (1 + Math.sqrt(2 * y) / 3);
      double lnY = Math.log(y);
      for (int i = 0; i < 60; i++) {
        double gx = g(x);
        double step = (Math.log(gx) - lnY) * gx / gPrime(x);
        double next = x - step;
        if (next <= 0) {
          next = x / 2;
        }
        if (Math.abs(next - x) <= NEWTON_TOLERANCE * x) {
          return next;
        }
        x = next;
      }
      return x;
    }
    // Upper half: solve x - ln(1 + x) = -ln(1 - y), which stays well-conditioned as y -> 1.
    double target = -Math.log1p(-y);
    double x = target + Math.log1p(target);
    for (int i = 0; i < 60; i++) {
      double f = x - Math.log1p(x) - target;
      double next = x - f * (1 + x) / x;
      if (Math.abs(next - x) <= NEWTON_TOLERANCE * x) {
        return next;
      }
      x = next;
    }
    return x;
  }

  /** The crawl value V(tau) of a page: the marginal freshness gained per unit of crawl rate. */
  public static double value(double weight, double changeRate, double tau) {
    if (changeRate <= 0 || tau <= 0) {
      return 0.0;
    }
    if (Double.isInfinite(tau)) {
      return ceiling(weight, changeRate);
    }
    return weight / changeRate * g(changeRate * tau);
  }

  /** sup V = w / delta: a threshold at or above it means the page is never recrawled. */
  public static double ceiling(double weight, double changeRate) {
    return changeRate <= 0 ? 0.0 : weight / changeRate;
  }

  /**
   * The time since the last crawl at which V reaches {@code threshold}: tau* = g^-1(theta delta /
   * w) / delta. Returns +infinity ("never") when the threshold is at or above w / delta.
   */
  public static double timeToThreshold(double weight, double changeRate, double threshold) {
    if (changeRate <= 0 || weight <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    if (threshold <= 0) {
      return 0.0;
    }
    return gInverse(threshold * changeRate / weight) / changeRate;
  }

  /**
   * Time-averaged freshness F = (1 - e^(-delta interval)) / (delta interval) of a page crawled
   * every interval.
   */
  public static double freshness(double changeRate, double interval) {
    if (Double.isInfinite(interval)) {
      return changeRate <= 0 ? 1.0 : 0.0;
    }
    double x = changeRate * interval;
    if (x <= 0) {
      return 1.0;
    }
    return x < 1e-8 ? 1 - x / 2 : -Math.expm1(-x) / x;
  }
}
