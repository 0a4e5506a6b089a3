package io.recrawl.frontier;

import io.recrawl.wire.CrawlRequest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The crawl requests the job released and no client has taken yet, by queue (the host key), in the
 * order the job released them; and the URLs handed out, each held back until its {@code
 * delay_requestable} has passed. It is the job's outbox, not a frontier: a URL arrives here only
 * when the job releases it, at the job's pace for its host, and leaves when a client takes it.
 *
 * <p>A URL handed out is not handed out again before its delay, unless the client updates it: a
 * release of it meanwhile (the job's lease ran out) waits until the delay is over. Thread-safe.
 */
final class ReleasedUrls {

  /** Waiting requests by queue, each queue in release order; queues in the order they filled. */
  private final LinkedHashMap<String, ArrayDeque<CrawlRequest>> queues = new LinkedHashMap<>();

  /** URLs handed out, and until when (epoch ms) they are held back. */
  private final Map<String, Long> handedOut = new HashMap<>();

  /** When the URLs whose delay is over are next dropped from {@link #handedOut}. */
  private long nextPrune;

  /** A request the job released. */
  synchronized void released(CrawlRequest r) {
    ArrayDeque<CrawlRequest> q = queues.computeIfAbsent(r.host(), h -> new ArrayDeque<>());
    q.removeIf(waiting -> waiting.url().equals(r.url())); // the latest release stands
    q.addLast(r);
    notifyAll();
  }

  /** The client updated a URL (a PutURLs of it): it is no longer held back. */
  synchronized void updated(String url) {
    handedOut.remove(url);
  }

  /**
   * Takes up to {@code perQueue} requests (0 = no limit) from each of up to {@code maxQueues}
   * queues (0 = no limit), or only from queue {@code key} if it is not empty, holding each back
   * until {@code now + delayMs}; waits up to {@code waitMs} for one if there is none.
   */
  synchronized List<CrawlRequest> take(
      int perQueue, int maxQueues, String key, long delayMs, long now, long waitMs)
      throws InterruptedException {
    long deadline = now + waitMs;
    List<CrawlRequest> out = takeNow(perQueue, maxQueues, key, delayMs, now);
    while (out.isEmpty()) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        break;
      }
      wait(Math.min(left, 50)); // a held-back URL may become free without a notify
      out = takeNow(perQueue, maxQueues, key, delayMs, System.currentTimeMillis());
    }
    return out;
  }

  private List<CrawlRequest> takeNow(
      int perQueue, int maxQueues, String key, long delayMs, long now) {
    List<CrawlRequest> out = new ArrayList<>();
    int queuesUsed = 0;
    for (Iterator<Map.Entry<String, ArrayDeque<CrawlRequest>>> it = queues.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, ArrayDeque<CrawlRequest>> e = it.next();
      if (!key.isEmpty() && !key.equals(e.getKey())) {
        continue;
      }
      if (maxQueues > 0 && queuesUsed >= maxQueues) {
        break;
      }
      int taken = 0;
      for (Iterator<CrawlRequest> q = e.getValue().iterator(); q.hasNext(); ) {
        if (perQueue > 0 && taken >= perQueue) {
          break;
        }
        CrawlRequest r = q.next();
        Long heldUntil = handedOut.get(r.url());
        if (heldUntil != null && heldUntil > now) {
          continue; // handed out, its delay not over
        }
        q.remove();
        handedOut.put(r.url(), now + delayMs);
        out.add(r);
        taken++;
      }
      if (taken > 0) {
        queuesUsed++;
      }
      if (e.getValue().isEmpty()) {
        it.remove();
      }
    }
    if (now >= nextPrune) { // a pass over every URL handed out: once a second, not per call
      handedOut.values().removeIf(until -> until <= now);
      nextPrune = now + 1_000;
    }
    return out;
  }

  /** Requests taken but never sent (the client went away): they wait again, first in line. */
  synchronized void giveBack(List<CrawlRequest> unsent) {
    for (int i = unsent.size() - 1; i >= 0; i--) {
      CrawlRequest r = unsent.get(i);
      handedOut.remove(r.url());
      queues.computeIfAbsent(r.host(), h -> new ArrayDeque<>()).addFirst(r);
    }
    notifyAll();
  }

  /** Requests waiting to be taken. */
  synchronized int waiting() {
    int n = 0;
    for (ArrayDeque<CrawlRequest> q : queues.values()) {
      n += q.size();
    }
    return n;
  }
}
