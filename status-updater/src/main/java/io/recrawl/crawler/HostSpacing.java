package io.recrawl.crawler;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The time between two fetches from one host, kept for as long as it matters. StormCrawler 2.4's
 * fetcher keeps it in the host's fetch queue and drops the queue once it is empty, so a request
 * that arrives after the host's last one was fetched is fetched at once, however soon. A crawler
 * fed at the host's pace (as the job feeds it) empties that queue after nearly every fetch.
 */
final class HostSpacing {

  /** Hosts whose last fetch ended this long ago are forgotten (longer than any delay honoured). */
  static final long FORGET_AFTER_MS = 10 * 60_000L;

  /** A host's turn: held from {@link #awaitTurn} to {@link #done}. */
  static final class Host {
    private long lastEnd;
    private int inProgress;
    private boolean forgotten;

    private Host(long lastEnd) {
      this.lastEnd = lastEnd;
    }
  }

  /**
   * A host this JVM has not fetched from is taken as fetched when the spacing began: a crawler
   * killed and started again cannot know when its last life asked the host, only that it was before
   * this one began. That costs each host one delay after a start.
   */
  private final long began = System.currentTimeMillis();

  private final Map<String, Host> hosts = new ConcurrentHashMap<>();
  private volatile int sweepAt = 10_000;

  /**
   * Waits until the host may be asked again: fewer than {@code maxInProgress} of its fetches in
   * progress, and {@code delayMillis} since its last fetch ended. Pass what it returns to {@link
   * #done}.
   */
  Host awaitTurn(String host, long delayMillis, int maxInProgress) throws InterruptedException {
    if (hosts.size() >= sweepAt) {
      sweep();
    }
    String key = host.toLowerCase(Locale.ROOT);
    while (true) {
      Host h = hosts.computeIfAbsent(key, k -> new Host(began));
      synchronized (h) {
        while (!h.forgotten) {
          long wait = h.lastEnd + delayMillis - System.currentTimeMillis();
          if (h.inProgress < Math.max(1, maxInProgress) && wait <= 0) {
            h.inProgress++;
            return h;
          }
          h.wait(Math.max(wait, 0));
        }
      }
    }
  }

  /** The fetch that {@link #awaitTurn} let go has ended, answered or not. */
  void done(Host h) {
    synchronized (h) {
      h.inProgress--;
      h.lastEnd = System.currentTimeMillis();
      h.notifyAll();
    }
  }

  int hostsHeld() {
    return hosts.size();
  }

  private synchronized void sweep() {
    long old = System.currentTimeMillis() - FORGET_AFTER_MS;
    hosts.forEach(
        (key, h) -> {
          synchronized (h) {
            if (h.inProgress == 0 && h.lastEnd < old) {
              h.forgotten = true;
              hosts.remove(key, h);
              h.notifyAll();
            }
          }
        });
    sweepAt = Math.max(10_000, 2 * hosts.size());
  }
}
