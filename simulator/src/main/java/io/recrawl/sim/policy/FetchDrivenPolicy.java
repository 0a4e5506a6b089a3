package io.recrawl.sim.policy;

import io.recrawl.sim.DueHeap;
import io.recrawl.sim.SimContext;
import io.recrawl.sim.SimPolicy;
import io.recrawl.wire.StatusEvent;
import java.util.Arrays;

/**
 * The shape of StormCrawler's and Nutch's schedulers: a discovered page is due now, and each fetch
 * result sets the page's next fetch date. Subclasses give the next date.
 */
public abstract class FetchDrivenPolicy implements SimPolicy {

  protected SimContext ctx;
  private double[] nextDue;
  private DueHeap due;

  /**
   * The next fetch time of {@code page} after a fetch at {@code now} with the given change verdict.
   */
  protected abstract double nextFetch(int page, Boolean changed, double now);

  /** Called once the workload is known. */
  protected void init(int pages) {}

  @Override
  public void start(SimContext ctx) {
    this.ctx = ctx;
    int n = ctx.workload().pages();
    nextDue = new double[n];
    Arrays.fill(nextDue, Double.POSITIVE_INFINITY);
    due = new DueHeap(n);
    init(n);
    for (int p = 0; p < n; p++) {
      double previous = ctx.previousFetch(p);
      if (!Double.isNaN(previous)) {
        // A crawl taken over: the next date its last fetch set, now if that has passed.
        nextDue[p] = Math.max(0, nextFetch(p, null, previous));
        due.push(nextDue[p], p);
      } else if (ctx.exists(p)) {
        discover(p, 0);
      }
    }
  }

  /**
   * DISCOVERED: due now (StormCrawler's DefaultScheduler gives a discovered URL the current date).
   */
  private void discover(int page, double now) {
    nextDue[page] = now;
    due.push(now, page);
  }

  /** The default fetch interval, days: one fixed interval sized so every page fits the budget. */
  protected double budgetInterval() {
    int existing = 0;
    for (int p = 0; p < ctx.workload().pages(); p++) {
      if (ctx.exists(p)) {
        existing++;
      }
    }
    return existing / ctx.budget();
  }

  @Override
  public double nextWakeTime() {
    return due.peekTime();
  }

  @Override
  public void wake(double now) {
    while (due.peekTime() <= now) {
      double t = due.peekTime();
      int p = due.pop();
      if (t != nextDue[p]) {
        continue;
      }
      nextDue[p] = Double.POSITIVE_INFINITY; // in flight until its status comes back
      ctx.release(p);
    }
  }

  @Override
  public void onStatus(int page, StatusEvent event, double now) {
    double next = nextFetch(page, event.changed(), now);
    nextDue[page] = next;
    due.push(next, page);
  }

  @Override
  public void onPagesAppeared(int[] pages, double now) {
    for (int p : pages) {
      discover(p, now);
    }
  }
}
