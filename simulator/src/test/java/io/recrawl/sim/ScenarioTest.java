package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.sim.policy.StormCrawlerDefaultPolicy;
import io.recrawl.sim.workload.Workload;
import org.junit.jupiter.api.Test;

class ScenarioTest {

  private static Workload workload() {
    return SimTestWorkloads.generated(2_000, 20, 4);
  }

  @Test
  void aNewHostCannotBeCrawledBeforeItAppearsAndIsCrawledAfter() {
    Workload w = workload();
    Simulator.Config cfg = SimTestWorkloads.config(w, 0.5 * w.pages(), 20, 4);
    cfg.scenario = Scenario.build(Scenario.NEW_HOST, w, cfg.warmUp, cfg.days, 1);
    assertThat(cfg.scenario.changeTime()).isEqualTo(12.5);
    int host = cfg.scenario.host();
    assertThat(w.hostSizes()[host])
        .isEqualTo(java.util.Arrays.stream(w.hostSizes()).max().getAsInt());

    // A policy that tries to crawl everything at time 0 is refused the hidden pages.
    PolicyRun eager =
        new Simulator(cfg)
            .run(
                new SimPolicy() {
                  @Override
                  public String name() {
                    return "eager";
                  }

                  @Override
                  public void start(SimContext ctx) {
                    for (int p = 0; p < ctx.workload().pages(); p++) {
                      ctx.release(p);
                    }
                  }

                  @Override
                  public double nextWakeTime() {
                    return Double.POSITIVE_INFINITY;
                  }

                  @Override
                  public void wake(double now) {}

                  @Override
                  public void onStatus(int page, io.recrawl.wire.StatusEvent event, double now) {}
                });
    assertThat(eager.rejectedReleases).isEqualTo(w.hostSizes()[host]);

    PolicyRun run = new Simulator(cfg).run(new StormCrawlerDefaultPolicy());
    assertThat(run.rejectedReleases).isZero();
    int crawled = 0;
    for (int p = 0; p < w.pages(); p++) {
      if (w.hostOf(p) == host && run.fetchesInWindow[p] > 0) {
        crawled++;
      }
    }
    assertThat(crawled).isEqualTo(w.hostSizes()[host]);
  }

  @Test
  void aBudgetRiseIsSpentByEveryPolicyThatFollowsTheBudgetAndNeverExceeded() {
    // 2,000 pages, 400 crawls a day rising to 600 at day 12.5: the crawler, the auditor and the
    // policies that plan to the budget all take the new one, and no fetch breaks either budget.
    Workload w = workload();
    Simulator.Config cfg = SimTestWorkloads.config(w, 0.2 * w.pages(), 20, 4);
    cfg.scenario = Scenario.build(Scenario.BUDGET_RISE, w, cfg.warmUp, cfg.days, 1);
    assertThat(cfg.scenario.stationary()).isFalse();
    assertThat(Reference.compute(cfg).lambda0After).isLessThan(Reference.compute(cfg).lambda0);
    for (SimPolicy policy :
        new SimPolicy[] {
          new io.recrawl.sim.policy.CrawlValuePolicy(),
          new io.recrawl.sim.policy.OptimalDailyPolicy(),
          new io.recrawl.sim.policy.GreedyPolicy()
        }) {
      PolicyRun run = new Simulator(cfg).run(policy);
      assertThat(run.politenessViolations + run.budgetViolations).as(policy.name()).isZero();
      double before = crawls(run, 5, 12);
      double after = crawls(run, 15, 20);
      assertThat(after / before).as(policy.name()).isGreaterThan(1.3);
    }
  }

  /** A run's crawls a day between two days, from its chart. */
  private static double crawls(PolicyRun run, double from, double to) {
    double sum = 0;
    int n = 0;
    for (int b = 0; b < run.crawlRateSeries.length; b++) {
      double t = (b + 0.5) * run.bucketDays;
      if (t >= from && t < to) {
        sum += run.crawlRateSeries[b];
        n++;
      }
    }
    return sum / n;
  }

  @Test
  void capacityDropCutsTheLargestLimitedHostTenfold() {
    Workload w = workload();
    Scenario s = Scenario.build(Scenario.CAPACITY_DROP, w, 4, 20, 1);
    assertThat(w.constrained(s.host())).isTrue();
    assertThat(s.newMaxRate()).isEqualTo(w.hostMaxRate(s.host()) / 10);
  }

  @Test
  void rateDriftMovesEveryRateByALogNormalFactor() {
    Workload w = workload();
    double[] after = Scenario.build(Scenario.RATE_DRIFT, w, 4, 20, 1).newRates();
    double sumLog = 0;
    double sumSq = 0;
    for (int p = 0; p < w.pages(); p++) {
      double l = Math.log(after[p] / w.changeRate(p));
      sumLog += l;
      sumSq += l * l;
    }
    double mean = sumLog / w.pages();
    double sd = Math.sqrt(sumSq / w.pages() - mean * mean);
    assertThat(mean).isBetween(-0.1, 0.1);
    assertThat(sd).isBetween(0.9, 1.1);
  }
}
