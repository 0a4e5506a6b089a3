package io.recrawl.engine;

import io.recrawl.policy.Objective;

/**
 * Page rates on the threshold grid, read from one table per objective. A page's rate is
 * δ · R(θ δ / w_eff) (see {@link Objective#effectiveWeight}); on a log-spaced grid of θ, the
 * arguments of R for one page are y_0 · r^g, so a page costs one logarithm and then one table
 * interpolation per grid point instead of one root-finding per grid point.
 */
final class RateTable {

  /** Table points per grid step: linear interpolation then errs by about 1e-4 relative. */
  private static final int SUBDIVISIONS = 16;
  private static final double LOG_Y_MIN = Math.log(1e-16);
  private static final double LOG_Y_MAX = Math.log(1e10);

  private final Objective objective;
  private final ThresholdGrid grid;
  private final double logStep;
  private final double[] table;
  /** From here on (y > 1/2) rates can fall steeply to 0 (like 1/log near y = 1): solved exactly. */
  private final int exactFrom;

  RateTable(Objective objective, ThresholdGrid grid) {
    this.objective = objective;
    this.grid = grid;
    double gridLogStep = grid.size() > 1 ? Math.log(grid.threshold(1) / grid.threshold(0)) : Math.log(10);
    this.logStep = gridLogStep / SUBDIVISIONS;
    int n = (int) Math.ceil((LOG_Y_MAX - LOG_Y_MIN) / logStep) + 2;
    table = new double[n];
    exactFrom = (int) Math.floor((Math.log(0.5) - LOG_Y_MIN) / logStep);
    for (int i = 0; i < n; i++) {
      table[i] = objective.optimalRate(1.0, 1.0, Math.exp(LOG_Y_MIN + i * logStep));
    }
  }

  /** Adds {@code sign} × the page's rate, clamped to [minRate, maxRate], at every grid point. */
  void add(double[] curve, double weight, double changeRate, double minRate, double maxRate, int sign) {
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
      rate = Math.max(minRate, Math.min(maxRate, rate));
      curve[g] = Math.max(0, curve[g] + sign * rate);
    }
  }
}
