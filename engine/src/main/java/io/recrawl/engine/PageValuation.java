package io.recrawl.engine;

import io.recrawl.estimate.ChangeEvidence;
import io.recrawl.estimate.ChangeStats;
import io.recrawl.estimate.RateGrid;
import io.recrawl.wire.StatusEvent;

/**
 * A page's worth: its crawl value and value ceiling under its change-rate posterior, the time its
 * value reaches a threshold, and what each fetch teaches about how often it changes. It reads and
 * writes only the page's (and its host's learned-rate) fields; it indexes and releases nothing.
 */
public final class PageValuation {

  private final EngineConfig cfg;

  /**
   * The prior's statistics as a page stores them, to tell a page with evidence from one without.
   */
  private final float priorShape;

  private final float priorRate;

  /**
   * With {@code estimator.posterior: grid}, the crawl's learned prior over the rate grid. Only
   * status events change it (never a wake-up), so a wake-up computed on another engine's thread
   * reads nothing of it.
   */
  private final RateGrid.Prior gridPrior;

  private final ChangeSignals signals;

  /**
   * The crawl's learned prior over the rate grid ({@code estimator.posterior: grid}), or null. The
   * Flink job checkpoints its mass: a restore that started it afresh would take out of it, at each
   * page's next fetch, what was never put in.
   */
  public RateGrid.Prior learnedPrior() {
    return gridPrior;
  }

  // The learned prior as the caller's call found it (see HostEngine#begin), copied at the call's
  // first change to it: a call that changes nothing of it, a wake-up or most events, copies
  // nothing.
  private RateGrid.Prior priorAtBegin;
  private boolean callOpen;
  private boolean priorChanged;

  /** A call that may be rolled back begins: the learned prior is kept before its first change. */
  void begin() {
    callOpen = true;
    priorChanged = false;
  }

  /** The call's changes to the learned prior stand. */
  void commit() {
    callOpen = false;
    priorChanged = false;
  }

  /** The learned prior is again as the call found it. */
  void rollback() {
    if (priorChanged) {
      gridPrior.copyFrom(priorAtBegin);
    }
    commit();
  }

  private void keepPriorForRollback() {
    if (callOpen && !priorChanged) {
      if (priorAtBegin == null) {
        priorAtBegin = gridPrior.copy();
      } else {
        priorAtBegin.copyFrom(gridPrior);
      }
      priorChanged = true;
    }
  }

  PageValuation(EngineConfig cfg) {
    this.cfg = cfg;
    this.signals = new ChangeSignals(cfg);
    this.gridPrior = cfg.gridPosterior ? new RateGrid.Prior(1.0, cfg.estimator.prior()) : null;
    ChangeStats prior = cfg.estimator.prior();
    this.priorShape = (float) prior.shape();
    this.priorRate = (float) prior.rate();
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
        h.learnedRateSum, h.learnedPages, hasEvidence(p) ? learnedRate(p) : Double.NaN);
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
   * Gives a new page its weight and its change statistics: the event's known rate, else the prior.
   */
  void initialise(HostState h, PageState p, StatusEvent e) {
    p.weight = (float) (e.weight() != null ? e.weight() : cfg.defaultWeight);
    Double known = knownChangeRate(p, e);
    ChangeStats prior = known != null ? cfg.estimator.known(known) : cfg.estimator.prior();
    p.changeShape = (float) prior.shape();
    p.changeRate = (float) prior.rate();
    countLearnedRate(h, p, +1);
  }

  /** Learns from a fetch whether the page changed, unless the event states its rate. */
  void learnChange(HostState h, PageState p, StatusEvent e) {
    Double known = knownChangeRate(p, e);
    if (known != null) {
      setChangeStats(h, p, cfg.estimator.known(known));
    }
    String signature = e.first(StatusEvent.SIGNATURE_KEY);
    String etag = e.first(StatusEvent.ETAG_KEY);
    long sigHash = signature == null ? 0 : hash64(signature);
    int etagHash = etag == null ? 0 : etag.hashCode() | 1;
    Long lastModified = ChangeEvidence.parseDate(e.first(StatusEvent.LAST_MODIFIED_KEY));
    ChangeEvidence.Verdict verdict =
        ChangeEvidence.assess(
            e.changed(),
            e.statusCode(),
            sigHash == 0 ? null : Long.toString(sigHash),
            p.signatureHash == 0 ? null : Long.toString(p.signatureHash),
            etagHash == 0 ? null : Integer.toString(etagHash),
            p.etagHash == 0 ? null : Integer.toString(p.etagHash),
            lastModified,
            p.lastFetch);
    if (known == null && !p.neverFetched() && e.time() > p.lastFetch) {
      long since =
          verdict == ChangeEvidence.Verdict.CHANGED
              ? ChangeEvidence.sinceLastChange(
                  lastModified,
                  ChangeEvidence.parseDate(e.first(StatusEvent.DATE_KEY)),
                  p.lastFetch,
                  e.time())
              : -1;
      long signal = ChangeSignals.signalDate(e);
      if (signal >= 0 && verdict != ChangeEvidence.Verdict.UNKNOWN) {
        boolean claimsChange = signal > p.lastFetch;
        if (since < 0
            && claimsChange
            && verdict == ChangeEvidence.Verdict.CHANGED
            && signals.trusted(h, true)
            && signals.trusted(h, false)
            && signal <= e.time()) {
          // A signal dates the last change only if it misses none: a sitemap regenerated late
          // says "changed" truly, but dates an earlier change, and "none since" would then be
          // learned wrongly.
          since = e.time() - signal;
        }
        ChangeSignals.checkSignal(h, claimsChange, verdict == ChangeEvidence.Verdict.CHANGED);
      }
      long from = p.lastFetch;
      double quiet = 0;
      if (p.ageFrom > p.lastFetch
          && p.ageFrom < e.time()
          && !cfg.estimator.isKnown(new ChangeStats(p.changeShape, p.changeRate))) {
        // A trusted "unchanged" signal at ageFrom: no change until then, this verdict since.
        quiet = (p.ageFrom - p.lastFetch) / (double) EngineConfig.DAY_MS;
        from = p.ageFrom;
        if (since > e.time() - from) {
          since = -1;
        }
      }
      double interval = (e.time() - from) / (double) EngineConfig.DAY_MS;
      if (gridPrior != null) {
        learnOnGrid(h, p, quiet, interval, verdict, since / (double) EngineConfig.DAY_MS);
      } else {
        ChangeStats s = new ChangeStats(p.changeShape, p.changeRate);
        if (quiet > 0) {
          s = cfg.estimator.observe(s, quiet, false);
        }
        setChangeStats(
            h, p, cfg.estimator.learn(s, interval, verdict, since / (double) EngineConfig.DAY_MS));
      }
    }
    if (sigHash != 0) {
      p.signatureHash = sigHash;
    }
    if (etagHash != 0) {
      p.etagHash = etagHash;
    }
  }

