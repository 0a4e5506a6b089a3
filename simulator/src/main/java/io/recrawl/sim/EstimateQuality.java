package io.recrawl.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Bias and error of change-rate estimates against the true rates: relative (est/true - 1) and in
 * log space (ln(est/true)), over the pages with evidence.
 */
final class EstimateQuality {

  private long n;
  private double rel;
  private double rel2;
  private double log;
  private double log2;

  void add(double estimate, double truth) {
    if (!(estimate > 0) || !(truth > 0) || Double.isInfinite(estimate)) {
      return;
    }
    double r = estimate / truth - 1;
    double l = Math.log(estimate / truth);
    n++;
    rel += r;
    rel2 += r * r;
    log += l;
    log2 += l * l;
  }

  long count() {
    return n;
  }

  Map<String, Object> summary() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pages", n);
    m.put("rel_bias", rel / n);
    m.put("rel_rmse", Math.sqrt(rel2 / n));
    m.put("log_bias", log / n);
    m.put("log_rmse", Math.sqrt(log2 / n));
    return m;
  }
}
