package io.recrawl.engine;

import io.recrawl.value.Objective;

/**
 * Page rates on the threshold grid, read from tables. A page with a known rate δ has rate δ · R(θ δ
 * / w_eff) (see {@link Objective#effectiveWeight}); on a log-spaced grid of θ, the arguments of R
 * for one page are y_0 · r^g, so a page costs one logarithm and then one table interpolation per
 * grid point instead of one root-finding per grid point.
 *
 * <p>A page planned with its crawl value averaged over a Gamma(a, b) posterior (see {@link
 * Objective#averagesOverPosterior}) is counted at the rate that plan gives it, not at its mean
 * rate: E[V] = w b H_a(τ/b), so its rate is (1/b) · R_a(θ / (w b)), read from one table per shape a
 * on a grid of shapes (within 0.5 % of the exact rate). Counting it at the mean overstated the
 * demand of a page with little evidence (E[V] grows more slowly than V at the mean) and understated
 * it over long gaps (E[V] keeps value there), so the curve and the releases disagreed.
 */
final class RateTable {

  /** Table points per grid step: linear interpolation then errs by about 1e-4 relative. */
  private static final int SUBDIVISIONS = 16;

  private static final double LOG_Y_MIN = Math.log(1e-16);
  private static final double LOG_Y_MAX = Math.log(1e10);

  /** Posterior shapes with a table: SHAPE_MIN · 2^(k / SHAPES_PER_DOUBLING), up to SHAPE_MAX. */
  private static final double SHAPE_MIN = 0.25;

  private static final int SHAPES_PER_DOUBLING = 8;
  private static final int SHAPE_TABLES = 10 * SHAPES_PER_DOUBLING + 1; // up to 256
  private static final double SHAPE_MAX =
      SHAPE_MIN * Math.pow(2, (SHAPE_TABLES - 1) / (double) SHAPES_PER_DOUBLING);

  /** The table at shape exactly 1 (SHAPE_MIN is 1/4). */
  private static final int SHAPE_ONE = 2 * SHAPES_PER_DOUBLING;

  private final Objective objective;
  private final ThresholdGrid grid;
  private final double logStep;
  private final double[] table;

  /** From here on (y > 1/2) rates can fall steeply to 0 (like 1/log near y = 1): solved exactly. */
  private final int exactFrom;

  /**
   * ln R_a(y) per shape, built on first use (an engine, and so its table, serves one thread at a
   * time).
   */
  private final double[][] shapeTables = new double[SHAPE_TABLES][];

  RateTable(Objective objective, ThresholdGrid grid) {
    this.objective = objective;
    this.grid = grid;
    double gridLogStep =
        grid.size() > 1 ? Math.log(grid.threshold(1) / grid.threshold(0)) : Math.log(10);
    this.logStep = gridLogStep / SUBDIVISIONS;
    table = new double[tableSize()];
    exactFrom = (int) Math.floor((Math.log(0.5) - LOG_Y_MIN) / logStep);
    for (int i = 0; i < table.length; i++) {
      table[i] = objective.optimalRate(1.0, 1.0, Math.exp(LOG_Y_MIN + i * logStep));
    }
  }

  private int tableSize() {
    return (int) Math.ceil((LOG_Y_MAX - LOG_Y_MIN) / logStep) + 2;
  }

  /**
   * Adds {@code sign} × the page's rate, clamped to [minRate, maxRate], at every grid point. With
   * {@code shape} 0 the page is counted at the known rate {@code changeRate}; else at the rate that
   * planning with E[V] under the posterior of this shape and mean {@code changeRate} gives it.
   */
  void add(
      double[] curve,
      double weight,
      double changeRate,
      double shape,
      double minRate,
      double maxRate,
      int sign) {
    if (countsFromPosterior(shape)) {
      addPosterior(curve, weight, changeRate, shape, minRate, maxRate, sign);
      return;
    }
    double wEff = objective.effectiveWeight(weight, changeRate);
    double pos = (Math.log(grid.min() * changeRate / wEff) - LOG_Y_MIN) / logStep;
    int base = (int) Math.floor(pos);
    double frac = pos - base;
    for (int g = 0; g < curve.length; g++) {
      int i = base + g * SUBDIVISIONS;
      double rate;
      if (i >= 0 && i + 1 < exactFrom) {
        rate = changeRate * (table[i] + (table[i + 1] - table[i]) * frac);
      } else {
        // Off the table, or near where a page stops being worth crawling: solve exactly.
        rate = objective.optimalRate(weight, changeRate, grid.threshold(g));
      }
      accumulate(curve, g, rate, minRate, maxRate, sign);
    }
  }

  /**
   * The page's rate at one threshold, solved exactly, by the rule {@link #add} follows: what its
   * tables approximate at the grid points.
   */
  double exactRate(double weight, double changeRate, double shape, double threshold) {
    return countsFromPosterior(shape)
        ? expectedRate(weight, shape, shape / changeRate, threshold)
        : objective.optimalRate(weight, changeRate, threshold);
  }

