package io.recrawl.sim;

/**
 * Weighted freshness over the measured window [warmUp, end]: sum of w x time fresh over sum of w x
 * time the page existed, plus the same per time bucket for the chart.
 */
public final class FreshnessMeter {

  private final double warmUp;
  private final double end;
  private final IntervalSeries freshSeries;
  private final IntervalSeries weightSeries;
  private final double[] freshTime;
  private double freshWeightTime;
  private double totalWeightTime;

  public FreshnessMeter(int pages, double warmUp, double end, double bucketWidth) {
    this.freshTime = new double[pages];
    this.warmUp = warmUp;
    this.end = end;
    int buckets = (int) Math.ceil(end / bucketWidth - 1e-9);
    this.freshSeries = new IntervalSeries(bucketWidth, buckets);
    this.weightSeries = new IntervalSeries(bucketWidth, buckets);
  }

  /** The page (weight w) was fresh during [a, b). */
  public void fresh(int page, double w, double a, double b) {
    if (!(b > a)) {
      return;
    }
    freshSeries.add(a, b, w);
    double lo = Math.max(a, warmUp);
    double hi = Math.min(b, end);
    if (hi > lo) {
      freshWeightTime += w * (hi - lo);
      freshTime[page] += hi - lo;
    }
  }

  /** Each page's fresh time inside the measured window, days. */
  public double[] freshTimeInWindow() {
    return freshTime;
  }

  /** The page (weight w) exists from {@code from} to the end: it counts in the denominator. */
  public void exists(double w, double from) {
    weightSeries.add(from, end, w);
    double lo = Math.max(from, warmUp);
    if (end > lo) {
      totalWeightTime += w * (end - lo);
    }
  }

  public double weightedFreshness() {
    return totalWeightTime > 0 ? freshWeightTime / totalWeightTime : Double.NaN;
  }

  public double bucketWidth() {
    return freshSeries.width();
  }

  /** Weighted freshness per bucket. */
  public double[] series() {
    double[] f = freshSeries.totals();
    double[] w = weightSeries.totals();
    double[] out = new double[f.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = w[i] > 0 ? f[i] / w[i] : Double.NaN;
    }
    return out;
  }
}
