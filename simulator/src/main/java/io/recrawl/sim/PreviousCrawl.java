package io.recrawl.sim;

import io.recrawl.sim.policy.RateAllocator;
import io.recrawl.sim.workload.Workload;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/**
 * The crawl a run takes over ({@code --start crawled}): the crawler before it visited every page
 * equally often within the budget and the host limits (the {@code uniform} policy's rates, what a
 * StormCrawler crawl with one fetch interval settles to), so each page's last fetch lies uniformly
 * within one such interval before day 0, and its next fetch date one interval after that. What a
 * policy learns of it is what {@code bin/recrawl import} carries over: the last fetch time, the
 * next fetch date, and the copy to compare the next fetch with.
 *
 * @param lastFetch each page's last fetch before day 0, days (negative); NaN for a page that did
 *     not exist
 * @param nextFetch each page's next fetch date in that crawl, days; NaN likewise
 */
record PreviousCrawl(double[] lastFetch, double[] nextFetch) {

  static PreviousCrawl of(
      Workload w, double[] hostLimit, double budget, IntPredicate existsAtStart, long seed) {
    double[] shape = new double[w.pages()];
    for (int p = 0; p < shape.length; p++) {
      shape[p] = existsAtStart.test(p) ? 1 : 0;
    }
    double[] rate = RateAllocator.allocate(shape, w.hostIndex(), hostLimit, budget);
    SplittableRandom random = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
    double[] last = new double[w.pages()];
    double[] next = new double[w.pages()];
    Arrays.fill(last, Double.NaN);
    Arrays.fill(next, Double.NaN);
    for (int p = 0; p < last.length; p++) {
      if (shape[p] > 0 && rate[p] > 0) {
        last[p] = -random.nextDouble() / rate[p];
        next[p] = last[p] + 1 / rate[p];
      }
    }
    return new PreviousCrawl(last, next);
  }
}
