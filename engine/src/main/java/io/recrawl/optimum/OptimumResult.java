package io.recrawl.optimum;

/**
 * The exact static optimum: every page's rate, the global lambda, every host lambda, and how good
 * it is.
 */
public final class OptimumResult {

  /** Whether the problem had a solution. */
  public enum Status {
    OPTIMAL,
    /** The floors alone exceed a host's max rate or the global budget; rates are the floors. */
    INFEASIBLE
  }

  private final Status status;
  private final String infeasibility;
  private final double[] rates;
  private final double globalLambda;
  private final double[] hostLambda;
  private final double[] hostDemand;
  private final double objectiveValue;
  private final double weightedFreshness;
  private final KktResidual kkt;

  OptimumResult(
      Status status,
      String infeasibility,
      double[] rates,
      double globalLambda,
      double[] hostLambda,
      double[] hostDemand,
      double objectiveValue,
      double weightedFreshness,
      KktResidual kkt) {
    this.status = status;
    this.infeasibility = infeasibility;
    this.rates = rates;
    this.globalLambda = globalLambda;
    this.hostLambda = hostLambda;
    this.hostDemand = hostDemand;
    this.objectiveValue = objectiveValue;
    this.weightedFreshness = weightedFreshness;
    this.kkt = kkt;
  }

  public Status status() {
    return status;
  }

  /** Why the problem is infeasible, or null when it is not. */
  public String infeasibility() {
    return infeasibility;
  }

  /**
   * Every page's optimal crawl rate, per day, in the problem's page order (shared, do not modify).
   */
  public double[] rates() {
    return rates;
  }

  public double rate(int page) {
    return rates[page];
  }

  /** lambda_0, the price of the global budget (0 when the budget is not binding). */
  public double globalLambda() {
    return globalLambda;
  }

  /** lambda_i, the price of host i's max rate (0 when the host is not constrained). */
  public double hostLambda(int host) {
    return hostLambda[host];
  }

  /** Host i's threshold theta_i = lambda_i + lambda_0: its pages are crawled when V reaches it. */
  public double hostThreshold(int host) {
    return hostLambda[host] + globalLambda;
  }

  /** Host i's total crawl rate at the optimum, per day. */
  public double hostDemand(int host) {
    return hostDemand[host];
  }

  public int hosts() {
    return hostLambda.length;
  }

  /** The number of hosts whose limit binds (lambda_i > 0). */
  public int constrainedHosts() {
    int n = 0;
    for (double l : hostLambda) {
      if (l > 0) {
        n++;
      }
    }
    return n;
  }

  /** The total crawl rate, per day. */
  public double totalRate() {
    double sum = 0;
    for (double d : hostDemand) {
      sum += d;
    }
    return sum;
  }

  /** The objective's value: the sum over pages of its utility at their rates. */
  public double objectiveValue() {
    return objectiveValue;
  }

  /** Sum of w F(1/rho) over sum of w, with F the time-averaged freshness of periodic crawling. */
  public double weightedFreshness() {
    return weightedFreshness;
  }

  /** The KKT residual: the largest relative violation of any optimality condition. */
  public double kktResidual() {
    return kkt.max();
  }

  /** The KKT residual broken down by condition. */
  public KktResidual kkt() {
    return kkt;
  }
}
