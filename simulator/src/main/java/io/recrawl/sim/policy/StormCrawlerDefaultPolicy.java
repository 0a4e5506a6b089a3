package io.recrawl.sim.policy;

/**
 * StormCrawler 2.4's DefaultScheduler: a FETCHED page is due again after {@code
 * fetchInterval.default}, whatever the page did. Unless given, the interval is sized to the budget:
 * pages / budget days.
 */
public final class StormCrawlerDefaultPolicy extends FetchDrivenPolicy {

  public static final String NAME = "stormcrawler-default";
  private final double given;
  private double interval;

  /** The interval sized to the budget. */
  public StormCrawlerDefaultPolicy() {
    this(Double.NaN);
  }

  /** {@code fetchInterval.default} in days; NaN: sized to the budget. */
  public StormCrawlerDefaultPolicy(double intervalDays) {
    this.given = intervalDays;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected void init(int pages) {
    interval = Double.isNaN(given) ? budgetInterval() : given;
  }

  @Override
  protected double nextFetch(int page, Boolean changed, double now) {
    return now + interval;
  }
}
