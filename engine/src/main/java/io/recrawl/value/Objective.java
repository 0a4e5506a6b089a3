package io.recrawl.value;

/**
 * A per-page utility of the crawl rate. Its crawl value is the derivative of the utility with
 * respect to the rate, taken at rate 1/tau; the same threshold machinery schedules every objective.
 */
public interface Objective {

  /** The name used in configuration ({@code recrawl.objective}). */
  String name();

  /** The crawl value of a page last crawled {@code tau} ago. */
  double crawlValue(double weight, double changeRate, double tau);

  /**
   * The supremum of the crawl value over tau; +infinity for objectives that never starve a page.
   */
  double valueCeiling(double weight, double changeRate);

  /** The tau at which the crawl value reaches {@code threshold}; +infinity means never. */
  double timeToThreshold(double weight, double changeRate, double threshold);

  /** The page's optimal crawl rate at price {@code threshold}: 1 / timeToThreshold. */
  default double optimalRate(double weight, double changeRate, double threshold) {
    double tau = timeToThreshold(weight, changeRate, threshold);
    return tau == Double.POSITIVE_INFINITY ? 0.0 : 1.0 / tau;
  }

  /**
   * The weight that scales this objective's rates: every objective here has optimalRate(w, δ, θ) =
   * δ · optimalRate(1, 1, θ δ / effectiveWeight(w, δ)), which lets a host's demand curve be read
   * from one shared table instead of solving for every page at every grid threshold.
   */
  default double effectiveWeight(double weight, double changeRate) {
    return weight;
  }

  /**
   * The crawl value averaged over a Gamma(shape, rate) posterior of the change rate. An objective
   * without a closed form for it uses the value at the posterior mean.
   */
  default double expectedCrawlValue(double weight, double shape, double rate, double tau) {
    return crawlValue(weight, shape / rate, tau);
  }

  /**
   * Whether {@link #expectedCrawlValue} is truly averaged over the posterior (a closed form); false
   * when it is the value at the posterior mean.
   */
  default boolean averagesOverPosterior() {
    return false;
  }

  /** The supremum over tau of {@link #expectedCrawlValue}. */
  default double expectedValueCeiling(double weight, double shape, double rate) {
    return valueCeiling(weight, shape / rate);
  }

  /**
   * The tau at which {@link #expectedCrawlValue} reaches {@code threshold}; +infinity means never.
   */
  default double expectedTimeToThreshold(
      double weight, double shape, double rate, double threshold) {
    return timeToThreshold(weight, shape / rate, threshold);
  }

  /** Utility per unit time of crawling the page at {@code rate}, at perfectly regular intervals. */
  double utility(double weight, double changeRate, double rate);

  /** Looks an objective up by its configuration name. */
  static Objective byName(String name) {
    switch (name) {
      case Freshness.NAME:
        return Freshness.INSTANCE;
      case HarmonicStaleness.NAME:
        return HarmonicStaleness.INSTANCE;
      case ChangesCaught.NAME:
        return ChangesCaught.INSTANCE;
      default:
        throw new IllegalArgumentException(
            "unknown objective '"
                + name
                + "'; expected one of: freshness, harmonic-staleness, changes-caught");
    }
  }
}
