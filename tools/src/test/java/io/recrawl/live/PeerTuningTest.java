package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PeerTuningTest {

  /** The default web's shape, smaller: 300 pages, 20 hosts, a budget of 2.5 fetches a second. */
  private static LivePrediction prediction(long seed) {
    LiveWebOptions o = LiveWebTest.small(seed);
    o.secondsPerDay = 20;
    o.durationSeconds = 780;
    LiveWeb web = LiveWeb.generate(o);
    return LivePrediction.prepare(web.workload(), 2.5, o.secondsPerDay, 240, 780, seed);
  }

  @Test
  void everySchedulerIsComparedAtTheBudgetsSpendAndTheBestShapeWins() {
    LivePrediction p = prediction(21);
    double budget = p.config.budget;
    long start = System.nanoTime();
    PeerTuning.Best best = p.tunePeers();
    double seconds = (System.nanoTime() - start) / 1e9;

    // Spend the budget, not more: the crawler in the sweep is held back only by the hosts.
    assertThat(best.defaultRun().crawlsPerDay).isBetween(0.95 * budget, budget);
    assertThat(best.adaptiveRun().crawlsPerDay).isBetween(0.95 * budget, budget);
    assertThat(best.adaptiveStockRun().crawlsPerDay).isBetween(0.95 * budget, budget);
    // StormCrawler's own shape is one of those tried, so the best is at least as fresh.
    assertThat(best.adaptiveRun().weightedFreshness)
        .isGreaterThanOrEqualTo(best.adaptiveStockRun().weightedFreshness);
    assertThat(best.adaptive().minDays()).isLessThan(best.adaptive().defaultDays());
    System.out.printf(
        "sweep: %d runs in %.1f s; default %.4f, adaptive stock %.4f, best %.4f (%s)%n",
        best.runs(),
        seconds,
        best.defaultRun().weightedFreshness,
        best.adaptiveStockRun().weightedFreshness,
        best.adaptiveRun().weightedFreshness,
        best.adaptive());
  }
}
