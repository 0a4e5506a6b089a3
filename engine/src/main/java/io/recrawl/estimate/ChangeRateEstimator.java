package io.recrawl.estimate;

/**
 * Estimates a page's Poisson change rate from "changed / unchanged since the last crawl"
 * observations taken over irregular intervals.
 *
 * <p>The posterior over the rate is kept as a Gamma(shape, rate) distribution, two numbers per URL.
 * The prior is Gamma(priorShape, priorShape / priorRate). An unchanged interval of length d has
 * likelihood e^(-delta d), which is conjugate: the Gamma rate parameter grows by d. A changed
 * interval has likelihood 1 - e^(-delta d); the exact posterior is then a difference of two Gammas,
 * whose mean and variance are known in closed form, and it is projected back onto a Gamma by
 * matching those two moments (assumed density filtering). A history that is all unchanged or all
 * changed therefore still gives a finite rate that moves sensibly with the evidence.
 */
public final class ChangeRateEstimator {

  private final double priorShape;
  private final double priorRate;
  private final double maxShape;

  /**
   * @param priorRate the prior mean change rate, per unit time (the project uses days)
   * @param priorShape the prior's weight, in pseudo-observations (small: the data soon dominate)
   * @param maxShape a cap on the posterior shape; the estimate then forgets old evidence
   *     geometrically and can follow a drifting rate. Use +infinity for a stationary page.
   */
  public ChangeRateEstimator(double priorRate, double priorShape, double maxShape) {
    if (!(priorRate > 0) || !(priorShape > 0) || !(maxShape >= priorShape)) {
      throw new IllegalArgumentException(
          "need priorRate > 0, priorShape > 0 and maxShape >= priorShape; got "
              + priorRate
              + ", "
              + priorShape
              + ", "
              + maxShape);
    }
    this.priorShape = priorShape;
    this.priorRate = priorRate;
    this.maxShape = maxShape;
  }

  /**
   * A weakly informative default: one change a day, worth one observation, forgetting after ~200.
   */
  public static ChangeRateEstimator defaults() {
    return new ChangeRateEstimator(1.0, 1.0, 200.0);
  }

  /** The cap on the posterior shape. */
  public double maxShape() {
    return maxShape;
  }

  /** The prior mean change rate, per unit time. */
  public double priorRate() {
    return priorRate;
  }

  /** The state before any observation. */
  public ChangeStats prior() {
    return new ChangeStats(priorShape, priorShape / priorRate);
  }

  /** Evidence a known rate is worth, in observations: enough that planning uses the rate as is. */
  static final double KNOWN_SHAPE = 1e6;

