package io.recrawl.optimum;

/**
 * Where a decreasing demand meets its limit: the threshold {@code theta} (demand at or below the
 * limit) and, when the search ends on a narrow bracket rather than on the limit itself, the
 * bracket's other end {@code lowTheta} and the fraction of the way towards its rates that fills the
 * limit exactly. Each mixed rate has a crawl value between the two ends, so stationarity holds to
 * the bracket's width.
 *
 * <p>The bracket is needed because demand is rough at small scales: a freshness page's rate falls
 * to 0 only like delta / ln(1 / (1 - theta delta / w)) as theta nears its ceiling w / delta, so it
 * drops from about delta / 20 to 0 within 1e-8 of the ceiling (and from delta / 37 within an ulp).
 * A million pages put many such drops near any threshold.
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
