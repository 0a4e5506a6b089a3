package io.recrawl.engine;

import io.recrawl.estimate.ChangeStats;
import io.recrawl.wire.CrawlStatus;

/**
 * A host's demand curve as its pages add to it, and the settlement of the host's capped curve with
 * the subtask's {@link DemandLedger} at the end of each call. The global lambda controller prices
 * the budget from these curves.
 */
final class HostDemand {

  private final EngineConfig cfg;
  private final HostThreshold thresholds;
  private final PageValuation valuation;

  HostDemand(EngineConfig cfg, HostThreshold thresholds, PageValuation valuation) {
    this.cfg = cfg;
    this.thresholds = thresholds;
    this.valuation = valuation;
  }

  /** Adds (or removes) the page's rate on its host's demand curve, skipping negligible changes. */
  void setContribution(HostState h, PageState p, boolean present) {
    double rate = 0;
    double shape = 0;
    if (present && p.status != CrawlStatus.ERROR.ordinal()) {
      ChangeStats s = valuation.changeStats(h, p);
      rate = valuation.plannedRate(s);
      // Counted as planned: over the posterior when the value is averaged over it.
      shape = valuation.plansWithPosterior(s) ? s.shape() : 0;
    }
    if (rate > 0
        && p.curveRate > 0
        && within1Percent(rate, p.curveRate)
        && within1Percent(shape, p.curveShape)) {
      return; // not worth two curve updates per event
    }
    if (h.curve == null) {
      h.curve = new double[cfg.grid.size()];
    }
    touchLedger(h);
    if (p.curveRate > 0) {
      thresholds.addPageDemand(h.curve, p.weight, p.curveRate, p.curveShape, -1);
    }
    p.curveRate = (float) rate;
    p.curveShape = (float) shape;
    if (rate > 0) {
      thresholds.addPageDemand(h.curve, p.weight, p.curveRate, p.curveShape, +1);
    }
  }

  private static boolean within1Percent(double x, double reference) {
    return x == reference || Math.abs(x / reference - 1) < 0.01;
  }

  // Scratch for the call in progress (an engine serves one thread): the host's contribution to the
  // ledger as the ledger holds it, taken before the first change to its curve.
  private double[] ledgerBefore;
  private boolean ledgerTouched;

  private void touchLedger(HostState h) {
    if (!ledgerTouched) {
      ledgerBefore = HostThreshold.capped(h.curve, h.ledgerRate);
      ledgerTouched = true;
    }
  }

  /**
   * Forgets the scratch of a call that did not reach its {@link #settle} (it failed): the next
   * call, of any host, must not settle with this host's curve.
   */
  void abandon() {
    ledgerTouched = false;
    ledgerBefore = null;
  }

  /**
   * Brings the ledger up to date with the host's curve and current cap. Untouched curve and same
   * cap: nothing to do, which is the common case and spares two curve copies per call.
   */
  void settle(HostState h, long now, EngineOutcome out, boolean removed) {
    double k = removed ? 0 : thresholds.maxRate(h, now);
    if (ledgerTouched || k != h.ledgerRate) {
      double[] before = ledgerTouched ? ledgerBefore : HostThreshold.capped(h.curve, h.ledgerRate);
      out.demandReplaced(before, HostThreshold.capped(h.curve, k));
      h.ledgerRate = k;
    }
    ledgerTouched = false;
    ledgerBefore = null;
  }
}
