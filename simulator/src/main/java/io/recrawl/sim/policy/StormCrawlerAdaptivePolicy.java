package io.recrawl.sim.policy;

import java.util.Arrays;

/**
 * StormCrawler 2.4's AdaptiveScheduler rules: the first fetch (no previous signature) gets the
 * default interval; unchanged multiplies the interval by 1 + incr (capped at max); changed moves it
 * to (1 - decr) x interval + decr x min. Defaults incr = decr = 0.5, min = 60 min, default = 1440
 * min, max = 20160 min; the three intervals are scaled together so that the default is pages /
 * budget days, the same budget as every other policy.
 */
public final class StormCrawlerAdaptivePolicy extends FetchDrivenPolicy {

  public static final String NAME = "stormcrawler-adaptive";
  private static final double INCR = 0.5;
  private static final double DECR = 0.5;
  private static final double MIN_OVER_DEFAULT = 60.0 / 1440;
  private static final double MAX_OVER_DEFAULT = 20160.0 / 1440;

  private double defaultInterval;
  private double[] interval;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected void init(int pages) {
    defaultInterval = budgetInterval();
    interval = new double[pages];
    Arrays.fill(interval, Double.NaN);
  }

  @Override
  protected double nextFetch(int page, Boolean changed, double now) {
    double min = defaultInterval * MIN_OVER_DEFAULT;
    double max = defaultInterval * MAX_OVER_DEFAULT;
    double i = interval[page];
    if (changed == null || Double.isNaN(i)) {
      i = defaultInterval; // no old signature to compare with
    } else if (changed) {
      i = (1 - DECR) * i + DECR * min;
    } else {
      i = Math.min(i * (1 + INCR), max);
    }
    interval[page] = i;
    return now + i;
  }
}
