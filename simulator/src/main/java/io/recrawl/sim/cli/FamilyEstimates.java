package io.recrawl.sim.cli;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.estimate.ChangeStats;
import io.recrawl.estimate.RateGrid;
import io.recrawl.sim.workload.WorkloadGenerator;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code bin/recrawl estimator-report --families}: the Gamma posterior updated in place against the
 * grid posterior with the prior learned across the pages, on the true rates of each workload family
 * and crawl histories of a few gaps each: how far each is from the truth after the first month.
 */
final class FamilyEstimates {

  private FamilyEstimates() {}

  /** Mean crawl gaps (days) and numbers of observed gaps per history. */
  private static final double[] GAPS = {3, 20};

  private static final int[] CRAWLS = {3, 10};

  static String report(int pages, long seed, ChangeRateEstimator gamma) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        "| family | mean gap (days) | gaps | estimator | rel. bias | rel. RMSE | log bias | log RMSE |\n");
    sb.append("|---|---|---|---|---|---|---|---|\n");
    for (WorkloadGenerator.Family family : WorkloadGenerator.Family.values()) {
      WorkloadGenerator.Options o = WorkloadGenerator.Options.of(family);
      o.pages = pages;
      o.hosts = Math.max(1, pages / 100);
      o.seed = seed;
      double[] truth = WorkloadGenerator.generate(o).changeRates();
      for (double gap : GAPS) {
        for (int crawls : CRAWLS) {
          double[][] errors = evaluate(truth, gap, crawls, new SplittableRandom(seed), gamma);
          String name = family.cliName();
          row(sb, name, gap, crawls, "Gamma in place", errors[0]);
          row(sb, name, gap, crawls, "grid, learned prior", errors[1]);
        }
      }
    }
    return sb.toString();
  }

  private static void row(
      StringBuilder sb, String family, double gap, int crawls, String name, double[] e) {
    sb.append(
        String.format(
            Locale.ROOT,
            "| %s | %.0f | %d | %s | %+.3f | %.3f | %+.3f | %.3f |%n",
            family,
            gap,
            crawls,
            name,
            e[0],
            e[1],
            e[2],
            e[3]));
  }

  /**
   * Exponential gaps of mean {@code gap}; both estimators see the same verdicts. The grid's prior
   * is learned as the engine learns it (each page's term replaced at each of its fetches), over the
   * pages in turn, fetch by fetch, and each page is estimated under the prior at the end.
   */
  private static double[][] evaluate(
      double[] truth, double gap, int crawls, SplittableRandom rnd, ChangeRateEstimator gamma) {
    int n = truth.length;
    ChangeStats[] g = new ChangeStats[n];
    RateGrid.Evidence[] ev = new RateGrid.Evidence[n];
    RateGrid.Prior prior = new RateGrid.Prior(1.0, gamma.prior());
    for (int p = 0; p < n; p++) {
      g[p] = gamma.prior();
      ev[p] = RateGrid.Evidence.NONE;
    }
    for (int c = 0; c < crawls; c++) {
      for (int p = 0; p < n; p++) {
        double d = -gap * Math.log(1 - rnd.nextDouble());
        boolean changed = rnd.nextDouble() < -Math.expm1(-truth[p] * d);
        g[p] = gamma.observe(g[p], d, changed);
        RateGrid.Evidence next = RateGrid.observe(ev[p], d, changed, gamma.maxShape());
        prior.replace(ev[p], next);
        ev[p] = next;
      }
    }
    double[][] acc = new double[2][4];
    for (int p = 0; p < n; p++) {
      double a = gamma.rate(g[p]);
      ChangeStats s = prior.project(prior.posterior(ev[p]), gamma.maxShape());
      double b = s.shape() / s.rate();
      add(acc[0], a / truth[p]);
      add(acc[1], b / truth[p]);
    }
    for (double[] x : acc) {
      x[0] /= n;
      x[1] = Math.sqrt(x[1] / n);
      x[2] /= n;
      x[3] = Math.sqrt(x[3] / n);
    }
    return acc;
  }

  private static void add(double[] acc, double ratio) {
    double r = ratio - 1;
    double l = Math.log(ratio);
    acc[0] += r;
    acc[1] += r * r;
    acc[2] += l;
    acc[3] += l * l;
  }
}