  /**
   * The state of a page whose rate is known (a sitemap's changefreq, an oracle): the rate with
   * overwhelming evidence. Later observations are capped at {@code maxShape} as usual, so the page
   * learns from there.
   */
  public ChangeStats known(double rate) {
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException(
          "a known change rate must be positive and finite, got " + rate);
    }
    return new ChangeStats(KNOWN_SHAPE, KNOWN_SHAPE / rate);
  }

  /** Whether the statistics state a known rate ({@link #known}) rather than learned evidence. */
  public boolean isKnown(ChangeStats s) {
    return s.shape() > maxShape;
  }

  /**
   * The posterior after observing whether the page changed during an interval of length {@code
   * interval}.
   */
  public ChangeStats observe(ChangeStats s, double interval, boolean changed) {
    if (!(interval > 0) || Double.isInfinite(interval)) {
      return s;
    }
    double a = s.shape();
    double b = s.rate();
    double na;
    double nb;
    if (!changed) {
      na = a;
      nb = b + interval;
    } else {
      // Posterior ∝ Gamma(a, b) - r^a Gamma(a, b + d), with r = b / (b + d). It is projected back
      // onto the Gamma with the same E[delta] and E[1/delta]: the two moments the crawl value rests
      // on (its growth w E[delta] tau^2/2 after a fetch, and its ceiling w E[1/delta]). Matching
      // the
      // variance instead left a shape just above 1 after a change seen across a long gap, and
      // E[1/delta] = b/(a-1) then came out twice the exact posterior's or more: every page seen
      // only "changed" looked worth a crawl. With q(k) = 1 - r^k (expm1: no cancellation when d is
      // tiny next to b): E[delta] = (a/b) q(a+1)/q(a), E[1/delta] = b q(a-1)/((a-1) q(a)), and
      // b q(a-1)/(a-1) = -b ln r at a = 1. The Gamma(A, B) with both has A = M/(M-1), M = E[delta]
      // E[1/delta] > 1 (Jensen), and B = A/E[delta].
      double lnR = -Math.log1p(interval / b);
      double qa = -Math.expm1(a * lnR);
      double qa1 = -Math.expm1((a + 1) * lnR);
      double am1 = a - 1;
      double qam1OverAm1 = Math.abs(am1) < 1e-9 ? -lnR : -Math.expm1(am1 * lnR) / am1;
      double mean = a / b * qa1 / qa;
      double m = a * qa1 * qam1OverAm1 / (qa * qa);
      if (qa == 1.0) {
        // r^a is below an ulp: a change after so long a gap tells nothing new.
        na = a;
        nb = b;
      } else if (!(m > 1) || !(qa > 0)) {
        // Underflow of the interval against b: the limit d -> 0 is exactly Gamma(a + 1, b).
        na = a + 1;
        nb = b;
      } else {
        na = m / (m - 1);
        nb = na / mean;
      }
    }
    return capped(na, nb);
  }

  /**
   * The posterior after a fetch that shows the page changed during an interval of length {@code
   * interval} and, from a trustworthy Last-Modified, that its last change was {@code sinceChange}
   * before the fetch. The likelihood of "a change at that instant, none since" is delta e^(-delta
   * sinceChange), which is conjugate: one more event, sinceChange more exposure. Cho and
   * Garcia-Molina's last-modified estimator uses the same information. Falls back to {@link
   * #observe} when sinceChange is not within [0, interval].
   */
  public ChangeStats observeChangeAt(ChangeStats s, double interval, double sinceChange) {
    if (!(interval > 0) || Double.isInfinite(interval)) {
      return s;
    }
    if (!(sinceChange >= 0) || sinceChange > interval) {
      return observe(s, interval, true);
    }
    return capped(s.shape() + 1, s.rate() + sinceChange);
  }

  private ChangeStats capped(double na, double nb) {
    if (na > maxShape) {
      // Discount old evidence: same mean, capped confidence.
      nb *= maxShape / na;
      na = maxShape;
    }
    return new ChangeStats(na, nb);
  }

  /**
   * The posterior after a fetch with this verdict, {@code interval} after the previous one; when
   * the page changed and the time since its last change is known ({@code sinceChange >= 0}), that
   * time is used too. An UNKNOWN verdict teaches nothing.
   */
  public ChangeStats learn(
      ChangeStats s, double interval, ChangeEvidence.Verdict verdict, double sinceChange) {
    switch (verdict) {
      case CHANGED:
        return sinceChange >= 0
            ? observeChangeAt(s, interval, sinceChange)
            : observe(s, interval, true);
      case UNCHANGED:
        return observe(s, interval, false);
      default:
        return s;
    }
  }

  /**
   * The posterior {@code s} as it would be under a prior of mean {@code priorMean} (same weight)
   * instead of this estimator's. The Gamma prior enters the posterior's rate parameter as a sum, so
   * the swap is exact after unchanged intervals and as close as the moment matching after changed
   * ones. A known rate ({@link #known}) needs no prior and is returned as is.
   */
  public ChangeStats withPriorMean(ChangeStats s, double priorMean) {
    if (isKnown(s) || !(priorMean > 0)) {
      return s;
    }
    double b = s.rate() + priorShape / priorMean - priorShape / priorRate;
    return b > 0 ? new ChangeStats(s.shape(), b) : s;
  }

  /**
   * The prior mean for a page from its neighbours' evidence (pages of the same host): the mean of
   * their {@code count} estimated rates summing to {@code rateSum}, this estimator's prior mean
   * counting as one more, so that a host with little evidence stays near it. The page's own rate,
   * {@code ownRate}, is left out when it is in the sum (NaN when it is not), so that its evidence
   * does not count twice.
   */
  public double pooledPriorMean(double rateSum, int count, double ownRate) {
    if (!Double.isNaN(ownRate)) {
      rateSum -= ownRate;
      count--;
    }
    return Math.max((rateSum + priorRate) / (count + 1), MIN_POOLED_RATE);
  }

  /** A floor for the pooled mean against rounding in a running sum. */
  private static final double MIN_POOLED_RATE = 1e-6;

  /** The point estimate: the posterior mean rate. */
  public double rate(ChangeStats s) {
    return s.shape() / s.rate();
  }

  /**
   * A low quantile of the posterior rate, {@code z} standard normal deviates below the median
   * (Wilson–Hilferty), for planning under uncertainty. A slower-changing page keeps more value, so
   * a page with little evidence is planned as the more valuable page it may be: it gets crawled,
   * and its crawls teach the estimator. With much evidence the quantile meets the mean.
   */
  public double optimisticRate(ChangeStats s, double z) {
    double mean = rate(s);
    if (z <= 0) {
      return mean;
    }
    double a = s.shape();
    double c = 1 - 1 / (9 * a) - z / (3 * Math.sqrt(a));
    return Math.max(mean * 0.01, mean * c * c * c * (c > 0 ? 1 : 0));
  }

  /** The posterior standard deviation of the rate. */
  public double rateStdDev(ChangeStats s) {
    return Math.sqrt(s.shape()) / s.rate();
  }
}
