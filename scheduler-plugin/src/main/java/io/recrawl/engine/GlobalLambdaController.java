package io.recrawl.engine;

/**
 * Computes the global lambda λ_0, the price of the global crawl budget k_0, once per control period.
 *
 * <p>Feed-forward: the engines report their demand curves capped at each host's rate limit; their
 * sum D(θ) is the crawl rate the whole frontier would take at global lambda θ, so the price that
 * spends the budget is the root of D(θ) = k_0 (0 when demand at any price fits the budget). Feedback:
 * the measured crawl rate corrects what the curve misses (pages in transit between thresholds after
 * a change, estimates in motion) through a bounded multiplicative correction that leaks back to 1.
 */
public final class GlobalLambdaController {

  private final ThresholdGrid grid;
  private final double gain;
  private final double leak;
  private final double maxCorrection;
  private double budget;
  private double correction = 1.0;
  private double lambda;
  private long epoch;

  /**
   * @param budget k_0, crawls per day
   * @param gain how strongly one period's measured overshoot moves the correction (log units)
   * @param leak fraction of the correction forgotten each period, so transients do not stick
   * @param maxCorrection bound on the correction factor and its inverse
   */
  public GlobalLambdaController(ThresholdGrid grid, double budget, double gain, double leak, double maxCorrection) {
    if (!(budget > 0)) {
      throw new IllegalArgumentException("budget must be > 0, got " + budget);
    }
    this.grid = grid;
    this.budget = budget;
    this.gain = gain;
    this.leak = leak;
    this.maxCorrection = maxCorrection;
  }

  /** Defaults that converge within a few periods without ringing. */
  public GlobalLambdaController(ThresholdGrid grid, double budget) {
    this(grid, budget, 0.5, 0.2, 4.0);
  }

  /**
   * One control period: the summed capped demand curve and the crawl rate measured over the period
   * (crawls per day; NaN when not known yet). Returns the new global lambda.
   */
  public double update(double[] demandCurve, double measuredRate) {
    double feedForward = grid.thresholdFor(demandCurve, budget);
    if (feedForward > 0 && measuredRate > 0 && Double.isFinite(measuredRate)) {
      double error = Math.log(measuredRate / budget);
      double logC = (1 - leak) * Math.log(correction) + gain * error;
      double bound = Math.log(maxCorrection);
      correction = Math.exp(Math.max(-bound, Math.min(bound, logC)));
    } else if (feedForward == 0) {
      correction = 1.0;
    }
    lambda = feedForward * correction;
    epoch++;
    return lambda;
  }

  public double lambda() {
    return lambda;
  }

  public long epoch() {
    return epoch;
  }

  public double budget() {
    return budget;
  }

  public double correction() {
    return correction;
  }

  /** A new budget takes effect at the next update. */
  public void setBudget(double budget) {
    if (!(budget > 0)) {
      throw new IllegalArgumentException("budget must be > 0, got " + budget);
    }
    this.budget = budget;
  }
}