  /**
   * {@code estimator.posterior: grid}: the page's evidence grows by this fetch, its term in the
   * learned prior is replaced, and its Gamma is the projection of its posterior on the grid.
   */
  private void learnOnGrid(
      HostState h,
      PageState p,
      double quiet,
      double interval,
      ChangeEvidence.Verdict verdict,
      double since) {
    if (verdict == ChangeEvidence.Verdict.UNKNOWN || !(interval > 0)) {
      return;
    }
    if (cfg.estimator.isKnown(new ChangeStats(p.changeShape, p.changeRate))) {
      return; // a known rate is not learned (it came with this very event's metadata)
    }
    RateGrid.Evidence before =
        new RateGrid.Evidence(
            p.evidenceUnchanged, p.evidenceChanged, p.evidenceLnGap, p.evidenceDated);
    if (before.none() && hasEvidence(p)) {
      // A page learned before the grid (state of an earlier layout, or estimator.posterior: gamma
      // then): its Gamma over the prior's is read as the conjugate evidence it would be, events
      // and exposure, so that what it learned is not thrown away at its first fetch under the grid.
      before =
          new RateGrid.Evidence(
              Math.max(0, p.changeRate - priorRate), 0, 0, Math.max(0, p.changeShape - priorShape));
    }
    double cap = cfg.estimator.maxShape();
    RateGrid.Evidence quietBefore =
        quiet > 0 ? RateGrid.observe(before, quiet, false, cap) : before;
    RateGrid.Evidence after =
        verdict == ChangeEvidence.Verdict.CHANGED && since >= 0 && since <= interval
            ? RateGrid.observeChangeAt(quietBefore, since, cap)
            : RateGrid.observe(
                quietBefore, interval, verdict == ChangeEvidence.Verdict.CHANGED, cap);
    keepPriorForRollback();
    gridPrior.replace(before, after);
    p.evidenceUnchanged = (float) after.unchanged();
    p.evidenceChanged = (float) after.changed();
    p.evidenceLnGap = (float) after.meanLnGap();
    p.evidenceDated = (float) after.dated();
    setChangeStats(h, p, gridPrior.project(gridPrior.posterior(after), cap));
  }

  /** The host's change signals, and whether they are trusted. */
  ChangeSignals signals() {
    return signals;
  }

  /** See {@link ChangeSignals#signal}. */
  boolean signal(HostState h, PageState p, StatusEvent e, long now) {
    return signals.signal(h, p, e, now);
  }

  /**
   * The event's known change rate ({@link StatusEvent#knownChangeRate}), parsed only when its text
   * differs from the one this page record last carried: a sitemap (or the simulator's oracle)
   * states the same rate event after event, and parsing it cost more than the engine's work on the
   * event.
   */
  static Double knownChangeRate(PageState p, StatusEvent e) {
    String text = e.first(StatusEvent.CHANGE_RATE_KEY);
    if (text == null) {
      return null;
    }
    if (!text.equals(p.knownRateText)) {
      p.knownRate = e.knownChangeRate();
      p.knownRateText = text;
    }
    return p.knownRate;
  }

  /** Sets the page's change statistics and keeps its host's sum of learned rates in step. */
  void setChangeStats(HostState h, PageState p, ChangeStats s) {
    countLearnedRate(h, p, -1);
    p.changeShape = (float) s.shape();
    p.changeRate = (float) s.rate();
    countLearnedRate(h, p, +1);
  }

  void countLearnedRate(HostState h, PageState p, int sign) {
    if (h.learnedPages != HostState.LEARNED_UNKNOWN && hasEvidence(p)) {
      h.learnedPages += sign;
      h.learnedRateSum = h.learnedPages == 0 ? 0 : h.learnedRateSum + sign * learnedRate(p);
    }
  }

  /**
   * Whether the page's statistics are more than the prior: it was observed, or its rate is known.
   */
  private boolean hasEvidence(PageState p) {
    return p.changeShape != priorShape || p.changeRate != priorRate;
  }

  /** The page's posterior mean rate under the configured prior. */
  private static double learnedRate(PageState p) {
    return p.changeShape / (double) p.changeRate;
  }

  /** A 64-bit string hash (FNV-1a); collisions would only hide one change. */
  static long hash64(String s) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      h ^= s.charAt(i);
      h *= 0x100000001b3L;
    }
    return h == 0 ? 1 : h;
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
