package io.recrawl.flink.sim;

import java.util.Arrays;

/**
 * The simulated crawler: fetches what the policy releases, in release order per host, and never
 * faster than politeness allows. A host with max rate k is fetched at most once per 1/k days, and
 * the whole crawl at most once per 1/k_0 days (k_0 = the budget): minimum spacing, the strictest
 * reading of "crawls per day", so no window of any length ever sees more than its share (+1).
 * Among hosts that are ready, the one that has waited longest goes first.
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
      ready.set(h, Math.max(hostNext[h], now));
    } else {
      queueNext[tail[h]] = page;
    }
    tail[h] = page;
    return true;
  }

  public boolean isQueued(int page) {
    return !Double.isNaN(releasedAt[page]);
  }

  /** When the next fetch can happen; +infinity when nothing waits. */
  public double nextFetchTime() {
    return ready.isEmpty() ? Double.POSITIVE_INFINITY : Math.max(globalNext, ready.minKey());
  }

  /** Fetches the next page at {@link #nextFetchTime()} and returns it. */
  public int fetch() {
    double t = nextFetchTime();
    int h = ready.minId();
    int page = head[h];
    head[h] = queueNext[page];
    if (head[h] < 0) {
      tail[h] = -1;
    }
    releasedAt[page] = Double.NaN;
    queuedCount--;
    hostLast[h] = t;
    hostNext[h] = t + 1.0 / hostMaxRate[h];
    globalNext = t + 1.0 / budget;
    if (head[h] >= 0) {
      ready.set(h, Math.max(hostNext[h], releasedAt[head[h]]));
    } else {
      ready.remove(h);
    }
    lastFetchTime = t;
    return page;
  }

  private double lastFetchTime;

  /** The time of the latest fetch. */
  public double lastFetchTime() {
    return lastFetchTime;
  }

  /** The host's limit changes; the spacing from its last fetch follows the new limit. */
  public void setHostMaxRate(int h, double maxRate) {
    hostMaxRate[h] = maxRate;
    hostNext[h] = Double.isNaN(hostLast[h]) ? 0 : hostLast[h] + 1.0 / maxRate;
    if (head[h] >= 0) {
      ready.set(h, Math.max(hostNext[h], releasedAt[head[h]]));
    }
  }

  public double hostMaxRate(int h) {
    return hostMaxRate[h];
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
