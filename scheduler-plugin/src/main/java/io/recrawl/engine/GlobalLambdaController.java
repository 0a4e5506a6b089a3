package io.recrawl.engine;

/**
 * Computes the global lambda λ_0, the price of the global crawl budget k_0, once per control period.
 *
 * <p>Feed-forward: the engines report their demand curves capped at each host's rate limit; their
 * sum D(θ) is the crawl rate the whole frontier would take at global lambda θ, so the price that
 * spends the budget is the root of D(θ) = k_0 (0 when demand at any price fits the budget). The
 * curve answers a budget or frontier change in one period, without a loop to ring.
 *
 * <p>Feedback, for what the curve gets wrong (pacing delays, leases, estimates in motion): the
 * controller compares the crawl rate measured over a period with the rate the curve predicted for
 * the lambda it broadcast, and learns the ratio as a bias on the target. It learns only near a steady
 * state: right after a change the two differ because pages are in transit between thresholds, which
 * is not a model error and would only make the loop overshoot.
 */
public final class GlobalLambdaController {

  private final ThresholdGrid grid;
  private final double learningRate;
  private final double steadyBand;
  private double budget;
  private double bias;
  private double predicted = Double.NaN;
  private double lambda;
  private double previousLambda = Double.NaN;
  private long epoch;

  /**
   * @param budget k_0, crawls per day
   * @param learningRate weight of one steady period in the bias, a moving average of log(measured / predicted)
   * @param steadyBand |log| of the change in lambda, and of measured / predicted, below which a period counts as steady
   */
  public GlobalLambdaController(ThresholdGrid grid, double budget, double learningRate, double steadyBand) {
    if (!(budget > 0)) {
      throw new IllegalArgumentException("budget must be > 0, got " + budget);
    }
    this.grid = grid;
    this.budget = budget;
    this.learningRate = learningRate;
    this.steadyBand = steadyBand;
  }

  /** Defaults: learn a bias within a few steady periods; a period is steady within 5 %. */
  public GlobalLambdaController(ThresholdGrid grid, double budget) {
    this(grid, budget, 0.3, 0.05);
  }

  /**
   * One control period: the summed capped demand curve, and the crawl rate measured over the period
   * that just ended (crawls per day; NaN when not known). Returns the new global lambda.
   */
  public double update(double[] demandCurve, double measuredRate) {
    // Steady: the price the crawl ran at was close to the one before it, so the crawl had settled.
    boolean steady = lambda > 0 && previousLambda > 0 && Math.abs(Math.log(lambda / previousLambda)) < steadyBand;
    if (steady && predicted > 0 && measuredRate > 0 && Double.isFinite(measuredRate)) {
      double error = Math.log(measuredRate / predicted);
      if (Math.abs(error) < steadyBand) {
        bias = Math.max(-MAX_BIAS, Math.min(MAX_BIAS, (1 - learningRate) * bias + learningRate * error));
      }
    }
    double target = budget * Math.exp(-bias);
    previousLambda = lambda;
    lambda = grid.thresholdFor(demandCurve, target);
    predicted = grid.demandAt(demandCurve, lambda);
    if (lambda == 0) {
      predicted = Double.NaN; // demand fits the budget: nothing to learn from
    }
    epoch++;
    return lambda;
  }

  private static final double MAX_BIAS = Math.log(2);

  public double lambda() {
    return lambda;
  }

  public long epoch() {
    return epoch;
  }

  public double budget() {
    return budget;
  }

  /** The learned log ratio of measured to predicted crawl rate. */
  public double bias() {
    return bias;
  }

  /** A new budget takes effect at the next update. */
  public void setBudget(double budget) {
    if (!(budget > 0)) {
      throw new IllegalArgumentException("budget must be > 0, got " + budget);
    }
    this.budget = budget;
  }
}
