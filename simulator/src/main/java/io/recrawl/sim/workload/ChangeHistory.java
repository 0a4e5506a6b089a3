package io.recrawl.sim.workload;

import java.util.Arrays;

/**
 * The observed change times of a workload's pages, in days from the history's start (simulated day
 * 0), each page's ascending. A page without a history changes as a Poisson process at its rate; a
 * page with one changes exactly at its times, and never after the last ({@code simulate --changes
 * trace}).
 */
public final class ChangeHistory {

  /** The file of a workload directory that holds the histories. */
  public static final String FILE = "changes.csv";

  static final String HEADER = "url,change_days";

  private static final double[] NONE = new double[0];

  private final double[][] times;

  /**
   * @param times by page index: that page's change times in days, ascending, finite, at least 0;
   *     null for a page without a history
   */
  public ChangeHistory(double[][] times) {
    for (int p = 0; p < times.length; p++) {
      double[] t = times[p];
      if (t == null) {
        continue;
      }
      for (int i = 0; i < t.length; i++) {
        if (!(t[i] >= 0) || Double.isInfinite(t[i]) || (i > 0 && t[i] < t[i - 1])) {
          throw new IllegalArgumentException(
              "page " + p + ": change times must be finite, >= 0 and ascending");
        }
      }
    }
    this.times = times;
  }

  public int pages() {
    return times.length;
  }

  /** Whether the page's changes are given. */
  public boolean has(int page) {
    return times[page] != null;
  }

  /** The page's change times (empty if none are given); not to be modified. */
  public double[] times(int page) {
    return times[page] == null ? NONE : times[page];
  }

  /** The page's first change strictly after {@code t}: +infinity if none is left. */
  public double nextAfter(int page, double t) {
    double[] c = times(page);
    int i = Arrays.binarySearch(c, t);
    // The first index whose time is > t: past every equal entry when t is itself a change time.
    int at = i < 0 ? -i - 1 : i + 1;
    while (at < c.length && c[at] <= t) {
      at++;
    }
    return at < c.length ? c[at] : Double.POSITIVE_INFINITY;
  }
}
