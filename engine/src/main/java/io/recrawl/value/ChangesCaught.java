package io.recrawl.value;

/**
 * Azar et al. (PNAS 2018): the weighted rate of changes caught, w rho (1 - e^(-delta/rho)). It is
 * freshness with weight w delta, so it favours fast-changing pages more than freshness does.
 */
public final class ChangesCaught implements Objective {

  public static final String NAME = "changes-caught";
  public static final ChangesCaught INSTANCE = new ChangesCaught();

  private ChangesCaught() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public double crawlValue(double weight, double changeRate, double tau) {
    return CrawlValue.value(weight * changeRate, changeRate, tau);
  }

  @Override
  public double valueCeiling(double weight, double changeRate) {
    return changeRate <= 0 ? 0.0 : weight;
  }

  @Override
  public double timeToThreshold(double weight, double changeRate, double threshold) {
    return CrawlValue.timeToThreshold(weight * changeRate, changeRate, threshold);
  }

  @Override
  public double effectiveWeight(double weight, double changeRate) {
    return weight * changeRate;
  }

  @Override
  public double utility(double weight, double changeRate, double rate) {
    return changeRate * Freshness.INSTANCE.utility(weight, changeRate, rate);
  }
}
