package io.recrawl.frontier;

import io.recrawl.wire.CrawlRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * Each queue's last hand-out, to space its next: a queue's hand-outs are spaced at least as the job
 * spaced their releases, up to the host's spacing the job states with each release. Not
 * thread-safe: {@link ReleasedUrls} holds it under its own lock.
 */
final class QueuePaces {

  /**
   * A queue's last hand-out: when, the release time of its URL (the latest so far), the spacing it
   * kept, and the pace before it (restored if the URL was never sent; kept only for hand-outs of
   * the same instant, so that a queue's pace stays one record).
   */
  private record Pace(long at, long released, long spacing, String url, Pace before) {
    /** The same without its history: a chain only within the hand-outs of one instant. */
    Pace alone() {
      return before == null ? this : new Pace(at, released, spacing, url, null);
    }
  }

  /** How long a queue's last hand-out is kept to space the next (past the job's own spacing). */
  private static final long MEMORY_MS = 3_600_000;

  /** The pace of each queue that handed out a URL within the last {@link #MEMORY_MS}. */
  private final Map<String, Pace> paces = new HashMap<>();

  private long prunedAt;

  /** Whether queue {@code host} may hand out {@code r} at {@code now}. */
  boolean allows(String host, CrawlRequest r, long now) {
    return now >= nextAt(host, r);
  }

  /** The earliest time queue {@code host} may hand out {@code r}, epoch ms. */
  long nextAt(String host, CrawlRequest r) {
    Pace pace = paces.get(host);
    return pace == null ? Long.MIN_VALUE : pace.at() + spacing(pace, r);
  }

  /** Queue {@code host} handed out {@code r} at {@code now}. */
  void handedOut(String host, CrawlRequest r, long now) {
    Pace pace = paces.get(host);
    paces.put(
        host,
        new Pace(
            now,
            pace == null ? r.time() : Math.max(pace.released(), r.time()),
            spacing(pace, r),
            r.url(),
            pace == null || pace.at() == now ? pace : pace.alone()));
  }

  /**
   * {@code r} was taken but never sent: if it was its queue's last hand-out, the pace before it.
   */
  void givenBack(CrawlRequest r) {
    Pace pace = paces.get(r.host());
    if (pace != null && r.url().equals(pace.url())) {
      if (pace.before() == null) {
        paces.remove(r.host());
      } else {
        paces.put(r.host(), pace.before());
      }
    }
  }

  /** Forgets, once a minute, the paces older than {@link #MEMORY_MS}. */
  void prune(long now) {
    if (now - prunedAt >= 60_000) {
      prunedAt = now;
      paces.values().removeIf(p -> p.at() < now - MEMORY_MS);
    }
  }

  /**
   * The least time between the queue's last hand-out and {@code r}'s: the time between their
   * releases, or for a URL released no later than the last (offered again), the last spacing.
   */
  private static long spacing(Pace pace, CrawlRequest r) {
    if (pace == null) {
      return 0;
    }
    long released = r.time() > pace.released() ? r.time() - pace.released() : pace.spacing();
    // The gap between two releases is the host's spacing plus the time the second waited for its
    // value: only the spacing is politeness. Without it, a late hand-out made every next one late.
    return r.spacing() > 0 ? Math.min(released, r.spacing()) : released;
  }
}
