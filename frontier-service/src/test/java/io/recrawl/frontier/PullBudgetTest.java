package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * The budget read from the crawler's pull, against a crawler that takes at most its capacity each
 * period from a frontier that releases at the budget.
 */
class PullBudgetTest {

  private static final double PERIOD_S = 10;

  /**
   * One period of a crawler of {@code capacity} URLs a second asking {@code calls} times against
   * releases at {@code budget}: it takes what is released up to its capacity, and when the releases
   * exceed it, most calls leave URLs behind.
   */
  private static PullSample period(double budget, double capacity, int calls) {
    long taken = Math.round(Math.min(budget, capacity) * PERIOD_S);
    long left = budget > capacity ? calls : 0;
    return new PullSample(calls, left, taken, budget > capacity ? 3 : 0, 0);
  }

  @Test
  void thePeriodInWhichTheFirstClientCameDoesNotSetTheBudget() {
    PullBudget b = new PullBudget(5, PERIOD_S);
    // A crawler that started a second before the period's end: one call, URLs left behind.
    assertThat(b.update(new PullSample(1, 1, 2, 2, 0))).isEqualTo(5);
    assertThat(b.update(period(5, 3, 10))).isCloseTo(3, within(1e-9));
  }

  @Test
  void aHungryCrawlerRaisesTheBudgetUntilItIsFullThenTheBudgetStaysNearItsCapacity() {
    PullBudget b = new PullBudget(1, PERIOD_S);
    double capacity = 5;
    for (int i = 0; i < 30; i++) {
      b.update(period(b.perSecond(), capacity, 10));
    }
    double low = Double.MAX_VALUE;
    double high = 0;
    for (int i = 0; i < 30; i++) {
      double x = b.update(period(b.perSecond(), capacity, 10));
      low = Math.min(low, x);
      high = Math.max(high, x);
    }
    assertThat(low).isGreaterThanOrEqualTo(capacity * 0.99);
    assertThat(high).isLessThanOrEqualTo(capacity * PullBudget.RISE * 1.01);
  }

  @Test
  void aCrawlerThatDoublesItsThreadsDoublesTheBudgetWithinFourPeriods() {
    PullBudget b = new PullBudget(5, PERIOD_S);
    for (int i = 0; i < 10; i++) {
      b.update(period(b.perSecond(), 5, 10));
    }
    int periods = 0;
    while (b.perSecond() < 10) {
      b.update(period(b.perSecond(), 10, 10));
      periods++;
    }
    assertThat(periods).isLessThanOrEqualTo(4);
  }

  @Test
  void aBudgetFarAboveWhatTheCrawlerTakesComesDownToItInOnePeriod() {
    PullBudget b = new PullBudget(1, PERIOD_S);
    for (int i = 0; i < 20; i++) {
      b.update(
          new PullSample(10, 0, 50, 0, 0)); // hungry at 5 a second: the budget climbs to its cap
    }
    assertThat(b.perSecond()).isEqualTo(5 * PullBudget.CAP_FACTOR);
    assertThat(b.update(new PullSample(10, 10, 50, 8, 0))).isEqualTo(5);
  }

  @Test
  void aCrawlerThatHalvesItsCapacityHalvesTheBudgetInOnePeriod() {
    PullBudget b = new PullBudget(10, PERIOD_S);
    for (int i = 0; i < 10; i++) {
      b.update(period(b.perSecond(), 10, 10));
    }
    assertThat(b.update(period(b.perSecond(), 5, 10))).isCloseTo(5, within(0.01));
  }

  @Test
  void aBacklogReleasedAtTheCrawlersCapacityDrainsWhileTheCrawlerKeepsTakingItsCapacity() {
    // The first crawl leaves 300 URLs waiting for a crawler that takes 5 a second: released at 5 a
    // second, they would stand there for good, each URL a minute late.
    PullBudget b = new PullBudget(5, PERIOD_S);
    double capacity = 5;
    double waiting = 300;
    b.update(new PullSample(1, 1, 5, 10, 300)); // the first client's period sets nothing
    double most = 0;
    for (int i = 0; i < 40; i++) {
      waiting += b.perSecond() * PERIOD_S;
      long taken = Math.round(Math.min(waiting, capacity * PERIOD_S));
      waiting -= taken;
      if (i < 30) {
        assertThat(taken).as("period %d: the crawler is never starved", i).isEqualTo(50);
      } else {
        most = Math.max(most, waiting);
      }
      long left = waiting >= 1 ? 10 : 0;
      b.update(new PullSample(10, left, taken, left > 0 ? 5 : 0, (int) Math.round(waiting)));
    }
    // what the next calls take and the rises of RISE leave, no more
    assertThat(most).isLessThanOrEqualTo(2 * capacity * PERIOD_S * PullBudget.ALLOWANCE_PERIODS);
  }

  @Test
  void aStalledCrawlerHalvesTheBudgetAtMostPerPeriodButOneNotStartedYetLeavesItAlone() {
    PullBudget b = new PullBudget(8, PERIOD_S);
    assertThat(b.update(new PullSample(0, 0, 0, 5, 0))).isEqualTo(8); // no client has asked yet
    b.update(new PullSample(10, 10, 80, 5, 0));
    assertThat(b.update(new PullSample(0, 0, 0, 5, 0))).isEqualTo(4);
    assertThat(b.update(new PullSample(0, 0, 0, 0, 0))).isEqualTo(4); // no evidence
  }

  @Test
  void hostsThatLimitTheCrawlDoNotDriveTheBudgetWithoutBound() {
    PullBudget b = new PullBudget(1, PERIOD_S);
    for (int i = 0; i < 200; i++) {
      b.update(new PullSample(10, 0, 30, 0, 0)); // hungry, and never more than 3 a second
    }
    assertThat(b.perSecond()).isLessThanOrEqualTo(3 * PullBudget.CAP_FACTOR);
  }
}
