package io.recrawl.sim;

import io.recrawl.sim.workload.Workload;
import io.recrawl.sim.workload.WorkloadGenerator;
import java.util.Arrays;

/** Small hand-made workloads for simulator tests. */
final class SimTestWorkloads {

  private SimTestWorkloads() {}

  /** n pages of weight 1 and the same change rate, spread over {@code hosts} unlimited hosts. */
  static Workload uniform(int n, int hosts, double changeRate) {
    String[] urls = new String[n];
    int[] hostOf = new int[n];
    double[] w = new double[n];
    double[] d = new double[n];
    for (int p = 0; p < n; p++) {
      urls[p] = "https://h" + (p % hosts) + ".example/" + p;
      hostOf[p] = p % hosts;
      w[p] = 1;
      d[p] = changeRate;
    }
    String[] names = new String[hosts];
    double[] limits = new double[hosts];
    for (int h = 0; h < hosts; h++) {
      names[h] = "h" + h + ".example";
    }
    Arrays.fill(limits, Double.POSITIVE_INFINITY);
    return new Workload(urls, hostOf, w, d, names, limits);
  }

  /** A generated workload (the generator's defaults otherwise). */
  static Workload generated(int pages, int hosts, long seed) {
    WorkloadGenerator.Options o = new WorkloadGenerator.Options();
    o.pages = pages;
    o.hosts = hosts;
    o.seed = seed;
    return WorkloadGenerator.generate(o);
  }

  static Simulator.Config config(Workload w, double budget, double days, double warmUp) {
    Simulator.Config c = new Simulator.Config();
    c.workload = w;
    c.budget = budget;
    c.days = days;
    c.warmUp = warmUp;
    c.oracleRates = true;
    c.progress = null;
    return c;
  }
}
