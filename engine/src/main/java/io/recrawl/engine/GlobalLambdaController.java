package io.recrawl.engine;

/**
 * Computes the global lambda λ_0, the price of the global crawl budget k_0, once per control
 * period.
 *
 * <p>Feed-forward: the engines report their demand curves capped at each host's rate limit; their
 * sum D(θ) is the crawl rate the whole frontier would take at global lambda θ, so the price that
 * spends the budget is the root of D(θ) = k_0 (0 when demand at any price fits the budget), less a
 * little headroom. The curve answers a budget or frontier change in one period, without a loop to
 * ring.
 *
 * <p>Feedback, for what the curve gets wrong (pacing gaps on limited hosts, estimates in motion):
 * moving averages of the rate the frontier actually <em>sent</em> over each period and of the rate
 * the curve predicted for the lambda it broadcast; the curve is aimed at the target divided by
 * their ratio. The rate sent is counted as statuses received plus the change in the number of URLs
 * in flight (released, no status yet): unlike the fetch rate it does not stop at the budget when
 * the crawler is saturated (a saturated crawler fetches no faster however much it is sent, and a
 * fetch-rate feedback reads that as demand falling short and sends still more), and unlike a count
 * of releases it does not count a lease's re-release of a URL already waiting. Only steady periods
 * (lambda moved little) are averaged: right after a change the two differ because pages are in
 * transit between thresholds, which is not a model error.
 *
 * <p>Backlog: URLs in flight beyond {@link #QUEUE_ALLOWANCE_DAYS} of budget wait in the crawler's
 * queue, so the target is lowered by that excess spread over {@link #QUEUE_DRAIN_DAYS}: the crawler
 * stays busy while the frontier holds back its least valuable releases. This replaces most of the
 * headroom: releases fall due in clumps, and at 100 % use the queue would otherwise only grow. The
 * caller counts in flight only what waits for the budget: each host up to what its own limit
 * fetches in the allowance ({@link LocalFrontier#inFlightForBudget}); a limited host's queue beyond
 * that waits for the host, whatever the price.
 *
 * <p>Start-up: at first the whole frontier is in flight (every page discovered at once, days of
 * budget), and the URLs waiting say nothing about the price: a backlog term would hold lambda at
 * the top of its grid for the whole first crawl, and a feedback would learn that pages in flight
 * are not sent again. So both wait, and lambda follows the curve alone, until the backlog has once
 * fallen to {@link #START_UP_OVER_DAYS} of budget ({@link #armed()}): the first crawl's backlog is
 * days of budget, a steady crawl's an hour or two. Waiting for the allowance itself could last for
 * ever: with learned rates the curve runs ahead of the releases, the backlog stays above the
 * allowance, and only the feedback and the backlog term, which wait, would bring it down. The
 * feedback waits {@link #BIAS_AVERAGING_DAYS} more: right after the first crawl few pages fall due
 * (they were all just fetched), and learned as model error that trough would lower lambda for
 * weeks. The figures behind both waits are in docs/decisions/global-price-controller.md.
 */
public final class GlobalLambdaController {

  private static final double MAX_BIAS = Math.log(2);

  /**
   * Backlog the crawler may hold without a correction, days of budget: the clumps in which pages
   * fall due (a few hundred URLs at 20,000 a day).
   */
  public static final double QUEUE_ALLOWANCE_DAYS = 0.5 / 24;

  /**
   * The start-up is over once the backlog has fallen to this, days of budget (see the class
   * comment).
   */
  static final double START_UP_OVER_DAYS = 2.0 / 24;

  /**
   * The backlog term's time constant, days: the target is lowered by the backlog beyond the
   * allowance divided by this. Long on purpose: raising lambda by x defers the pages near their
   * threshold by about x of their recrawl interval (days), so releases stop for hours after even a
   * small rise; draining over 6 hours made lambda jump, the crawl stop and the backlog come back in
   * the next clump (and lambda at the top of its grid sends every page it re-checks meanwhile days
   * away, to return together a week later). Over 2 days the term moves lambda by a fraction of a
   * percent per clump.
   */
  static final double QUEUE_DRAIN_DAYS = 2;

