package io.recrawl.flink.sim;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.estimate.ChangeStats;

/**
 * The change rates a policy plans with. With oracle rates they are the truth; otherwise each page's
 * rate is the project's estimator fed only "changed / unchanged since the last fetch".
 */
final class RateBook {

  private final GroundTruth truth;
  private final boolean oracle;
  private final ChangeRateEstimator estimator;
  private final double[] shape;
  private final double[] rate;
  private final double[] lastFetch;

  RateBook(GroundTruth truth, boolean oracle, ChangeRateEstimator estimator) {
    this.truth = truth;
    this.oracle = oracle;
    this.estimator = estimator;
    int n = truth.pages();
    if (oracle) {
      shape = rate = lastFetch = null;
    } else {
      shape = new double[n];
      rate = new double[n];
      lastFetch = new double[n];
      ChangeStats prior = estimator.prior();
      java.util.Arrays.fill(shape, prior.shape());
      java.util.Arrays.fill(rate, prior.rate());
      java.util.Arrays.fill(lastFetch, Double.NaN);
    }
  }

  double changeRate(int page) {
    return oracle ? truth.rate(page) : shape[page] / rate[page];
  }

  /** A fetch at t; {@code changed} is null on the first fetch (nothing to compare with). */
  void observe(int page, double t, Boolean changed) {
    if (oracle) {
      return;
    }
    if (changed != null && !Double.isNaN(lastFetch[page])) {
      ChangeStats s = estimator.observe(new ChangeStats(shape[page], rate[page]), t - lastFetch[page], changed);
      shape[page] = s.shape();
      rate[page] = s.rate();
    }
    lastFetch[page] = t;
  }
}
