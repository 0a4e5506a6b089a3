package io.recrawl.sim;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.estimate.ChangeStats;

/**
 * The change rates a policy plans with. With oracle rates they are the truth; otherwise each page's
 * rate is the project's estimator fed only "changed / unchanged since the last fetch", with the
 * engine's host prior when asked ({@code estimator.host-prior}): every policy plans with the same
 * estimates as {@code crawl-value}.
 */
final class RateBook {

  private final GroundTruth truth;
  private final boolean oracle;
  private final ChangeRateEstimator estimator;
  private final ChangeStats prior;
  private final double[] shape;
  private final double[] rate;
  private final double[] lastFetch;

  /**
   * Per page its host, and per host the sum and count of its observed pages' rates; null = no host
   * prior.
   */
  private final int[] hostOf;

  private final double[] learnedRateSum;
  private final int[] learnedPages;

  /** With the grid posterior (as crawl-value's engine with estimator.posterior: grid), or null. */
  private io.recrawl.estimate.RateGrid.Prior gridPrior;

  private io.recrawl.estimate.RateGrid.Evidence[] evidence;

  /** Plans with the grid posterior from here on (before any observation). */
  void useGrid() {
    if (!oracle) {
      gridPrior = new io.recrawl.estimate.RateGrid.Prior(1.0, prior);
      evidence = new io.recrawl.estimate.RateGrid.Evidence[truth.pages()];
      java.util.Arrays.fill(evidence, io.recrawl.estimate.RateGrid.Evidence.NONE);
    }
  }

  /**
   * @param hostOf each page's host index, or null to plan every page from the estimator's own prior
   */
  RateBook(
      GroundTruth truth, boolean oracle, ChangeRateEstimator estimator, int[] hostOf, int hosts) {
    this.truth = truth;
    this.oracle = oracle;
    this.estimator = estimator;
    this.prior = estimator.prior();
    int n = truth.pages();
    if (oracle) {
      shape = rate = lastFetch = null;
      this.hostOf = null;
      learnedRateSum = null;
      learnedPages = null;
    } else {
      shape = new double[n];
      rate = new double[n];
      lastFetch = new double[n];
      java.util.Arrays.fill(shape, prior.shape());
      java.util.Arrays.fill(rate, prior.rate());
      java.util.Arrays.fill(lastFetch, Double.NaN);
      this.hostOf = hostOf;
      learnedRateSum = hostOf == null ? null : new double[hosts];
      learnedPages = hostOf == null ? null : new int[hosts];
    }
  }

  boolean oracle() {
    return oracle;
  }

  double changeRate(int page) {
    if (oracle) {
      return truth.rate(page);
    }
    ChangeStats s = new ChangeStats(shape[page], rate[page]);
    if (hostOf != null) {
      int h = hostOf[page];
      double priorMean =
          estimator.pooledPriorMean(
              learnedRateSum[h], learnedPages[h], observed(page) ? estimator.rate(s) : Double.NaN);
      s = estimator.withPriorMean(s, priorMean);
    }
    return estimator.rate(s);
  }

  /** A fetch at t; {@code changed} is null on the first fetch (nothing to compare with). */
  void observe(int page, double t, Boolean changed) {
    if (oracle) {
      return;
    }
    if (changed != null && !Double.isNaN(lastFetch[page])) {
      ChangeStats before = new ChangeStats(shape[page], rate[page]);
      ChangeStats s;
      if (gridPrior != null) {
        io.recrawl.estimate.RateGrid.Evidence after =
            io.recrawl.estimate.RateGrid.observe(
                evidence[page], t - lastFetch[page], changed, estimator.maxShape());
        gridPrior.replace(evidence[page], after);
        evidence[page] = after;
        s = gridPrior.project(gridPrior.posterior(after), estimator.maxShape());
      } else {
        s = estimator.observe(before, t - lastFetch[page], changed);
      }
      if (hostOf != null) {
        int h = hostOf[page];
        if (observed(page)) {
          learnedRateSum[h] -= estimator.rate(before);
        } else {
          learnedPages[h]++;
        }
        learnedRateSum[h] += estimator.rate(s);
      }
      shape[page] = s.shape();
      rate[page] = s.rate();
    }
    lastFetch[page] = t;
  }

  /** Whether the page has been observed at least once (its statistics are more than the prior). */
  boolean observed(int page) {
    return shape[page] != prior.shape() || rate[page] != prior.rate();
  }
}
