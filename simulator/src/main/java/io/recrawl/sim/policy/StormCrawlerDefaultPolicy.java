package io.recrawl.sim.policy;

/**
 * StormCrawler 2.4's DefaultScheduler: a FETCHED page is due again after {@code
 * fetchInterval.default}, whatever the page did. The interval is sized to the budget: pages /
 * budget days.
 */
public final class StormCrawlerDefaultPolicy extends FetchDrivenPolicy {

  public static final String NAME = "stormcrawler-default";
  private double interval;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected void init(int pages) {
    interval = budgetInterval();
  }

  @Override
  protected double nextFetch(int page, Boolean changed, double now) {
    return now + interval;
  }
}
