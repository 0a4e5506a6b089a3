package io.recrawl.value;

/**
 * The freshness crawl value averaged over what is known of the change rate: E[V(tau; delta)] with
 * delta ~ Gamma(shape a, rate b), the estimator's posterior.
 *
 * <p>With V = (w/delta)(1 − e^{−delta tau}(1 + delta tau)) and r = b / (b + tau), the Gamma moments
 * E[1/delta] = b/(a−1), E[e^{−delta tau}/delta] = b/(a−1) r^{a−1} and E[e^{−delta tau}] = r^a give
 *
 * <pre>E[V] = w (b/(a−1) (1 − r^{a−1}) − tau r^a),   dE[V]/dtau = w tau a/(b + tau) r^a,</pre>
 *
 * and at a = 1 the first term is b ln(1 + tau/b). Over long gaps V falls and is convex in delta, so
 * there E[V] is above the value at the mean rate: a page whose rate is uncertain keeps more value,
 * by exactly what its uncertainty allows. Its ceiling E[w/delta] is w b/(a−1), and infinite for a ≤
 * 1, so a page with little evidence is never written off for good: in time it is crawled again and
 * learned.
 */
public final class ExpectedCrawlValue {

  /**
   * Below this (a + 2) tau/b, a three-term series replaces the closed form, which cancels there.
   */
  private static final double SERIES_LIMIT = 1e-3;

  /**
   * Beyond this tau the value counts as never reaching a threshold (days; about 2.7 million years).
   */
  private static final double NEVER = 1e9;

  private static final int MAX_ITERATIONS = 100;

  private ExpectedCrawlValue() {}

  /** E[V(tau)] for weight w under a Gamma(a, b) posterior of the change rate. */
  public static double value(double weight, double a, double b, double tau) {
    if (!(tau > 0)) {
      return 0.0;
    }
    if (Double.isInfinite(tau)) {
      return ceiling(weight, a, b);
    }
    double u = tau / b;
    if ((a + 2) * u < SERIES_LIMIT) {
      // E[delta tau^2/2 − delta^2 tau^3/3 + delta^3 tau^4/8] with E[delta^k] =
      // a(a+1)...(a+k−1)/b^k.
      double m1 = a * u;
      double m2 = m1 * (a + 1) * u;
      double m3 = m2 * (a + 2) * u;
      return weight * tau * (m1 / 2 - m2 / 3 + m3 / 8);
    }
    double lnR = -Math.log1p(u);
    double first = Math.abs(a - 1) < 1e-9 ? -b * lnR : b * -Math.expm1((a - 1) * lnR) / (a - 1);
    return weight * (first - tau * Math.exp(a * lnR));
  }

  /** dE[V]/dtau: how fast the expected value grows. */
  public static double slope(double weight, double a, double b, double tau) {
    return weight * tau * a / (b + tau) * Math.exp(-a * Math.log1p(tau / b));
  }

  /** sup E[V] = E[w/delta] = w b/(a−1); +infinity for a ≤ 1. */
  public static double ceiling(double weight, double a, double b) {
    return a <= 1 ? Double.POSITIVE_INFINITY : weight * b / (a - 1);
  }

  /**
   * A first τ for a threshold the value at the mean rate never reaches (so there is no guess), from
   * E[V]'s form at large u = τ/b: E[V]/(w b) ≈ (1 − a u^(1−a)) / (a − 1), or ln u − 1 at a = 1.
   * Near E[V]'s own ceiling τ grows like a power of 1/(ceiling − θ), and a search doubling from b
   * took tens of steps to get there.
   */
  private static double farGuess(double a, double b, double thetaOverW) {
    double y = thetaOverW / b;
    double u =
        Math.abs(a - 1) < 1e-9 ? Math.exp(y + 1) : Math.pow((1 - (a - 1) * y) / a, 1 / (1 - a));
    return u > 1 && Double.isFinite(u) ? Math.min(u * b, NEVER) : b;
  }

  /**
   * The time since the last crawl at which E[V] reaches {@code threshold}; +infinity ("never") when
   * the threshold is at or above the ceiling. Safeguarded Newton from {@code guess} (the time at
   * the mean rate is a good one): E[V] increases with tau, so a bracket always holds the root.
   */
  public static double timeToThreshold(
      double weight, double a, double b, double threshold, double guess) {
    if (!(weight > 0) || !(a > 0) || !(b > 0)) {
      return Double.POSITIVE_INFINITY;
    }
    if (threshold <= 0) {
      return 0.0;
    }
    if (threshold >= ceiling(weight, a, b)) {
      return Double.POSITIVE_INFINITY;
    }
    double lo = 0;
    double hi = guess > 0 && Double.isFinite(guess) ? guess : farGuess(a, b, threshold / weight);
    while (value(weight, a, b, hi) < threshold) {
      lo = hi;
      hi *= 2;
      if (hi > NEVER) {
        return Double.POSITIVE_INFINITY;
      }
    }
    double x = hi;
    for (int i = 0; i < MAX_ITERATIONS; i++) {
      double f = value(weight, a, b, x) - threshold;
      if (f >= 0) {
        hi = x;
      } else {
        lo = x;
      }
      double next = x - f / slope(weight, a, b, x);
      if (!(next > lo && next < hi)) {
        next = 0.5 * (lo + hi);
      }
      if (Math.abs(next - x) <= 1e-12 * x) {
        return next;
      }
      x = next;
    }
    return x;
  }
}
