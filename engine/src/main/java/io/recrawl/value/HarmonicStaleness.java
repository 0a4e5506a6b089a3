package io.recrawl.value;

/**
 * Kolobov et al. (NeurIPS 2019): utility w log(rho / (rho + delta)), the negative of the harmonic
 * staleness cost. Its crawl value w delta tau^2 / (1 + delta tau) grows without bound, so no page
 * with a positive change rate is ever starved.
 */
public final class HarmonicStaleness implements Objective {

  public static final String NAME = "harmonic-staleness";
  public static final HarmonicStaleness INSTANCE = new HarmonicStaleness();

  private HarmonicStaleness() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public double crawlValue(double weight, double changeRate, double tau) {
    if (changeRate <= 0 || tau <= 0) {
      return 0.0;
    }
    if (Double.isInfinite(tau)) {
      return Double.POSITIVE_INFINITY;
    }
    double x = changeRate * tau;
    return weight * tau * x / (1 + x);
  }

  @Override
  public double valueCeiling(double weight, double changeRate) {
    return changeRate <= 0 ? 0.0 : Double.POSITIVE_INFINITY;
  }

  @Override
  public double timeToThreshold(double weight, double changeRate, double threshold) {
    if (changeRate <= 0 || weight <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    if (threshold <= 0) {
      return 0.0;
    }
    // w delta / (rho (rho + delta)) = theta, solved for rho without cancellation.
    double z = weight * changeRate / threshold;
    double rate = 2 * z / (changeRate + Math.sqrt(changeRate * changeRate + 4 * z));
    return 1.0 / rate;
  }

  @Override
  public double utility(double weight, double changeRate, double rate) {
    if (changeRate <= 0) {
      return 0.0;
    }
    if (rate <= 0) {
      return Double.NEGATIVE_INFINITY;
    }
    return -weight * Math.log1p(changeRate / rate);
  }
}
