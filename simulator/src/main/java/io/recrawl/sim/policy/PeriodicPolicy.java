package io.recrawl.sim.policy;

import io.recrawl.sim.DueHeap;
import io.recrawl.sim.IndexedHeap;
import io.recrawl.sim.SimContext;
import io.recrawl.sim.SimPolicy;
import io.recrawl.wire.StatusEvent;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Executes per-page rates at perfectly regular intervals: page p is released at phase + k / rate,
 * with a random phase, on a fixed grid (a late fetch does not shift later ones). A limited host is
 * paced at its max rate, earliest deadline first. Subclasses say how the rates are planned and
 * whether they are re-planned every simulated day.
 */
public abstract class PeriodicPolicy implements SimPolicy {

  protected SimContext ctx;
  private double[] rate;
  private double[] nextDue;
  private double[] lastRelease;
  private DueHeap due;

  /** Per limited host: due pages waiting for a slot, keyed by their next grid time (deadline). */
  private DueHeap[] waiting;

  private double[] hostFree;
  private IndexedHeap hostSlots;
  private SplittableRandom random;
  private double lambda0 = Double.NaN;

  /** The rates to execute from {@code now} on, crawls per day (0 = never). */
  protected abstract double[] plan(double now);

  /** Whether {@link #plan} runs again at every day boundary and after every scenario change. */
  protected abstract boolean replans();

  protected void setLambda0(double lambda0) {
    this.lambda0 = lambda0;
  }

  @Override
  public double lambda0() {
    return lambda0;
  }

  /** Which pages exist now, for planners. */
  protected boolean[] existing() {
    boolean[] e = new boolean[ctx.workload().pages()];
    for (int p = 0; p < e.length; p++) {
      e[p] = ctx.exists(p);
    }
    return e;
  }

  /** The planning change rates (true or estimated) of every page. */
  protected double[] plannedChangeRates() {
    double[] d = new double[ctx.workload().pages()];
    for (int p = 0; p < d.length; p++) {
      d[p] = ctx.changeRate(p);
    }
    return d;
  }

  /** Every host's max rate now. */
  protected double[] hostLimits() {
    double[] k = new double[ctx.workload().hosts()];
    for (int h = 0; h < k.length; h++) {
      k[h] = ctx.hostMaxRate(h);
    }
    return k;
  }

  @Override
  public void start(SimContext ctx) {
    this.ctx = ctx;
    int n = ctx.workload().pages();
    random = new SplittableRandom(ctx.seed() * 31 + name().hashCode());
    rate = new double[n];
    nextDue = new double[n];
    lastRelease = new double[n];
    Arrays.fill(nextDue, Double.POSITIVE_INFINITY);
    Arrays.fill(lastRelease, Double.NaN);
    due = new DueHeap(n);
    int hosts = ctx.workload().hosts();
    waiting = new DueHeap[hosts];
    for (int h = 0; h < hosts; h++) {
      waiting[h] = new DueHeap(4);
    }
    hostFree = new double[hosts];
    hostSlots = new IndexedHeap(hosts);
    for (int p = 0; p < n; p++) {
      lastRelease[p] = ctx.previousFetch(p); // a crawl taken over: its grid starts there
    }
    apply(plan(0), 0);
  }

  /** Switches to new rates at {@code now}, keeping each page's grid where the period allows. */
  private void apply(double[] newRate, double now) {
    due.clear();
    double[] oldRate = rate.clone();
    for (int p = 0; p < newRate.length; p++) {
      double r = ctx.exists(p) ? newRate[p] : 0;
      rate[p] = r;
      if (!(r > 0)) {
        nextDue[p] = Double.POSITIVE_INFINITY;
        continue;
      }
      double period = 1.0 / r;
      double next;
      if (Double.isNaN(lastRelease[p])) {
        // Not yet released: keep its place in the phase, stretched to the new period, so that
        // daily re-plans do not keep pushing a long-period page's first fetch away.
        next =
            nextDue[p] < Double.POSITIVE_INFINITY && oldRate[p] > 0
                ? now + (nextDue[p] - now) * oldRate[p] / r
                : now + random.nextDouble() * period;
      } else {
        next = lastRelease[p] + period;
        if (next < now) {
          // Overdue under the new plan: spread the catch-up over the next day, not one burst.
          next = now + random.nextDouble() * Math.min(period, 1.0);
        }
      }
      nextDue[p] = next;
      due.push(next, p);
    }
  }

  @Override
  public double nextWakeTime() {
    return Math.min(due.peekTime(), hostSlots.minKey());
  }

  @Override
  public void wake(double now) {
    while (due.peekTime() <= now) {
      double t = due.peekTime();
      int p = due.pop();
      if (t != nextDue[p]) {
        continue; // superseded by a re-plan
      }
      double period = 1.0 / rate[p];
      int h = ctx.workload().hostOf(p);
      if (ctx.hostMaxRate(h) == Double.POSITIVE_INFINITY) {
        ctx.release(p);
      } else {
        // A limited host takes one page per 1/k: hold due pages and send the one whose next
        // grid time comes first (earliest deadline), so short periods are kept the most regular.
        waiting[h].push(t + period, p);
        hostSlots.set(h, Math.max(hostFree[h], t));
      }
      lastRelease[p] = t;
      double next = t + period;
      if (next <= now) {
        next = now + period;
      }
      nextDue[p] = next;
      due.push(next, p);
    }
    while (hostSlots.minKey() <= now) {
      int h = hostSlots.minId();
      ctx.release(waiting[h].pop());
      hostFree[h] = now + 1.0 / ctx.hostMaxRate(h);
      if (waiting[h].isEmpty()) {
        hostSlots.remove(h);
      } else {
        hostSlots.set(h, hostFree[h]);
      }
    }
  }

  @Override
  public void onStatus(int page, StatusEvent event, double now) {
    // Periodic policies do not react to single fetches; learned rates reach them at re-plans.
  }

  @Override
  public void onDayBoundary(double now) {
    if (replans()) {
      apply(plan(now), now);
    }
  }

  @Override
  public void onPagesAppeared(int[] pages, double now) {
    if (replans()) {
      apply(plan(now), now);
    }
  }

  @Override
  public void onHostLimitChanged(int host, double maxRate, double now) {
    if (replans()) {
      apply(plan(now), now);
    }
  }

  @Override
  public void onBudgetChanged(double budget, double now) {
    if (replans()) {
      apply(plan(now), now);
    }
  }

  @Override
  public void onTrueRatesChanged(double now) {
    if (replans() && ctx.oracleRates()) {
      apply(plan(now), now);
    }
  }
}
