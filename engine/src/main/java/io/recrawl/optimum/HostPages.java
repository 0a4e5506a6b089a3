package io.recrawl.optimum;

import io.recrawl.value.Objective;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * The pages of a problem regrouped host by host (a compressed sparse row layout), so that a host's
 * demand at a threshold is one pass over contiguous arrays.
 */
final class HostPages {

  final int hosts;

  /** Host i's pages are positions {@code start[i] .. start[i+1]-1}. */
  final int[] start;

  /** The problem's page index at each position. */
  final int[] page;

  final double[] weight;
  final double[] changeRate;
  final double[] minRate;
  final double[] maxRate;
  final Objective objective;
  private final boolean parallel;

  HostPages(OptimumProblem p, boolean parallel) {
    this.hosts = p.hosts();
    this.objective = p.objective;
    this.parallel = parallel;
    int n = p.pages();
    start = new int[hosts + 1];
    for (int j = 0; j < n; j++) {
      start[p.hostIndex[j] + 1]++;
    }
    for (int i = 0; i < hosts; i++) {
      start[i + 1] += start[i];
    }
    int[] next = start.clone();
    page = new int[n];
    weight = new double[n];
    changeRate = new double[n];
    minRate = new double[n];
    maxRate = new double[n];
    for (int j = 0; j < n; j++) {
      int pos = next[p.hostIndex[j]]++;
      page[pos] = j;
      weight[pos] = p.weight[j];
      changeRate[pos] = p.changeRate[j];
      minRate[pos] = p.minRate(j);
      maxRate[pos] = p.maxRate(j);
    }
  }

  int size(int host) {
    return start[host + 1] - start[host];
  }

  /** The rate of the page at {@code pos} at threshold {@code theta}, within its revisit bounds. */
  double rate(int pos, double theta) {
    double r = objective.optimalRate(weight[pos], changeRate[pos], theta);
    return Math.min(maxRate[pos], Math.max(minRate[pos], r));
  }

  /**
   * The rate of the page at {@code pos} at a root, mixing both sides of a jump (see {@link
   * ThresholdRoot}).
   */
  double rate(int pos, ThresholdRoot root) {
    double high = rate(pos, root.theta);
    if (root.fraction == 0) {
      return high;
    }
    return high + root.fraction * (rate(pos, root.lowTheta) - high);
  }

  /** D_i(theta): the host's total rate when all its pages are scheduled at threshold theta. */
  double demand(int host, double theta) {
    double sum = 0;
    for (int pos = start[host], end = start[host + 1]; pos < end; pos++) {
      sum += rate(pos, theta);
    }
    return sum;
  }

  /** D_i(theta), also storing each page's rate in {@code rates} (by position). */
  double demandInto(int host, double theta, double[] rates) {
    double sum = 0;
    for (int pos = start[host], end = start[host + 1]; pos < end; pos++) {
      rates[pos] = rate(pos, theta);
      sum += rates[pos];
    }
    return sum;
  }

  /**
   * min(limit, D_i(theta)), stopping as soon as the partial sum passes the limit: a host that is
   * over its limit contributes exactly its limit, whatever its full demand.
   */
  double demandUpTo(int host, double theta, double limit) {
    double sum = 0;
    for (int pos = start[host], end = start[host + 1]; pos < end; pos++) {
      sum += rate(pos, theta);
      if (sum > limit) {
        return limit;
      }
    }
    return sum;
  }

  /** The host's demand as the threshold goes to infinity: the sum of its floors. */
  double floorDemand(int host) {
    double sum = 0;
    for (int pos = start[host], end = start[host + 1]; pos < end; pos++) {
      sum += minRate[pos];
    }
    return sum;
  }

  /** Runs {@code action} for every host, on all cores when parallel. */
  void forEachHost(IntConsumer action) {
    IntStream range = IntStream.range(0, hosts);
    (parallel ? range.parallel() : range).forEach(action);
  }

  /** Runs {@code action} for the given hosts, on all cores when parallel. */
  void forEachHost(int[] selected, IntConsumer action) {
    IntStream s = IntStream.of(selected);
    (parallel ? s.parallel() : s).forEach(action);
  }
}