  /**
   * Most the backlog term lowers the target by, share of the budget (a burst is drained by the
   * crawler, not by a price spike).
   */
  static final double MAX_QUEUE_CUT = 0.1;

  /** Default share of the budget left unused on average; the backlog term does the rest. */
  static final double DEFAULT_HEADROOM = 0.0025;

  private final ThresholdGrid grid;
  private final double periodDays;
  private final double dayDays;
  private final double learningRate;
  private final double steadyBand;
  private final double headroom;
  private double budget;
  private double measuredAverage;
  private double predictedAverage;
  private double predicted = Double.NaN;
  private double lambda;
  private double previousLambda = Double.NaN;
  private double previousInFlight = -1;
  private boolean armed;

  /** Control periods since {@link #armed()}. */
  private long periodsArmed;

  private long epoch;

  /**
   * @param budget k_0, crawls per day
   * @param periodDays the control period, days (turns the change in URLs in flight into a rate)
   * @param dayDays the length of the crawl's day, days: 1 in real time, a simulated day's length in
   *     compressed time. The feedback's averaging and its wait after the start-up, and the
   *     backlog's drain, are so many of these days: they follow how fast pages change and are
   *     recrawled. The backlog's allowances are the crawler's queue, in real time.
   * @param learningRate weight of one steady period in the moving averages
   * @param steadyBand |log| of the change in lambda below which a period counts as steady
   * @param headroom share of the budget left unused on average
   */
  public GlobalLambdaController(
      ThresholdGrid grid,
      double budget,
      double periodDays,
      double dayDays,
      double learningRate,
      double steadyBand,
      double headroom) {
    if (!(budget > 0)) {
      throw new IllegalArgumentException("budget must be > 0, got " + budget);
    }
    if (!(dayDays > 0) || Double.isInfinite(dayDays)) {
      throw new IllegalArgumentException("the crawl's day must be > 0 days, got " + dayDays);
    }
    this.grid = grid;
    this.budget = budget;
    this.periodDays = periodDays;
    this.dayDays = dayDays;
    this.learningRate = learningRate;
    this.steadyBand = steadyBand;
    this.headroom = headroom;
  }

  /**
   * How long the feedback averages its evidence, days: one hour's count is noise, not model error.
   * Three days, not ten: the model error moves over days while learned rates converge and after the
   * frontier moves, and ten days kept the error of the first weeks for weeks after
   * (docs/decisions/global-price-controller.md).
   */
  static final double BIAS_AVERAGING_DAYS = 3;

  /**
   * Defaults for a control period of {@code periodDays}: the feedback averages over about three
   * days of steady periods, whatever the period (with an hourly period, averaging over ten periods
   * made lambda follow the noise in hourly crawl counts, and jitter in lambda costs freshness); a
   * period is steady when lambda moved under 5 %; 0.25 % headroom.
   */
  public GlobalLambdaController(ThresholdGrid grid, double budget, double periodDays) {
    this(grid, budget, periodDays, 1.0);
  }

  /** The same for a crawl whose day lasts {@code dayDays} days (compressed time). */
  public GlobalLambdaController(
      ThresholdGrid grid, double budget, double periodDays, double dayDays) {
    this(
        grid,
        budget,
        periodDays,
        dayDays,
        Math.min(1.0, periodDays / (BIAS_AVERAGING_DAYS * dayDays)),
        0.05,
        DEFAULT_HEADROOM);
  }

  /** {@link #update(double[], double, double)} without a count of URLs in flight. */
  public double update(double[] demandCurve, double measuredRate) {
    return update(demandCurve, measuredRate, -1);
  }

