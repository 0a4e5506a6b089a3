package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.sim.policy.CrawlValuePolicy;
import io.recrawl.sim.workload.Workload;
import org.junit.jupiter.api.Test;

/**
 * The engine adapter drives the real engine: it crawls to the budget, politely, near the optimum.
 */
class CrawlValuePolicyTest {

  @Test
  void oracleRatesGetCloseToTheOptimumWithinTheLimits() {
    Workload w = SimTestWorkloads.generated(4_000, 60, 3);
    Simulator.Config cfg = SimTestWorkloads.config(w, 0.2 * w.pages(), 40, 20);
    PolicyRun run = new Simulator(cfg).run(new CrawlValuePolicy());
    double optimum = Reference.compute(cfg).weightedFreshness;
    assertThat(run.politenessViolations + run.budgetViolations).isZero();
    assertThat(run.crawlsPerDay).isBetween(0.95 * cfg.budget, cfg.budget);
    // A loose floor: this guards the adapter's wiring; docs/benchmarks.md reports the ratios.
    assertThat(run.weightedFreshness / optimum).isGreaterThan(0.97);
    assertThat(run.lambda0Series[run.lambda0Series.length - 1]).isPositive();
  }
}