  /**
   * A shape past the tables is evidence enough to count the page at its mean, like a known rate.
   */
  private boolean countsFromPosterior(double shape) {
    return shape > 0 && shape < SHAPE_MAX && objective.averagesOverPosterior();
  }

  private void addPosterior(
      double[] curve,
      double weight,
      double mean,
      double shape,
      double minRate,
      double maxRate,
      int sign) {
    double b = shape / mean;
    if (shape < SHAPE_MIN) {
      for (int g = 0; g < curve.length; g++) {
        accumulate(
            curve, g, expectedRate(weight, shape, b, grid.threshold(g)), minRate, maxRate, sign);
      }
      return;
    }
    // Quadratic in log shape through the three nearest tables: near a = 1, where E[V] gains a
    // ceiling, the rates bend too much in the shape for a straight line between two tables.
    double k = Math.log(shape / SHAPE_MIN) / Math.log(2) * SHAPES_PER_DOUBLING;
    // E[V] has a ceiling only for a > 1. A parabola never spans tables on both sides of the table
    // at exactly 1, so that a page without a ceiling is never solved exactly (slow: its rate only
    // decays) and one with a ceiling is solved exactly only near its own.
    int mid = (int) Math.round(k);
    mid = shape <= 1 ? Math.min(mid, SHAPE_ONE - 1) : Math.max(mid, SHAPE_ONE + 1);
    mid = Math.max(1, Math.min(SHAPE_TABLES - 2, mid));
    double t = k - mid;
    double cLo = t * (t - 1) / 2;
    double cMid = 1 - t * t;
    double cHi = t * (t + 1) / 2;
    double[] lo = shapeTable(mid - 1);
    double[] at = shapeTable(mid);
    double[] hi = shapeTable(mid + 1);
    // E[V] has ceiling w b / (a − 1): near it rates fall steeply to 0, so from half the lowest of
    // the
    // three tables' ceilings on, solve exactly (the same rule as for a known rate).
    double highest = shapeAt(mid + 1);
    int exactAt =
        highest > 1
            ? (int) Math.floor((Math.log(0.5 / (highest - 1)) - LOG_Y_MIN) / logStep)
            : lo.length;
    double pos = (Math.log(grid.min() / (weight * b)) - LOG_Y_MIN) / logStep;
    int base = (int) Math.floor(pos);
    double frac = pos - base;
    for (int g = 0; g < curve.length; g++) {
      int i = base + g * SUBDIVISIONS;
      double rate;
      if (i >= 0 && i + 1 < exactAt) {
        double lnLo = lo[i] + (lo[i + 1] - lo[i]) * frac;
        double lnAt = at[i] + (at[i + 1] - at[i]) * frac;
        double lnHi = hi[i] + (hi[i + 1] - hi[i]) * frac;
        // Never above the largest of the three: where a table has no rate left (e^-700), a parabola
        // through it would overshoot.
        double ln =
            Math.min(cLo * lnLo + cMid * lnAt + cHi * lnHi, Math.max(lnLo, Math.max(lnAt, lnHi)));
        rate = Math.exp(ln) / b;
      } else if (i >= 0 && highest <= 1) {
        rate = 0; // past the table's top, y > 1e10: the time to the threshold is beyond any horizon
      } else {
        rate = expectedRate(weight, shape, b, grid.threshold(g));
      }
      accumulate(curve, g, rate, minRate, maxRate, sign);
    }
  }

  private static void accumulate(
      double[] curve, int g, double rate, double minRate, double maxRate, int sign) {
    double r = Math.max(minRate, Math.min(maxRate, rate));
    curve[g] = Math.max(0, curve[g] + sign * r);
  }

  private static double shapeAt(int k) {
    return SHAPE_MIN * Math.pow(2, k / (double) SHAPES_PER_DOUBLING);
  }

  /**
   * ln R_a(y) at shape a_k: the log, because where E[V] has no ceiling (a ≤ 1) the rate decays like
   * e^(−y) and only its log is close to linear between table points.
   */
  private double[] shapeTable(int k) {
    double[] t = shapeTables[k];
    if (t == null) {
      double a = shapeAt(k);
      t = new double[tableSize()];
      for (int i = 0; i < t.length; i++) {
        // Floored so that no rate (past the ceiling) stays a number to interpolate: e^-700 is 0
        // here.
        t[i] =
            Math.max(-700, Math.log(expectedRate(1.0, a, 1.0, Math.exp(LOG_Y_MIN + i * logStep))));
      }
      shapeTables[k] = t;
    }
    return t;
  }

  /** The rate E[V] planning gives a page: 1 / the time its expected value takes to reach θ. */
  private double expectedRate(double weight, double shape, double b, double threshold) {
    double tau = objective.expectedTimeToThreshold(weight, shape, b, threshold);
    return tau == Double.POSITIVE_INFINITY ? 0.0 : 1.0 / tau;
  }
}
