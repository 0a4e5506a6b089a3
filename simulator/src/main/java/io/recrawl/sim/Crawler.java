package io.recrawl.sim;

import java.util.Arrays;

/**
 * The simulated crawler: fetches what the policy releases, in release order per host, and never
 * faster than politeness allows. A host with max rate k is fetched at most once per 1/k days, and
 * the whole crawl at most once per 1/k_0 days (k_0 = the budget): minimum spacing, the strictest
 * reading of "crawls per day", so no window of any length ever sees more than its share (+1).
 *
 * <p>Among hosts that are ready, a host whose page waited for the host's own spacing goes first,
 * then the one that has waited longest. A fetch held back by its host's spacing is paced: making it
 * wait for the global gate as well would push every later fetch of that host back by the wait, and
 * a host at its limit never gets that capacity back, while a page of an unpaced host just goes a
 * few seconds later. Without this, the largest limited hosts fell well short of their limits behind
 * a nearly busy budget, under every policy, and a policy that releases more than the budget could
 * starve them outright (see docs/decisions/simulated-crawler-order.md).
 */
public final class Crawler {

  private final double[] hostMaxRate;
  private double budget;
  private final double[] hostNext;
  private final double[] hostLast;
  private double globalNext;
  private final int[] queueNext;
  private final int[] head;
  private final int[] tail;

  /** Per page, when it was released; NaN while it is not waiting (one array read per release). */
  private final double[] releasedAt;

  private final int[] hostOf;
  private final IndexedHeap ready;

  /** Hosts whose next fetch waits for their own spacing, not for a release. */
  private final IndexedHeap paced;

  private int queuedCount;
  private long duplicates;

  public Crawler(int[] hostOf, double[] hostMaxRate, double budget) {
    int n = hostOf.length;
    int hosts = hostMaxRate.length;
    this.hostOf = hostOf;
    this.hostMaxRate = hostMaxRate.clone();
    this.budget = budget;
    this.hostNext = new double[hosts];
    this.hostLast = new double[hosts];
    Arrays.fill(hostLast, Double.NaN);
    this.queueNext = new int[n];
    this.head = new int[hosts];
    this.tail = new int[hosts];
    Arrays.fill(head, -1);
    Arrays.fill(tail, -1);
    this.releasedAt = new double[n];
    Arrays.fill(releasedAt, Double.NaN);
    this.ready = new IndexedHeap(hosts);
    this.paced = new IndexedHeap(hosts);
  }

  /** Queues a page released at {@code now}; false (and counted) if it is already waiting. */
  public boolean release(int page, double now) {
    if (isQueued(page)) {
      duplicates++;
      return false;
    }
    queuedCount++;
    releasedAt[page] = now;
    int h = hostOf[page];
    queueNext[page] = -1;
    if (tail[h] < 0) {
      head[h] = page;
      schedule(h);
    } else {
      queueNext[tail[h]] = page;
    }
    tail[h] = page;
    return true;
  }

  public boolean isQueued(int page) {
    return !Double.isNaN(releasedAt[page]);
  }

  /** Puts a host with a waiting page in the heap its next fetch belongs to. */
  private void schedule(int h) {
    double released = releasedAt[head[h]];
    // An unlimited host's "next" is its last fetch: never a wait for spacing.
    if (hostNext[h] > released && hostNext[h] > hostLast[h]) {
      ready.remove(h);
      paced.set(h, hostNext[h]);
    } else {
      paced.remove(h);
      ready.set(h, Math.max(hostNext[h], released));
    }
  }

  /** When the next fetch can happen; +infinity when nothing waits. */
  public double nextFetchTime() {
    double k = Math.min(ready.minKey(), paced.minKey());
    return k == Double.POSITIVE_INFINITY ? k : Math.max(globalNext, k);
  }

  /** Fetches the next page at {@link #nextFetchTime()} and returns it. */
  public int fetch() {
    double t = nextFetchTime();
    IndexedHeap from = !paced.isEmpty() && paced.minKey() <= t ? paced : ready;
    int h = from.minId();
    int page = head[h];
    head[h] = queueNext[page];
    if (head[h] < 0) {
      tail[h] = -1;
    }
    lastReleaseTime = releasedAt[page];
    releasedAt[page] = Double.NaN;
    queuedCount--;
    hostLast[h] = t;
    hostNext[h] = t + 1.0 / hostMaxRate[h];
    globalNext = t + 1.0 / budget;
    if (head[h] >= 0) {
      schedule(h);
    } else {
      from.remove(h);
    }
    lastFetchTime = t;
    return page;
  }

  private double lastFetchTime;
  private double lastReleaseTime;

  /** When the page of the latest fetch was released. */
  public double lastReleaseTime() {
    return lastReleaseTime;
  }

  /** The time of the latest fetch. */
  public double lastFetchTime() {
    return lastFetchTime;
  }

  /** The host's limit changes; the spacing from its last fetch follows the new limit. */
  public void setHostMaxRate(int h, double maxRate) {
    hostMaxRate[h] = maxRate;
    hostNext[h] = Double.isNaN(hostLast[h]) ? 0 : hostLast[h] + 1.0 / maxRate;
    if (head[h] >= 0) {
      schedule(h);
    }
  }

  public double hostMaxRate(int h) {
    return hostMaxRate[h];
  }

  /** A new budget: the next fetch keeps the old spacing, the ones after take the new one. */
  public void setBudget(double budget) {
    this.budget = budget;
  }

  public double budget() {
    return budget;
  }

  public int queued() {
    return queuedCount;
  }

  /** Releases ignored because the page was already waiting. */
  public long duplicates() {
    return duplicates;
  }
}
