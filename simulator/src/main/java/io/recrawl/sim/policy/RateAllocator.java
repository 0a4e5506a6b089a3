package io.recrawl.sim.policy;

/**
 * Scales a policy's relative rates (1 for uniform, the change rate for proportional, the weight for
 * importance) to the budget, held to the host limits: every host gets min(k_i, c x its demand), and
 * the common scale c is chosen so the total is the budget (water-filling over hosts).
 */
public final class RateAllocator {

  private RateAllocator() {}

  /**
   * @param shape relative rate of each page (0 = never crawled)
   * @return each page's rate, crawls per day
   */
  public static double[] allocate(double[] shape, int[] hostOf, double[] hostLimit, double budget) {
    int hosts = hostLimit.length;
    double[] demand = new double[hosts];
    for (int p = 0; p < shape.length; p++) {
      demand[hostOf[p]] += shape[p];
    }
    double lo = 0;
    double hi = 1;
    while (total(demand, hostLimit, hi) < budget && hi < 1e300) {
      if (saturated(demand, hostLimit, hi)) {
        break; // every host is at its limit: the budget cannot be used up
      }
      hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
      double mid = 0.5 * (lo + hi);
      if (total(demand, hostLimit, mid) <= budget) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double c = lo;
    double[] rates = new double[shape.length];
    for (int p = 0; p < shape.length; p++) {
      int h = hostOf[p];
      double scale = demand[h] > 0 ? Math.min(c, hostLimit[h] / demand[h]) : 0;
      rates[p] = shape[p] * scale;
    }
    return rates;
  }

  private static double total(double[] demand, double[] limit, double c) {
    double sum = 0;
    for (int h = 0; h < demand.length; h++) {
      sum += Math.min(limit[h], c * demand[h]);
    }
    return sum;
  }

  private static boolean saturated(double[] demand, double[] limit, double c) {
    for (int h = 0; h < demand.length; h++) {
      if (demand[h] > 0 && c * demand[h] < limit[h]) {
        return false;
      }
    }
    return true;
  }
}
