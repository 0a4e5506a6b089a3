package io.recrawl.engine;

import io.recrawl.estimate.ChangeStats;
import io.recrawl.estimate.RateGrid;

/**
 * Each host's sum of its pages' learned change rates, which the host prior pools ({@code
 * estimator.host-prior}). A page counts once it has evidence; every change to a page's statistics
 * goes through {@link #set}, so the sum stays in step with the pages.
 */
final class LearnedRates {

  /**
   * The prior's statistics as a page stores them, to tell a page with evidence from one without.
   */
  private final float priorShape;

  private final float priorRate;

  LearnedRates(EngineConfig cfg) {
    ChangeStats prior = cfg.estimator.prior();
    this.priorShape = (float) prior.shape();
    this.priorRate = (float) prior.rate();
  }

  /** Sets the page's change statistics and keeps its host's sum of learned rates in step. */
  void set(HostState h, PageState p, ChangeStats s) {
    count(h, p, -1);
    p.changeShape = (float) s.shape();
    p.changeRate = (float) s.rate();
    count(h, p, +1);
  }

  /** Adds the page to its host's sum ({@code sign} +1) or takes it out (-1). */
  void count(HostState h, PageState p, int sign) {
    if (h.learnedPages != HostState.LEARNED_UNKNOWN && hasEvidence(p)) {
      h.learnedPages += sign;
      h.learnedRateSum = h.learnedPages == 0 ? 0 : h.learnedRateSum + sign * learnedRate(p);
    }
  }

  /**
   * Whether the page's statistics are more than the prior: it was observed, or its rate is known.
   */
  boolean hasEvidence(PageState p) {
    return p.changeShape != priorShape || p.changeRate != priorRate;
  }

  /**
   * The page's Gamma over the prior's, read as the conjugate evidence it would be (exposure and
   * events): for a page learned before the grid posterior, or under {@code estimator.posterior:
   * gamma} then, so that what it learned is not thrown away at its first fetch under the grid.
   */
  RateGrid.Evidence gammaAsEvidence(PageState p) {
    return new RateGrid.Evidence(
        Math.max(0, p.changeRate - priorRate), 0, 0, Math.max(0, p.changeShape - priorShape));
  }

  /** The page's posterior mean rate under the configured prior. */
  static double learnedRate(PageState p) {
    return p.changeShape / (double) p.changeRate;
  }
}
