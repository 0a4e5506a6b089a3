package io.recrawl.engine;

/**
 * Computes the global lambda λ_0, the price of the global crawl budget k_0, once per control period.
 *
 * <p>Feed-forward: the engines report their demand curves capped at each host's rate limit; their
 * sum D(θ) is the crawl rate the whole frontier would take at global lambda θ, so the price that
 * spends the budget is the root of D(θ) = k_0 (0 when demand at any price fits the budget), less a
 * little headroom. The
 * curve answers a budget or frontier change in one period, without a loop to ring.
 *
 * <p>Feedback, for what the curve gets wrong (pacing gaps on limited hosts, leases, estimates in
 * motion): the controller keeps moving averages of the crawl rate measured over each period and of
 * the rate the curve predicted for the lambda it broadcast, and aims the curve at the budget divided
 * by their ratio. It averages only steady periods (lambda moved little): right after a change the
 * two differ because pages are in transit between thresholds, which is not a model error and would
 * only make the loop overshoot. Every steady period counts, however far off: leaving out the noisy
 * ones would bias the ratio.
 */
public final class GlobalLambdaController {

  private static final double MAX_BIAS = Math.log(2);

  private final ThresholdGrid grid;
  private final double learningRate;
  private final double steadyBand;
  private final double headroom;
  private double budget;
  private double measuredAverage;
  private double predictedAverage;
  private double predicted = Double.NaN;
  private double lambda;
  private double previousLambda = Double.NaN;
  private long epoch;

  /**
   * @param budget k_0, crawls per day
   * @param learningRate weight of one steady period in the moving averages
   * @param steadyBand |log| of the change in lambda below which a period counts as steady
   * @param headroom share of the budget left unused on average, so that the crawler's fetch queue
   *     stays short: releases fall due in random clumps, and at 100 % use the queue would only grow
   */
  public GlobalLambdaController(
      ThresholdGrid grid, double budget, double learningRate, double steadyBand, double headroom) {
    if (!(budget > 0)) {
      throw new IllegalArgumentException("budget must be > 0, got " + budget);
    }
    this.grid = grid;
    this.budget = budget;
    this.learningRate = learningRate;
    this.steadyBand = steadyBand;
    this.headroom = headroom;
  }

  /** How long the feedback averages its evidence, days: one hour's count is noise, not model error. */
  static final double BIAS_AVERAGING_DAYS = 10;

  /**
   * Defaults for a control period of {@code periodDays}: the feedback averages over about ten days
   * of steady periods, whatever the period (with an hourly period, averaging over ten periods made
   * lambda follow the noise in hourly crawl counts, and jitter in lambda costs freshness); a period
   * is steady when lambda moved under 5 %; 1 % headroom.
   */
  public GlobalLambdaController(ThresholdGrid grid, double budget, double periodDays) {
    this(grid, budget, Math.min(1.0, periodDays / BIAS_AVERAGING_DAYS), 0.05, 0.01);
  }

  /**
   * One control period: the summed capped demand curve, and the crawl rate measured over the period
   * that just ended (crawls per day; NaN when not known). Returns the new global lambda.
   */
  public double update(double[] demandCurve, double measuredRate) {
    boolean steady = lambda > 0 && previousLambda > 0 && Math.abs(Math.log(lambda / previousLambda)) < steadyBand;
    if (steady && predicted > 0 && measuredRate >= 0 && Double.isFinite(measuredRate)) {
      measuredAverage += learningRate * (measuredRate - measuredAverage);
      predictedAverage += learningRate * (predicted - predictedAverage);
    }
    double target = budget * (1 - headroom) * Math.exp(-bias());
    previousLambda = lambda;
    lambda = grid.thresholdFor(demandCurve, target);
    predicted = lambda > 0 ? grid.demandAt(demandCurve, lambda) : Double.NaN; // 0: demand fits, nothing to learn
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

  /** The learned log ratio of measured to predicted crawl rate (0 until steady periods were seen). */
  public double bias() {
    if (!(measuredAverage > 0) || !(predictedAverage > 0)) {
      return 0;
    }
    return Math.max(-MAX_BIAS, Math.min(MAX_BIAS, Math.log(measuredAverage / predictedAverage)));
  }

  /** A new budget takes effect at the next update. */
  public void setBudget(double budget) {
    if (!(budget > 0)) {
      throw new IllegalArgumentException("budget must be > 0, got " + budget);
    }
    this.budget = budget;
  }
}
