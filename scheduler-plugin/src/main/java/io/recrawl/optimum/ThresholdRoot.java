package io.recrawl.optimum;

/**
 * Where a decreasing demand meets its limit: the threshold {@code theta} (demand at or below the
 * limit) and, when the crossing falls between two adjacent doubles, the threshold just below it
 * and the fraction of the way towards its rates that fills the limit exactly.
 *
 * <p>Such a jump is real: a freshness page's rate falls to 0 only like delta / ln(1 / (1 - theta
 * delta / w)) as theta nears its ceiling w / delta, so in doubles it drops from about delta / 37 to
 * 0 within an ulp of theta. At that threshold every rate in between has V = theta to double
 * precision, so mixing the two sides keeps stationarity and meets the limit.
 */
final class ThresholdRoot {

  final double theta;
  final double lowTheta;
  /** In [0, 1): rate = r(theta) + fraction (r(lowTheta) - r(theta)); 0 means r(theta) alone. */
  final double fraction;

  ThresholdRoot(double theta, double lowTheta, double fraction) {
    this.theta = theta;
    this.lowTheta = lowTheta;
    this.fraction = fraction;
  }

  static ThresholdRoot exact(double theta) {
    return new ThresholdRoot(theta, theta, 0.0);
  }

  ThresholdRoot withFraction(double f) {
    return new ThresholdRoot(theta, lowTheta, f);
  }
}
