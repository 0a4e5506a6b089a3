package io.recrawl.sim;

/**
 * Integrates piecewise-constant contributions over fixed-width time buckets in O(1) per interval:
 * partial buckets at the ends are added directly, the full buckets between go to a difference
 * array.
 */
public final class IntervalSeries {

  private final double width;
  private final double[] partial;
  private final double[] fullRateDiff;

  public IntervalSeries(double width, int buckets) {
    this.width = width;
    this.partial = new double[buckets];
    this.fullRateDiff = new double[buckets + 1];
  }

  public double width() {
    return width;
  }

  public int buckets() {
    return partial.length;
  }

  /** Adds {@code level x time} for the part of [a, b) inside the series. */
  public void add(double a, double b, double level) {
    double end = width * partial.length;
    if (a < 0) {
      a = 0;
    }
    if (b > end) {
      b = end;
    }
    if (!(b > a)) {
      return;
    }
    int ia = (int) (a / width);
    int ib = (int) (b / width);
    if (ib >= partial.length) {
      ib = partial.length; // b == end
    }
    if (ia >= partial.length) {
      return;
    }
    if (ia == ib) {
      partial[ia] += level * (b - a);
      return;
    }
    partial[ia] += level * ((ia + 1) * width - a);
    if (ib < partial.length) {
      partial[ib] += level * (b - ib * width);
    }
    if (ib > ia + 1) {
      fullRateDiff[ia + 1] += level;
      fullRateDiff[ib] -= level;
    }
  }

  /** Adds a point amount to the bucket holding time t. */
  public void addPoint(double t, double amount) {
    int i = (int) (t / width);
    if (i >= 0 && i < partial.length) {
      partial[i] += amount;
    }
  }

  /** The integral over each bucket. */
  public double[] totals() {
    double[] out = new double[partial.length];
    double level = 0;
    for (int i = 0; i < out.length; i++) {
      level += fullRateDiff[i];
      out[i] = partial[i] + level * width;
    }
    return out;
  }
}
