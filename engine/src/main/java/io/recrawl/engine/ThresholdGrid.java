package io.recrawl.engine;

/**
 * The fixed, log-spaced grid of thresholds on which demand curves are kept. Every host's curve uses
 * the same grid, so curves add up: the global controller sums them to find the global lambda.
 */
public final class ThresholdGrid {

  private final double[] thresholds;
  private final double logMin;
  private final double logStep;

  public ThresholdGrid(double min, double max, int pointsPerDecade) {
    if (!(min > 0) || !(max > min) || pointsPerDecade < 1) {
      throw new IllegalArgumentException("need 0 < min < max and points-per-decade >= 1");
    }
    int n = (int) Math.ceil(Math.log10(max / min) * pointsPerDecade) + 1;
    thresholds = new double[n];
    logMin = Math.log(min);
    logStep = Math.log(10) / pointsPerDecade;
    for (int i = 0; i < n; i++) {
      thresholds[i] = Math.exp(logMin + i * logStep);
    }
  }

  public int size() {
    return thresholds.length;
  }

  public double threshold(int i) {
    return thresholds[i];
  }

  public double min() {
    return thresholds[0];
  }

  public double max() {
    return thresholds[thresholds.length - 1];
  }

  /**
   * Reads a decreasing demand curve at an arbitrary threshold, interpolating linearly in
   * log-threshold and log-demand (demand curves are close to power laws between grid points).
   */
  public double demandAt(double[] curve, double threshold) {
    if (threshold <= thresholds[0]) {
      return curve[0];
    }
    double pos = (Math.log(threshold) - logMin) / logStep;
    int i = (int) Math.floor(pos);
    if (i >= thresholds.length - 1) {
      return curve[thresholds.length - 1];
    }
    return interpolate(curve[i], curve[i + 1], pos - i);
  }

  /**
   * The threshold at which a decreasing demand curve falls to {@code capacity}: 0 when demand never
   * exceeds it on the grid, the grid's maximum when it always does.
   */
  public double thresholdFor(double[] curve, double capacity) {
    int n = thresholds.length;
    if (curve[0] <= capacity) {
      return 0.0;
    }
    if (curve[n - 1] > capacity) {
      return thresholds[n - 1];
    }
    int lo = 0;
    int hi = n - 1; // curve[lo] > capacity >= curve[hi]
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      if (curve[mid] > capacity) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double a = curve[lo];
    double b = curve[hi];
    double frac = Math.log(a / capacity) / Math.log(a / floorZero(a, b));
    return Math.exp(logMin + (lo + frac) * logStep);
  }

  private static double interpolate(double a, double b, double frac) {
    if (a > 0) {
      return a * Math.pow(floorZero(a, b) / a, frac);
    }
    return 0;
  }

  /**
   * Demand that vanishes inside a cell (every page's value ceiling lies below the upper grid point)
   * is read as falling to a thousandth there, so a root lands early in the cell, below the
   * ceilings: overshooting them would price every page of a host out and leave it idle.
   */
  private static double floorZero(double a, double b) {
    return b > 0 ? b : a * 1e-3;
  }
}
