package io.recrawl.engine;

import io.recrawl.estimate.ChangeEvidence;
import io.recrawl.estimate.ChangeStats;
import io.recrawl.estimate.RateGrid;
import io.recrawl.wire.StatusEvent;

/**
 * What each fetch teaches about how often a page changes: the verdict from the status's evidence
 * (signature, ETag, Last-Modified, the host's change signals), the page's posterior, and the
 * crawl's learned prior over the rate grid, kept so that a call can be rolled back. It writes a new
 * page's weight, a page's change statistics and evidence, and its host's learned-rate sum; what a
 * page is worth is {@link PageValuation}'s.
 */
public final class ChangeLearning {

  private final EngineConfig cfg;
  private final LearnedRates rates;

  /**
   * With {@code estimator.posterior: grid}, the crawl's learned prior over the rate grid. Only
   * status events change it (never a wake-up), so a wake-up computed on another engine's thread
   * reads nothing of it.
   */
  private final RateGrid.Prior gridPrior;

  private final ChangeSignals signals;

  // The learned prior as the caller's call found it (see HostEngine#begin), copied at the call's
  // first change to it: a call that changes nothing of it, a wake-up or most events, copies
  // nothing.
  private RateGrid.Prior priorAtBegin;
  private boolean callOpen;
  private boolean priorChanged;

  ChangeLearning(EngineConfig cfg, LearnedRates rates) {
    this.cfg = cfg;
    this.rates = rates;
    this.signals = new ChangeSignals(cfg);
    this.gridPrior = cfg.gridPosterior ? new RateGrid.Prior(1.0, cfg.estimator.prior()) : null;
  }

  /**
   * The crawl's learned prior over the rate grid ({@code estimator.posterior: grid}), or null. The
   * Flink job checkpoints its mass: a restore that started it afresh would take out of it, at each
   * page's next fetch, what was never put in.
   */
  public RateGrid.Prior learnedPrior() {
    return gridPrior;
  }

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

  /**
   * Gives a new page its weight and its change statistics: the event's known rate, else the prior.
   */
  void initialise(HostState h, PageState p, StatusEvent e) {
    p.weight = (float) (e.weight() != null ? e.weight() : cfg.defaultWeight);
    Double known = knownChangeRate(p, e);
    ChangeStats prior = known != null ? cfg.estimator.known(known) : cfg.estimator.prior();
    p.changeShape = (float) prior.shape();
    p.changeRate = (float) prior.rate();
    rates.count(h, p, +1);
  }

  /** A page's rate stated anew (a sitemap's, a front end's): its statistics are that rate's. */
  void rerate(HostState h, PageState p, ChangeStats known) {
    rates.set(h, p, known);
  }

  /** Learns from a fetch whether the page changed, unless the event states its rate. */
  void learnChange(HostState h, PageState p, StatusEvent e) {
    Double known = knownChangeRate(p, e);
    if (known != null) {
      rates.set(h, p, cfg.estimator.known(known));
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
        rates.set(
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
    if (before.none() && rates.hasEvidence(p)) {
      before = rates.gammaAsEvidence(p); // a page learned before the grid
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
    rates.set(h, p, gridPrior.project(gridPrior.posterior(after), cap));
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

  /** A 64-bit string hash (FNV-1a); collisions would only hide one change. */
  static long hash64(String s) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      h ^= s.charAt(i);
      h *= 0x100000001b3L;
    }
    return h == 0 ? 1 : h;
  }
}
