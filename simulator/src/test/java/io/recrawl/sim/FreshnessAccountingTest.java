package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.value.CrawlValue;
import org.junit.jupiter.api.Test;

/**
 * The simulator's exact freshness accounting against the closed form (1 - e^(-delta D)) / (delta
 * D).
 */
class FreshnessAccountingTest {

  @Test
  void periodicCrawlMatchesTheClosedFormWithinSamplingError() {
    double[][] cases = {{0.5, 1.0}, {2.0, 0.25}, {0.1, 7.0}, {1.0, 3.0}};
    for (double[] c : cases) {
      double delta = c[0];
      double interval = c[1];
      int pages = 2_000;
      double days = 60;
      double warmUp = interval + 1; // every page has been fetched once before the window
      // A budget far above the demand and no host limits: the crawler never delays a fetch.
      Simulator.Config cfg =
          SimTestWorkloads.config(
              SimTestWorkloads.uniform(pages, 50, delta), 100.0 * pages / interval, days, warmUp);
      cfg.seed = 11;
      PolicyRun run = new Simulator(cfg).run(new FixedIntervalPolicy(interval));

      double expected = CrawlValue.freshness(delta, interval);
      // Each whole interval's fresh fraction min(E, D) / D, E ~ Exp(delta), is independent with
      // mean F and second moment 2 (1 - e^(-x)(1 + x)) / x^2 (x = delta D).
      double x = delta * interval;
      double second = 2 * CrawlValue.g(x) / (x * x);
      double sd = Math.sqrt(second - expected * expected);
      double intervals = pages * (days - warmUp) / interval;
      double standardError = sd / Math.sqrt(intervals);
      assertThat(run.weightedFreshness)
          .as("delta %s, interval %s: expected %s +- %s", delta, interval, expected, standardError)
          .isCloseTo(expected, org.assertj.core.data.Offset.offset(4 * standardError + 1e-4));
      assertThat(run.politenessViolations + run.budgetViolations).isZero();
      assertThat(run.crawlsPerDay)
          .isCloseTo(
              pages / interval, org.assertj.core.data.Offset.offset(0.01 * pages / interval));
    }
  }

  @Test
  void aPageNeverCrawledIsNeverFresh() {
    Simulator.Config cfg =
        SimTestWorkloads.config(SimTestWorkloads.uniform(100, 5, 0.5), 10, 10, 2);
    PolicyRun run = new Simulator(cfg).run(new FixedIntervalPolicy(Double.POSITIVE_INFINITY));
    assertThat(run.weightedFreshness).isZero();
    assertThat(run.neverCrawled).isEqualTo(100);
    assertThat(run.fetches).isZero();
  }

  @Test
  void aPageThatNeverChangesStaysFreshFromItsFirstFetch() {
    Simulator.Config cfg =
        SimTestWorkloads.config(SimTestWorkloads.uniform(100, 5, 0.0), 1000, 20, 5);
    PolicyRun run = new Simulator(cfg).run(new FixedIntervalPolicy(4.0));
    assertThat(run.weightedFreshness).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
  }
}
