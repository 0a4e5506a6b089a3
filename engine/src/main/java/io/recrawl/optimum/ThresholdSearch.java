package io.recrawl.optimum;

import java.util.function.DoubleUnaryOperator;

/**
 * Finds the threshold at which a decreasing demand D(theta) meets a limit. It works on ln D against
 * ln theta, where demand curves are close to straight lines (D ~ theta^(-1/2) for small
 * thresholds), first stepping out to a bracket by log-log extrapolation and then closing it with
 * the Illinois variant of regula falsi. It always returns the feasible side of the bracket.
 */
final class ThresholdSearch {

  /** Stop once the demand is within this relative distance below the limit. */
  static final double DEMAND_TOLERANCE = 1e-13;

  /**
   * Stop once the bracket is this narrow in ln theta, and mix its two ends. Every mixed rate then
   * has its crawl value within this relative distance of theta, and the limit is met exactly.
   */
  static final double LOG_WIDTH_TOLERANCE = 1e-10;

  private static final int MAX_EVALUATIONS = 400;

  /** Beyond this the demand is as low as it gets (only floors remain). */
  private static final double THETA_MAX = 1e300;

  private static final double THETA_MIN = 1e-300;

  private ThresholdSearch() {}

  /**
   * Returns theta > low with D(theta) <= limit and D(theta) >= limit (1 - 1e-13), or the feasible
   * end of a bracket at most 1e-10 wide (relative) with the fraction of the way to its other end
   * that meets the limit. Demand curves of many pages are rough at that scale (see {@link
   * ThresholdRoot}), so resolving them further would cost passes and gain nothing.
   *
   * @param demand D, non-increasing and continuous
   * @param low a threshold with D(low) > limit; may be 0
   * @param demandAtLow D(low), which is > limit (may be +infinity)
   * @param guess a first estimate of the root, > low
   */
  static ThresholdRoot solve(
      DoubleUnaryOperator demand, double limit, double low, double demandAtLow, double guess) {
    if (!(demandAtLow > limit)) {
      throw new IllegalArgumentException(
          "demand at the low end " + demandAtLow + " does not exceed the limit " + limit);
    }
    double a = low;
    double da = demandAtLow;
    double t = guess > low && Double.isFinite(guess) ? guess : (low > 0 ? low * 2 : 1.0);
    double b;
    double db;
    int evaluations = 0;
    // Step up until the demand falls to the limit. Each step extrapolates along the log-log slope.
    while (true) {
      double dt = demand.applyAsDouble(t);
      evaluations++;
      if (dt <= limit) {
        b = t;
        db = dt;
        break;
      }
      double slope = -0.5;
      if (a > 0 && Double.isFinite(da) && da > dt) {
        slope = Math.log(dt / da) / Math.log(t / a);
      }
      slope = Math.max(-20, Math.min(-0.05, slope));
      a = t;
      da = dt;
      // Overshoot the extrapolated root a little so that the next point is likely past it.
      double step = 1.1 * Math.log(dt / limit) / -slope + 1e-3;
      t = t * Math.exp(Math.min(step, Math.log(1e6)));
      if (t > THETA_MAX || evaluations > MAX_EVALUATIONS) {
        return ThresholdRoot.exact(
            THETA_MAX); // only floors are left and they still meet the limit (a caller pre-checks
        // floors)
      }
    }
    // If the low end is 0 (no usable logarithm), step down from b until the demand exceeds the
    // limit.
    while (a == 0) {
      double step = db > 0 ? 1.1 * 2 * Math.log(limit / db) + 1e-3 : Math.log(16);
      t = b * Math.exp(-Math.min(Math.max(step, 1e-3), Math.log(1e6)));
      if (t < THETA_MIN || evaluations > MAX_EVALUATIONS) {
        return ThresholdRoot.exact(b);
      }
      double dt = demand.applyAsDouble(t);
      evaluations++;
      if (dt > limit) {
        a = t;
        da = dt;
      } else {
        b = t;
        db = dt;
      }
    }
    return illinois(demand, limit, a, da, b, db, evaluations);
  }

  private static ThresholdRoot illinois(
      DoubleUnaryOperator demand,
      double limit,
      double a,
      double da,
      double b,
      double db,
      int evaluations) {
    double ua = Math.log(a);
    double ub = Math.log(b);
    double fa = Math.log(da / limit); // > 0
    double ta = a; // the exact theta and demand of the low end, for the final mix
    double daTrue = da;
    double fbTrue = Math.log(db / limit); // <= 0, maybe -infinity when D(b) = 0
    double fb = fbTrue;
    double tb = b; // the exact theta whose demand gave fbTrue: exp(ln b) may be an ulp off
    double dbTrue = db;
    int lastSide = 0;
    double stop = Math.log1p(-DEMAND_TOLERANCE);
    while (fbTrue < stop && ub - ua > LOG_WIDTH_TOLERANCE && evaluations < MAX_EVALUATIONS) {
      double u;
      if (Double.isFinite(fa) && Double.isFinite(fb) && fa != fb) {
        u = ub - fb * (ub - ua) / (fb - fa);
      } else {
        u = 0.5 * (ua + ub);
      }
      if (!(u > ua && u < ub)) {
        u = 0.5 * (ua + ub);
        if (!(u > ua && u < ub)) {
          break;
        }
      }
      double t = Math.exp(u);
      double dt = demand.applyAsDouble(t);
      evaluations++;
      double f = Math.log(dt / limit);
      if (dt <= limit) {
        ub = u;
        tb = t;
        fb = f;
        fbTrue = f;
        dbTrue = dt;
        if (lastSide == -1) {
          fa *= 0.5; // Illinois: the same end moved twice, so halve the other end's value
        }
        lastSide = -1;
      } else {
        ua = u;
        fa = f;
        ta = t;
        daTrue = dt;
        if (lastSide == 1) {
          fb *= 0.5;
        }
        lastSide = 1;
      }
    }
    if (fbTrue >= stop) {
      return ThresholdRoot.exact(tb);
    }
    // The bracket is narrow (or the demand jumps across the limit): mix its two ends to meet it.
    double fraction = (limit - dbTrue) / (daTrue - dbTrue);
    return new ThresholdRoot(tb, ta, Math.max(0, Math.min(1, fraction)));
  }
}
