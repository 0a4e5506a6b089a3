package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.sim.policy.OptimalStaticPolicy;
import io.recrawl.sim.workload.Workload;
import org.junit.jupiter.api.Test;

/** optimal-static, executed by the simulator, must measure what the exact solver predicts. */
class OptimalStaticTest {

  @Test
  void measuredFreshnessIsWithinHalfAPercentOfTheSolversPrediction() {
    Workload w = SimTestWorkloads.generated(10_000, 100, 5);
    // The crawl starts with no copies and each page's first fetch falls at a random phase of its
    // period, while the solver predicts the steady state: the long warm-up lets (almost) every
    // crawled page reach it before the measured window.
    Simulator.Config cfg = SimTestWorkloads.config(w, 0.2 * w.pages(), 300, 200);
    OptimalStaticPolicy policy = new OptimalStaticPolicy();
    PolicyRun run = new Simulator(cfg).run(policy);
    double predicted = policy.solution().weightedFreshness();
    assertThat(w.constrainedHosts()).isPositive();
    assertThat(run.weightedFreshness / predicted)
        .as("measured %s, predicted %s", run.weightedFreshness, predicted)
        .isBetween(0.995, 1.005);
    assertThat(run.politenessViolations + run.budgetViolations).isZero();
    assertThat(Reference.compute(cfg).weightedFreshness).isEqualTo(predicted);
  }
}
