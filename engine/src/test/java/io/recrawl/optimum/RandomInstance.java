package io.recrawl.optimum;

import java.util.Random;

/**
 * A random problem for property tests: log-normal change rates, heavy-tailed weights, some hosts
 * constrained.
 */
final class RandomInstance {

  final double[] weight;
  final double[] changeRate;
  final int[] hostIndex;
  final double[] hostLimit;
  final double budget;

  private RandomInstance(
      double[] weight, double[] changeRate, int[] hostIndex, double[] hostLimit, double budget) {
    this.weight = weight;
    this.changeRate = changeRate;
    this.hostIndex = hostIndex;
    this.hostLimit = hostLimit;
    this.budget = budget;
  }

  static RandomInstance generate(long seed, int hosts, int maxPagesPerHost) {
    Random rnd = new Random(seed);
    int[] size = new int[hosts];
    int n = 0;
    for (int i = 0; i < hosts; i++) {
      size[i] = 1 + rnd.nextInt(maxPagesPerHost);
      n += size[i];
    }
    double[] w = new double[n];
    double[] delta = new double[n];
    int[] host = new int[n];
    double[] limit = new double[hosts];
    int j = 0;
    for (int i = 0; i < hosts; i++) {
      // About a third of the hosts get a limit well below a fair share of the budget.
      limit[i] =
          rnd.nextDouble() < 0.35
              ? 0.02 * size[i] + 0.05 * rnd.nextDouble() + 0.01
              : Double.POSITIVE_INFINITY;
      for (int k = 0; k < size[i]; k++, j++) {
        host[j] = i;
        delta[j] = Math.min(20, 0.2 * Math.exp(1.5 * rnd.nextGaussian()));
        w[j] = Math.pow(1 - rnd.nextDouble(), -1 / 1.5); // Pareto(1.5), >= 1
      }
    }
    // Shuffle so that pages are not grouped by host in the input.
    for (int a = n - 1; a > 0; a--) {
      int b = rnd.nextInt(a + 1);
      swap(w, a, b);
      swap(delta, a, b);
      int t = host[a];
      host[a] = host[b];
      host[b] = t;
    }
    double budget = (0.05 + 0.3 * rnd.nextDouble()) * n;
    return new RandomInstance(w, delta, host, limit, budget);
  }

  OptimumProblem.Builder problem() {
    return OptimumProblem.builder(weight, changeRate, hostIndex, hostLimit).budget(budget);
  }

  int pages() {
    return weight.length;
  }

  private static void swap(double[] x, int a, int b) {
    double t = x[a];
    x[a] = x[b];
    x[b] = t;
  }
}
