package io.recrawl.value;

/**
 * The blog's objective and the default: time-averaged freshness, w (1 - e^(-delta/rho)) rho /
 * delta.
 */
public final class Freshness implements Objective {

  public static final String NAME = "freshness";
  public static final Freshness INSTANCE = new Freshness();

  private Freshness() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public double crawlValue(double weight, double changeRate, double tau) {
    return CrawlValue.value(weight, changeRate, tau);
  }

  @Override
  public double valueCeiling(double weight, double changeRate) {
    return CrawlValue.ceiling(weight, changeRate);
  }

  @Override
  public double timeToThreshold(double weight, double changeRate, double threshold) {
    return CrawlValue.timeToThreshold(weight, changeRate, threshold);
  }

  @Override
  public boolean averagesOverPosterior() {
    return true;
  }

  @Override
  public double expectedCrawlValue(double weight, double shape, double rate, double tau) {
    return ExpectedCrawlValue.value(weight, shape, rate, tau);
  }

  @Override
  public double expectedValueCeiling(double weight, double shape, double rate) {
    return ExpectedCrawlValue.ceiling(weight, shape, rate);
  }

  @Override
  public double expectedTimeToThreshold(
      double weight, double shape, double rate, double threshold) {
    double atMean = CrawlValue.timeToThreshold(weight, shape / rate, threshold);
    return ExpectedCrawlValue.timeToThreshold(weight, shape, rate, threshold, atMean);
  }

  @Override
  public double utility(double weight, double changeRate, double rate) {
    if (rate <= 0) {
      return changeRate <= 0 ? weight : 0.0;
    }
    return weight * CrawlValue.freshness(changeRate, 1.0 / rate);
  }
}
