package io.recrawl.optimum;

import io.recrawl.value.Freshness;
import io.recrawl.value.Objective;
import java.util.Arrays;
import java.util.Objects;

/**
 * The static crawl-rate problem: pages (weight, change rate per day, host), every host's max rate
 * k_i, the global budget k_0 (crawls per day), an objective and optional per-page revisit bounds.
 *
 * <p>Pages are primitive arrays so that a million-page workload costs a few dozen megabytes. The
 * arrays are not copied; do not change them while a solve is running.
 */
public final class OptimumProblem {

  final double[] weight;
  final double[] changeRate;
  final int[] hostIndex;
  final double[] hostLimit;
  final double budget;
  final Objective objective;

  /** Per-page minimum rate (the floor, 1 / max revisit interval); null means 0 for every page. */
  final double[] minRate;

  /** Per-page maximum rate (1 / min revisit interval); null means unbounded for every page. */
  final double[] maxRate;

  private OptimumProblem(Builder b) {
    this.weight = b.weight;
    this.changeRate = b.changeRate;
    this.hostIndex = b.hostIndex;
    this.hostLimit = b.hostLimit;
    this.budget = b.budget;
    this.objective = b.objective;
    this.minRate = b.minRate;
    this.maxRate = b.maxRate;
  }

  /**
   * Starts a problem. {@code hostLimit[i]} is host i's max rate in crawls per day ({@code
   * Double.POSITIVE_INFINITY} when the host is unconstrained); {@code hostIndex[j]} is page j's
   * host, in {@code [0, hostLimit.length)}.
   */
  public static Builder builder(
      double[] weight, double[] changeRate, int[] hostIndex, double[] hostLimit) {
    return new Builder(weight, changeRate, hostIndex, hostLimit);
  }

  public int pages() {
    return weight.length;
  }

  public int hosts() {
    return hostLimit.length;
  }

  public double budget() {
    return budget;
  }

  public Objective objective() {
    return objective;
  }

  public double weight(int page) {
    return weight[page];
  }

  public double changeRate(int page) {
    return changeRate[page];
  }

  public int host(int page) {
    return hostIndex[page];
  }

  public double hostLimit(int host) {
    return hostLimit[host];
  }

  public double minRate(int page) {
    return minRate == null ? 0.0 : minRate[page];
  }

  public double maxRate(int page) {
    return maxRate == null ? Double.POSITIVE_INFINITY : maxRate[page];
  }

  /** Builds and validates an {@link OptimumProblem}. */
  public static final class Builder {
    private final double[] weight;
    private final double[] changeRate;
    private final int[] hostIndex;
    private final double[] hostLimit;
    private double budget = Double.POSITIVE_INFINITY;
    private Objective objective = Freshness.INSTANCE;
    private double[] minRate;
    private double[] maxRate;

    private Builder(double[] weight, double[] changeRate, int[] hostIndex, double[] hostLimit) {
      this.weight = Objects.requireNonNull(weight, "weight");
      this.changeRate = Objects.requireNonNull(changeRate, "changeRate");
      this.hostIndex = Objects.requireNonNull(hostIndex, "hostIndex");
      this.hostLimit = Objects.requireNonNull(hostLimit, "hostLimit");
    }

    /** The global budget k_0 in crawls per day; +infinity (the default) needs every host finite. */
    public Builder budget(double crawlsPerDay) {
      this.budget = crawlsPerDay;
      return this;
    }

    public Builder objective(Objective objective) {
      this.objective = Objects.requireNonNull(objective, "objective");
      return this;
    }

    /** Per-page minimum rates (floors), in crawls per day; null removes them. */
    public Builder minRates(double[] minRates) {
      this.minRate = minRates;
      return this;
    }

    /** Per-page maximum rates, in crawls per day; null removes them. */
    public Builder maxRates(double[] maxRates) {
      this.maxRate = maxRates;
      return this;
    }

    /**
     * The same revisit bounds for every page, in days: each page is crawled at least every {@code
     * maxInterval} and at most every {@code minInterval}. Use +infinity and 0 for "none".
     */
    public Builder revisitIntervals(double maxInterval, double minInterval) {
      if (!(maxInterval > 0) || !(minInterval >= 0) || minInterval > maxInterval) {
        throw new IllegalArgumentException(
            "need 0 <= minInterval <= maxInterval and maxInterval > 0, got min "
                + minInterval
                + ", max "
                + maxInterval);
      }
      if (Double.isInfinite(maxInterval)) {
        this.minRate = null;
      } else {
        this.minRate = new double[weight.length];
        Arrays.fill(this.minRate, 1.0 / maxInterval);
      }
      if (minInterval == 0) {
        this.maxRate = null;
      } else {
        this.maxRate = new double[weight.length];
        Arrays.fill(this.maxRate, 1.0 / minInterval);
      }
      return this;
    }

    public OptimumProblem build() {
      int n = weight.length;
      requireLength("changeRate", changeRate.length, n);
      requireLength("hostIndex", hostIndex.length, n);
      if (minRate != null) {
        requireLength("minRates", minRate.length, n);
      }
      if (maxRate != null) {
        requireLength("maxRates", maxRate.length, n);
      }
      if (!(budget > 0)) {
        throw new IllegalArgumentException(
            "the global budget must be > 0 crawls/day, got " + budget);
      }
      for (int i = 0; i < hostLimit.length; i++) {
        if (!(hostLimit[i] > 0)) {
          throw new IllegalArgumentException(
              "host " + i + ": max rate must be > 0 crawls/day, got " + hostLimit[i]);
        }
      }
      for (int j = 0; j < n; j++) {
        if (!(weight[j] >= 0) || Double.isInfinite(weight[j])) {
          throw new IllegalArgumentException(
              "page " + j + ": weight must be finite and >= 0, got " + weight[j]);
        }
        if (!(changeRate[j] >= 0) || Double.isInfinite(changeRate[j])) {
          throw new IllegalArgumentException(
              "page " + j + ": change rate must be finite and >= 0, got " + changeRate[j]);
        }
        if (hostIndex[j] < 0 || hostIndex[j] >= hostLimit.length) {
          throw new IllegalArgumentException(
              "page "
                  + j
                  + ": host index "
                  + hostIndex[j]
                  + " outside [0, "
                  + hostLimit.length
                  + ")");
        }
        double lo = minRate == null ? 0.0 : minRate[j];
        double hi = maxRate == null ? Double.POSITIVE_INFINITY : maxRate[j];
        if (!(lo >= 0) || Double.isInfinite(lo) || !(hi > 0) || lo > hi) {
          throw new IllegalArgumentException(
              "page "
                  + j
                  + ": need 0 <= min rate <= max rate, max rate > 0; got "
                  + lo
                  + ", "
                  + hi);
        }
      }
      return new OptimumProblem(this);
    }

    private static void requireLength(String name, int actual, int expected) {
      if (actual != expected) {
        throw new IllegalArgumentException(
            name + " has " + actual + " entries, weight has " + expected);
      }
    }
  }
}
