package io.recrawl.sim.policy;

import io.recrawl.sim.SimContext;
import io.recrawl.sim.SimPolicy;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * Greedy: at each batch (every hour by default) hand the crawler the pages with the highest w (1 -
 * e^(-delta tau)) right now, the probability-weighted value of a page being stale, as many as the
 * budget and each host's limit allow in the batch.
 */
public final class GreedyPolicy implements SimPolicy {

  public static final String NAME = "greedy";

  private final double batch;
  private SimContext ctx;
  private double[] lastFetch;
  private double[] hostTokens;
  private double globalTokens;
  private double nextBatch;

  public GreedyPolicy() {
    this(1.0 / 24);
  }

  public GreedyPolicy(double batchDays) {
    this.batch = batchDays;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void start(SimContext ctx) {
    this.ctx = ctx;
    lastFetch = new double[ctx.workload().pages()];
    for (int p = 0; p < lastFetch.length; p++) {
      lastFetch[p] = ctx.previousFetch(p);
    }
    hostTokens = new double[ctx.workload().hosts()];
    nextBatch = 0;
  }

  @Override
  public double nextWakeTime() {
    return nextBatch;
  }

  @Override
  public void wake(double now) {
    nextBatch = now + batch;
    int hosts = hostTokens.length;
    for (int h = 0; h < hosts; h++) {
      double k = ctx.hostMaxRate(h);
      double cap = Math.max(1, k * batch);
      hostTokens[h] = Math.min(cap, hostTokens[h] + k * batch);
    }
    double perBatch = ctx.budget() * batch;
    globalTokens = Math.min(perBatch + 1, globalTokens + perBatch);
    int n = lastFetch.length;
    double[] priority = new double[n];
    int candidates = 0;
    for (int p = 0; p < n; p++) {
      if (!ctx.exists(p) || ctx.queued(p)) {
        continue;
      }
      double w = ctx.workload().weight(p);
      double v =
          Double.isNaN(lastFetch[p])
              ? w
              : -w * Math.expm1(-ctx.changeRate(p) * (now - lastFetch[p]));
      if (v > 0) {
        priority[p] = v;
        candidates++;
      }
    }
    int want = (int) Math.min(candidates, 2 * Math.floor(globalTokens) + 64);
    while (globalTokens >= 1 && want > 0) {
      double threshold = kthLargest(priority, want);
      List<Integer> top = new ArrayList<>();
      for (int p = 0; p < n; p++) {
        if (priority[p] > 0 && priority[p] >= threshold) {
          top.add(p);
        }
      }
      top.sort((a, b) -> Double.compare(priority[b], priority[a]));
      for (int p : top) {
        if (globalTokens < 1) {
          break;
        }
        int h = ctx.workload().hostOf(p);
        if (hostTokens[h] >= 1 && ctx.release(p)) {
          hostTokens[h] -= 1;
          globalTokens -= 1;
        }
        priority[p] = 0; // considered
      }
      if (want >= candidates) {
        break;
      }
      want = Math.min(candidates, want * 2);
    }
  }

  /** The k-th largest positive value (k >= 1), by selection on a copy. */
  private static double kthLargest(double[] values, int k) {
    int m = 0;
    double[] a = new double[values.length];
    for (double v : values) {
      if (v > 0) {
        a[m++] = v;
      }
    }
    if (m == 0) {
      return Double.POSITIVE_INFINITY;
    }
    k = Math.min(k, m);
    int target = m - k; // index in ascending order
    int lo = 0;
    int hi = m - 1;
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(m);
    while (lo < hi) {
      double pivot = a[lo + rnd.nextInt(hi - lo + 1)];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        if (i <= j) {
          double t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      if (target <= j) {
        hi = j;
      } else if (target >= i) {
        lo = i;
      } else {
        break;
      }
    }
    return a[target];
  }

  @Override
  public void onStatus(int page, StatusEvent event, double now) {
    lastFetch[page] = now;
  }
}
