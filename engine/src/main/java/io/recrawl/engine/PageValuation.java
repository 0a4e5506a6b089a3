package io.recrawl.engine;

import io.recrawl.estimate.ChangeStats;

/**
 * A page's worth: its crawl value and value ceiling under its change-rate posterior, and the time
 * its value reaches a threshold, within the revisit bounds. It reads the page's fields (and its
 * host's learned-rate sum) and writes only a page's age; what a fetch teaches is {@link
 * ChangeLearning}'s, and it indexes and releases nothing.
 */
public final class PageValuation {

  private final EngineConfig cfg;
  private final LearnedRates rates;

  PageValuation(EngineConfig cfg, LearnedRates rates) {
    this.cfg = cfg;
    this.rates = rates;
  }

  /**
   * A known rate replacing a known rate: the changes expected since the last fetch are the old
   * rate's, so the page's age restarts where the new rate gives as many. A page whose rate rose is
   * then not overdue for changes it has not had time to make, and one whose rate fell is as stale
   * as it was.
   */
  void keepExpectedChanges(PageState p, ChangeStats next, long now) {
    ChangeStats before = new ChangeStats(p.changeShape, p.changeRate);
    if (p.neverFetched() || !cfg.estimator.isKnown(before) || now <= p.ageStart()) {
      return;
    }
    double age = (now - p.ageStart()) * (cfg.estimator.rate(before) / cfg.estimator.rate(next));
    p.ageFrom = Math.max(1, now - (long) Math.min(age, (double) now));
  }

  /**
   * The page's crawl value now, averaged over its change-rate posterior with {@code
   * estimator.expected-value}; a page never fetched is worth its value ceiling.
   */
  public double crawlValue(HostState h, PageState p, long now) {
    if (p.neverFetched()) {
      return valueCeiling(h, p);
    }
    ChangeStats s = changeStats(h, p);
    double tauDays = Math.max(0, now - p.ageStart()) / (double) EngineConfig.DAY_MS;
    return plansWithPosterior(s)
        ? cfg.objective.expectedCrawlValue(p.weight, s.shape(), s.rate(), tauDays)
            * learningBonus(s)
        : cfg.objective.crawlValue(p.weight, plannedRate(s), tauDays);
  }

  /**
   * The most the page's crawl value can reach: w/δ at the planned rate, or E[w/δ] over the
   * posterior.
   */
  public double valueCeiling(HostState h, PageState p) {
    ChangeStats s = changeStats(h, p);
    return plansWithPosterior(s)
        ? cfg.objective.expectedValueCeiling(p.weight, s.shape(), s.rate()) * learningBonus(s)
        : cfg.objective.valueCeiling(p.weight, plannedRate(s));
  }

  /**
   * The change rate the page's demand is counted with, per day: the posterior mean with {@code
   * estimator.expected-value}, else a low quantile of the posterior (see {@code
   * estimator.optimism}), which meets the mean once the evidence is in. With {@code
   * estimator.host-prior} the posterior takes its host's prior ({@link #hostPriorRate}).
   */
  public double changeRate(HostState h, PageState p) {
    return plannedRate(changeStats(h, p));
  }

  double plannedRate(ChangeStats s) {
    return plansWithPosterior(s)
        ? cfg.estimator.rate(s)
        : cfg.estimator.optimisticRate(s, cfg.optimism);
  }

  /**
   * The value of learning ({@code estimator.exploration} = β): the crawl value is scaled by 1 +
   * β/√a, a the posterior's shape, whose coefficient of variation is 1/√a. Bounded by 1 + β (a page
   * with one observation's worth) and gone as evidence accrues.
   */
  double learningBonus(ChangeStats s) {
    return cfg.exploration > 0 ? 1 + cfg.exploration / Math.sqrt(Math.max(s.shape(), 1)) : 1;
  }

  /**
   * Whether the value is averaged over the posterior: asked for, and the rate is not simply known.
   */
  boolean plansWithPosterior(ChangeStats s) {
    return cfg.expectedValue && !cfg.estimator.isKnown(s);
  }

  /**
   * The page's posterior over its change rate, under its host's prior with {@code
   * estimator.host-prior}.
   */
  public ChangeStats changeStats(HostState h, PageState p) {
    ChangeStats s = new ChangeStats(p.changeShape, p.changeRate);
    return cfg.hostPrior ? cfg.estimator.withPriorMean(s, hostPriorRate(h, p)) : s;
  }

  /**
   * The prior mean change rate for a page of this host: the mean estimated rate of the host's other
   * pages with evidence, {@code estimator.prior-rate} counting as one more page (see {@link
   * io.recrawl.estimate.ChangeRateEstimator#pooledPriorMean}). Pages of one site tend to change
   * alike, and a page crawled once or twice is otherwise planned from a crawl-wide guess; the
   * page's own evidence is left out so that it is not counted twice.
   */
  public double hostPriorRate(HostState h, PageState p) {
    if (h.learnedPages == HostState.LEARNED_UNKNOWN) {
      return cfg.estimator.priorRate();
    }
    return cfg.estimator.pooledPriorMean(
        h.learnedRateSum,
        h.learnedPages,
        rates.hasEvidence(p) ? LearnedRates.learnedRate(p) : Double.NaN);
  }

  /**
   * When the page's crawl value reaches {@code theta}, within the revisit bounds; Long.MAX_VALUE =
   * never.
   */
  public long dueTime(HostState h, PageState p, double theta, long now) {
    if (p.neverFetched()) {
      return valueCeiling(h, p) >= theta ? now : Long.MAX_VALUE;
    }
    ChangeStats s = changeStats(h, p);
    double tauDays =
        plansWithPosterior(s)
            ? cfg.objective.expectedTimeToThreshold(
                p.weight, s.shape(), s.rate(), theta / learningBonus(s))
            : cfg.objective.timeToThreshold(p.weight, plannedRate(s), theta);
    double tauMs = Math.max(tauDays * EngineConfig.DAY_MS, cfg.minRevisitMs);
    if (cfg.maxRevisitMs > 0) {
      tauMs = Math.min(tauMs, cfg.maxRevisitMs);
    }
    if (tauMs >= Long.MAX_VALUE / 4.0) {
      return Long.MAX_VALUE;
    }
    // Counted from the last visit as well: a page whose age restarted before it (a known rate
    // replaced) still waits out revisit.min-interval.
    return Math.max(
        p.ageStart() + (long) Math.ceil(tauMs), Times.plus(p.lastFetch, cfg.minRevisitMs));
  }

  /**
   * Whether {@code revisit.min-interval} has passed since the page's last visit: until it has, no
   * path releases it (a re-check that finds its value over the threshold, a free slot), only a
   * forced retry.
   */
  boolean revisitAllowed(PageState p, long now) {
    return p.neverFetched() || now - p.lastFetch >= cfg.minRevisitMs;
  }

  boolean floorReached(PageState p, long now) {
    return cfg.maxRevisitMs > 0 && !p.neverFetched() && now - p.lastFetch >= cfg.maxRevisitMs;
  }

  /**
   * The due time of a page re-planned by a new weight or rate. One the re-plan leaves overdue goes
   * within one re-check period ({@code timer.recheck}), sooner the further its value is above the
   * threshold: a sitemap that re-rates a whole site at once then goes out in value order over
   * hours, not in one burst that delays every other crawl behind it in the crawler's queue.
   */
  long catchUp(HostState h, PageState p, long due, double theta, long now) {
    if (due >= now) {
      return due;
    }
    double value = crawlValue(h, p, now);
    return value > theta ? now + (long) (cfg.recheckMs * (theta / value)) : due;
  }
}
