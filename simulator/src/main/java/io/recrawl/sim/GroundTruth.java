package io.recrawl.sim;

import io.recrawl.sim.workload.ChangeHistory;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The real web: each page changes as a Poisson process at its true rate, or, replaying a real
 * history, exactly at its observed change times. Only the first change after each fetch matters
 * (the copy is stale from then on): a Poisson process is memoryless, so it is drawn at fetch time,
 * and a history is looked up then; exact, with no change events. Freshness is accounted exactly per
 * fetch interval.
 */
public final class GroundTruth {

  /** What a fetch found. */
  public enum Outcome {
    FIRST,
    UNCHANGED,
    CHANGED
  }

  private final double[] weight;
  private final double[] rate;
  private final double[] lastFetch;
  private final double[] nextChange;
  private final double[] visibleFrom;
  private final SplittableRandom random;
  private final FreshnessMeter meter;
  private final ChangeHistory history;

  public GroundTruth(double[] weight, double[] rate, FreshnessMeter meter, long seed) {
    this(weight, rate, meter, seed, null);
  }

  /**
   * @param history the pages' observed change times, replayed for every page that has them ({@code
   *     simulate --changes trace}); null: every page is Poisson at its rate
   */
  public GroundTruth(
      double[] weight, double[] rate, FreshnessMeter meter, long seed, ChangeHistory history) {
    this.history = history;
    this.weight = weight;
    this.rate = rate.clone();
    this.lastFetch = new double[rate.length];
    this.nextChange = new double[rate.length];
    this.visibleFrom = new double[rate.length];
    Arrays.fill(lastFetch, Double.NaN);
    this.random = new SplittableRandom(seed);
    this.meter = meter;
  }

  public int pages() {
    return rate.length;
  }

  public double rate(int page) {
    return rate[page];
  }

  public double weight(int page) {
    return weight[page];
  }

  public double visibleFrom(int page) {
    return visibleFrom[page];
  }

  /**
   * Marks a page as not existing before {@code t} (it neither counts nor can be crawled before).
   */
  public void hideUntil(int page, double t) {
    visibleFrom[page] = t;
  }

  /** Whether the page was fetched yet. */
  public boolean fetched(int page) {
    return !Double.isNaN(lastFetch[page]);
  }

  /** The page's first change after its last fetch (drawn at that fetch). */
  public double firstChangeAfterFetch(int page) {
    return nextChange[page];
  }

  /** Fetches the page at {@code t}: closes its fresh interval and draws the next first change. */
  public Outcome fetch(int page, double t) {
    double last = lastFetch[page];
    Outcome outcome;
    if (Double.isNaN(last)) {
      outcome = Outcome.FIRST;
    } else {
      double change = nextChange[page];
      meter.fresh(page, weight[page], last, Math.min(change, t));
      outcome = change <= t ? Outcome.CHANGED : Outcome.UNCHANGED;
    }
    lastFetch[page] = t;
    nextChange[page] = traced(page) ? history.nextAfter(page, t) : t + exponential(rate[page]);
    return outcome;
  }

  private boolean traced(int page) {
    return history != null && history.has(page);
  }

  /**
   * The page's true rate becomes {@code newRate} at {@code t}; exact by memorylessness. A page
   * replaying its history keeps its change times.
   */
  public void setRate(int page, double newRate, double t) {
    rate[page] = newRate;
    if (!traced(page) && !Double.isNaN(lastFetch[page]) && nextChange[page] > t) {
      nextChange[page] = t + exponential(newRate);
    }
  }

  /** Closes every open fresh interval at the end of the run. */
  public void finish(double end) {
    for (int p = 0; p < rate.length; p++) {
      if (!Double.isNaN(lastFetch[p])) {
        meter.fresh(p, weight[p], lastFetch[p], Math.min(nextChange[p], end));
      }
    }
  }

  private double exponential(double r) {
    if (!(r > 0)) {
      return Double.POSITIVE_INFINITY;
    }
    return -Math.log(1 - random.nextDouble()) / r;
  }
}
