package io.recrawl.sim.policy;

import java.util.Arrays;

/**
 * Nutch's AdaptiveFetchSchedule rules, nutch-default.xml settings: MODIFIED multiplies the interval
 * by 1 - dec_rate (0.2), NOT_MODIFIED by 1 + inc_rate (0.4); with sync_delta on, delta = fetch time
 * - last modified time, the interval becomes delta if that is longer, and the next fetch is counted
 * from fetch time - 0.3 x delta; the interval is clamped to [min, max]. Defaults:
 * db.fetch.interval.default 30 days, min 60 s, max 365 days, scaled together so that the default is
 * pages / budget days. The modified time is the fetch that saw the change.
 */
public final class NutchAdaptivePolicy extends FetchDrivenPolicy {

  public static final String NAME = "nutch-adaptive";
  private static final double INC_RATE = 0.4;
  private static final double DEC_RATE = 0.2;
  private static final double SYNC_DELTA_RATE = 0.3;
  private static final double MIN_OVER_DEFAULT = 60.0 / (30 * 86400.0);
  private static final double MAX_OVER_DEFAULT = 365.0 / 30;

  private double defaultInterval;
  private double[] interval;
  private double[] modified;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected void init(int pages) {
    defaultInterval = budgetInterval();
    interval = new double[pages];
    modified = new double[pages];
    Arrays.fill(interval, defaultInterval);
    Arrays.fill(modified, Double.NaN);
  }

  @Override
  protected double nextFetch(int page, Boolean changed, double now) {
    double min = defaultInterval * MIN_OVER_DEFAULT;
    double max = defaultInterval * MAX_OVER_DEFAULT;
    double i = interval[page];
    if (changed == null || Double.isNaN(modified[page])) {
      modified[page] = now; // first fetch: the content is new
    } else if (changed) {
      i *= 1 - DEC_RATE;
      modified[page] = now;
    } else {
      i *= 1 + INC_RATE;
    }
    double delta = now - modified[page];
    if (delta > i) {
      i = delta;
    }
    double refTime = now - Math.min(delta * SYNC_DELTA_RATE, max);
    i = Math.max(min, Math.min(max, i));
    interval[page] = i;
    return Math.max(refTime + i, now + min);
  }
}
