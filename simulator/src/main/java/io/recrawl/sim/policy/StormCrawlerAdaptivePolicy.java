package io.recrawl.sim.policy;

import java.util.Arrays;

/**
 * StormCrawler 2.4's AdaptiveScheduler rules: the first fetch (no previous signature) gets the
 * default interval; unchanged multiplies the interval by 1 + incr (capped at max); changed moves it
 * to (1 - decr) x interval + decr x min. Unless given, the settings are StormCrawler's defaults
 * (incr = decr = 0.5, min = 60 min, default = 1440 min, max = 20160 min) with the three intervals
 * scaled together so that the default is pages / budget days, the budget of every other policy.
 */
public final class StormCrawlerAdaptivePolicy extends FetchDrivenPolicy {

  public static final String NAME = "stormcrawler-adaptive";

  /**
   * AdaptiveScheduler's keys, intervals in days: {@code fetchInterval.default}, {@code
   * scheduler.adaptive.fetchInterval.min}, {@code .max}, {@code .rate.incr}, {@code .rate.decr}.
   */
  public record Settings(
      double defaultDays, double minDays, double maxDays, double incr, double decr) {

    /** StormCrawler's defaults with their intervals scaled to a default of {@code days}. */
    public static Settings defaultsScaledTo(double days) {
      return new Settings(days, days * (60.0 / 1440), days * (20160.0 / 1440), 0.5, 0.5);
    }

    /** The same shape with every interval times {@code factor}. */
    public Settings scaled(double factor) {
      return new Settings(defaultDays * factor, minDays * factor, maxDays * factor, incr, decr);
    }
  }

  private final Settings given;
  private Settings s;
  private double[] interval;

  /** StormCrawler's defaults scaled to the budget. */
  public StormCrawlerAdaptivePolicy() {
    this(null);
  }

  /** The given settings; null: StormCrawler's defaults scaled to the budget. */
  public StormCrawlerAdaptivePolicy(Settings settings) {
    this.given = settings;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected void init(int pages) {
    s = given != null ? given : Settings.defaultsScaledTo(budgetInterval());
    interval = new double[pages];
    Arrays.fill(interval, Double.NaN);
  }

  @Override
  protected double nextFetch(int page, Boolean changed, double now) {
    double i = interval[page];
    if (changed == null || Double.isNaN(i)) {
      i = s.defaultDays(); // no old signature to compare with
    } else if (changed) {
      i = (1 - s.decr()) * i + s.decr() * s.minDays();
    } else {
      i = Math.min(i * (1 + s.incr()), s.maxDays());
    }
    interval[page] = i;
    return now + i;
  }
}
