package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.sim.policy.Policies;
import io.recrawl.sim.workload.Workload;
import io.recrawl.sim.workload.WorkloadGenerator;
import org.junit.jupiter.api.Test;

class PolitenessTest {

  private static Workload tight() {
    WorkloadGenerator.Options o = new WorkloadGenerator.Options();
    o.pages = 3_000;
    o.hosts = 40;
    o.seed = 9;
    o.constrainedFraction = 0.5;
    o.constrainedPerPage = 0.02;
    return WorkloadGenerator.generate(o);
  }

  @Test
  void noPolicyEverBreaksAHostLimitOrTheBudget() {
    for (String scenario : new String[] {Scenario.STATIONARY, Scenario.CAPACITY_DROP}) {
      Workload w = tight();
      Simulator.Config cfg = SimTestWorkloads.config(w, 0.3 * w.pages(), 12, 4);
      cfg.oracleRates = false;
      cfg.scenario = Scenario.build(scenario, w, cfg.warmUp, cfg.days, 1);
      Simulator sim = new Simulator(cfg);
      for (String name : Policies.NAMES) {
        PolicyRun r = sim.run(Policies.create(name));
        assertThat(r.politenessViolations).as("%s %s", scenario, name).isZero();
        assertThat(r.budgetViolations).as("%s %s", scenario, name).isZero();
        assertThat(r.maxHostRateRatio).as("%s %s", scenario, name).isLessThanOrEqualTo(1 + 1e-9);
        assertThat(r.crawlsPerDay)
            .as("%s %s", scenario, name)
            .isLessThanOrEqualTo(cfg.budget * 1.0001);
        assertThat(r.fetches).as("%s %s", scenario, name).isPositive();
      }
    }
  }

  @Test
  void theCrawlerSpacesABurstToTheHostsRate() {
    int[] hostOf = {0, 0, 0, 1};
    Crawler c = new Crawler(hostOf, new double[] {4, Double.POSITIVE_INFINITY}, 1000);
    for (int p = 0; p < 4; p++) {
      assertThat(c.release(p, 1.0)).isTrue();
    }
    assertThat(c.release(0, 1.0)).isFalse();
    assertThat(c.duplicates()).isEqualTo(1);
    double[] times = new double[4];
    int[] pages = new int[4];
    for (int k = 0; k < 4; k++) {
      times[k] = c.nextFetchTime();
      pages[k] = c.fetch();
    }
    assertThat(c.nextFetchTime()).isEqualTo(Double.POSITIVE_INFINITY);
    // host 0 at 0.25-day spacing; the global gate spaces everything by 1/1000 day
    assertThat(pages).containsExactly(0, 3, 1, 2);
    assertThat(times[0]).isEqualTo(1.0);
    assertThat(times[1]).isCloseTo(1.001, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(times[2]).isCloseTo(1.25, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(times[3]).isCloseTo(1.5, org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void aLimitedHostGetsItsFullRateBehindABusyBudget() {
    // host 0: 100 a day; host 1: unlimited, with two days' worth of budget waiting since t = 0
    int limitedPages = 200;
    int[] hostOf = new int[limitedPages + 2000];
    java.util.Arrays.fill(hostOf, limitedPages, hostOf.length, 1);
    Crawler c = new Crawler(hostOf, new double[] {100, Double.POSITIVE_INFINITY}, 1000);
    for (int p = 0; p < hostOf.length; p++) {
      c.release(p, 0.0);
    }
    int limitedFetches = 0;
    double lastLimited = Double.NEGATIVE_INFINITY;
    while (c.nextFetchTime() < 1.0) {
      int page = c.fetch();
      if (hostOf[page] == 0) {
        assertThat(c.lastFetchTime() - lastLimited).isGreaterThanOrEqualTo(0.01 - 1e-12);
        lastLimited = c.lastFetchTime();
        limitedFetches++;
      }
    }
    // Taking its turn behind host 1's older pages cost host 0 a gate slot most cycles (85 a day).
    assertThat(limitedFetches).isGreaterThanOrEqualTo(99);
  }

  @Test
  void theAuditorCountsWhatTheGateWouldHaveStopped() {
    PolitenessAuditor a = new PolitenessAuditor(2);
    a.fetched(0, 1.0, 2, 100);
    a.fetched(0, 1.5, 2, 100); // exactly 1/2 day: allowed
    a.fetched(1, 1.5001, Double.POSITIVE_INFINITY, 100); // 0.0001 < 1/100: budget broken
    a.fetched(0, 1.9, 2, 100); // 0.4 < 0.5: host broken
    assertThat(a.hostViolations()).isEqualTo(1);
    assertThat(a.budgetViolations()).isEqualTo(1);
    assertThat(a.maxRateRatio()).isCloseTo(1.25, org.assertj.core.data.Offset.offset(1e-9));
  }
}
