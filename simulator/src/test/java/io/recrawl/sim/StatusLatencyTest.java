package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.recrawl.sim.policy.StormCrawlerDefaultPolicy;
import org.junit.jupiter.api.Test;

/** A status that reaches the policy late delays what the policy decides from it. */
class StatusLatencyTest {

  private static PolicyRun run(double latencyDays) {
    // A budget far above the demand and no host limits: only the policy and the latency decide.
    Simulator.Config cfg =
        SimTestWorkloads.config(SimTestWorkloads.uniform(2_000, 50, 0.5), 1e6, 40, 5);
    cfg.statusLatencyDays = latencyDays;
    return new Simulator(cfg).run(new StormCrawlerDefaultPolicy(1.0));
  }

  @Test
  void aFetchDrivenPolicyWaitsForTheStatusSoEachCycleLastsItsIntervalPlusTheLatency() {
    assertThat(run(0).crawlsPerDay).isCloseTo(2_000, within(20.0));
    assertThat(run(0.5).crawlsPerDay).isCloseTo(2_000 / 1.5, within(20.0));
  }
}
