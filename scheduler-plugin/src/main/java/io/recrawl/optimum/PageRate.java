package io.recrawl.optimum;

import io.recrawl.policy.ChangesCaught;
import io.recrawl.policy.Freshness;
import io.recrawl.policy.Objective;

/**
 * A page's optimal rate at a threshold, {@code objective.optimalRate(w, delta, theta)}. Freshness
 * and changes caught share the crawl value (w'/delta) g(delta tau), with w' = w and w' = w delta,
 * so their rate is delta / g^-1(theta delta / w'); those two use {@link FastGInverse}.
 */
interface PageRate {

  double at(double weight, double changeRate, double threshold);

  static PageRate of(Objective objective) {
    if (objective == Freshness.INSTANCE) {
      return (w, d, theta) -> freshnessShaped(w, d, theta);
    }
    if (objective == ChangesCaught.INSTANCE) {
      return (w, d, theta) -> freshnessShaped(w * d, d, theta);
    }
    return objective::optimalRate;
  }

  /** delta / g^-1(theta delta / w), with optimalRate's conventions: 0 for w or delta 0, infinity at theta 0. */
  private static double freshnessShaped(double w, double d, double theta) {
    if (d <= 0 || w <= 0) {
      return 0.0;
    }
    if (theta <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    double x = FastGInverse.inverse(theta * d / w);
    return x == Double.POSITIVE_INFINITY ? 0.0 : d / x;
  }
}