  /**
   * One control period: the summed capped demand curve, the rate of statuses received over the
   * period that just ended (crawls per day; NaN when not known) and the URLs in flight now
   * (released, no status yet, lease not expired; negative when not known). Returns the new lambda.
   *
   * <p>Without a count in flight, the feedback compares the status rate itself, there is no backlog
   * term, and it learns from the first period (the behaviour before the count existed).
   */
  public double update(double[] demandCurve, double measuredRate, double inFlight) {
    boolean counted = inFlight >= 0;
    double allowance = budget * QUEUE_ALLOWANCE_DAYS;
    double sent = measuredRate;
    if (counted && previousInFlight >= 0) {
      sent = measuredRate + (inFlight - previousInFlight) / periodDays;
    }
    // Counted at the end of a period that ran (statuses known), not at the first call, before the
    // first releases.
    if (counted && Double.isFinite(measuredRate) && inFlight <= budget * START_UP_OVER_DAYS) {
      armed = true;
    }
    if (armed) {
      periodsArmed++;
    }
    // The first crawl's aftermath is not model error (see the class comment).
    boolean settled = !counted || periodsArmed * periodDays >= BIAS_AVERAGING_DAYS * dayDays;
    boolean steady =
        lambda > 0
            && previousLambda > 0
            && Math.abs(Math.log(lambda / previousLambda)) < steadyBand;
    if (settled && steady && predicted > 0 && sent >= 0 && Double.isFinite(sent)) {
      if (!(predictedAverage > 0)) {
        // A prior of no model error with full weight: each period then moves the bias by its share
        // of the average only. Averages started at 0 take their first periods at face value, and
        // the first periods after the first crawl release little (its pages were all just fetched).
        measuredAverage = predicted;
        predictedAverage = predicted;
      }
      measuredAverage += learningRate * (sent - measuredAverage);
      predictedAverage += learningRate * (predicted - predictedAverage);
    }
    double target = budget * (1 - headroom) * Math.exp(-bias());
    if (armed) {
      // One-sided: a backlog under the allowance is no evidence of demand falling short (the
      // crawler
      // may be idle or not), and a term that also raised the target made lambda ring hour to hour.
      double excess = Math.max(0, inFlight - allowance);
      target -= Math.min(budget * MAX_QUEUE_CUT, excess / (QUEUE_DRAIN_DAYS * dayDays));
    }
    if (Double.isFinite(measuredRate) || previousInFlight < 0) {
      previousInFlight =
          inFlight; // a call within a period (NaN) leaves the period's start as it was
    }
    previousLambda = lambda;
    lambda = grid.thresholdFor(demandCurve, target);
    predicted =
        lambda > 0
            ? grid.demandAt(demandCurve, lambda)
            : Double.NaN; // 0: demand fits, nothing to learn
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

  /** Whether the start-up is over: the backlog has once fallen to its allowance. */
  public boolean armed() {
    return armed;
  }

  /**
   * The learned log ratio of the sent to the predicted crawl rate (0 until steady periods were
   * seen).
   */
  public double bias() {
    if (!(measuredAverage > 0) || !(predictedAverage > 0)) {
      return 0;
    }
    return Math.max(-MAX_BIAS, Math.min(MAX_BIAS, Math.log(measuredAverage / predictedAverage)));
  }

  /** How many numbers {@link #snapshot()} returns. */
  public static final int SNAPSHOT_SIZE = 9;

  /**
   * Everything the controller has learned, as numbers (a checkpoint keeps them); {@link #restore}
   * takes them back. The budget and the constructor's settings are not included: a restart may
   * change them.
   */
  public double[] snapshot() {
    return new double[] {
      measuredAverage,
      predictedAverage,
      predicted,
      lambda,
      previousLambda,
      previousInFlight,
      armed ? 1 : 0,
      periodsArmed,
      epoch
    };
  }

  /** Continues from a {@link #snapshot()}. */
  public void restore(double[] s) {
    if (s.length != SNAPSHOT_SIZE) {
      throw new IllegalArgumentException(
          "a controller snapshot has " + SNAPSHOT_SIZE + " numbers, got " + s.length);
    }
    measuredAverage = s[0];
    predictedAverage = s[1];
    predicted = s[2];
    lambda = s[3];
    previousLambda = s[4];
    previousInFlight = s[5];
    armed = s[6] != 0;
    periodsArmed = (long) s[7];
    epoch = (long) s[8];
  }

  /** A new budget takes effect at the next update. */
  public void setBudget(double budget) {
    if (!(budget > 0)) {
      throw new IllegalArgumentException("budget must be > 0, got " + budget);
    }
    this.budget = budget;
  }
}
