package io.recrawl.frontier;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.PageKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The crawl requests the job released and no client has taken yet, by queue (the host key), in the
 * order the job released them; and the URLs handed out, each held back until its {@code
 * delay_requestable} has passed. It is the job's outbox, not a frontier: a URL arrives here only
 * when the job releases it, at the job's pace for its host, and leaves when a client takes it.
 *
 * <p>A URL handed out is not handed out again before its delay, unless the client updates it: a
 * release of it meanwhile (the job's lease ran out) waits until the delay is over. When the delay
 * is over and the client has not answered, the URL waits here again, as URL Frontier's contract has
 * it, until the job's lease runs out: from then on the job's next release of it stands.
 *
 * <p>A queue's hand-outs are spaced at least as the job spaced their releases, up to the host's
 * spacing the job states with each release: a URL released a second after the queue's last one
 * handed out is handed out a second after it or later, however late either reached the outbox or a
 * client asked; one released a minute after it, of a host the job spaces by a second, a second
 * after it. The job paces releases by the host's limit, so hand-outs keep to it too, through
 * Kafka's delays and a client that stops polling for a while, and a hand-out that came late (a
 * crawler that took the first crawl over minutes) does not make every later one of its queue as
 * late. A URL offered again (its delay passed unanswered) keeps the queue's last spacing.
 *
 * <p>Between queues a call hands out the most valuable URLs first: a client that asks for fewer
 * than wait gets the pages worth most. Each call also counts towards the crawler's pull ({@link
 * #pullSample}): whether it left a URL behind that it could have had. Thread-safe.
 */
final class ReleasedUrls {

  /** A URL handed out: its request, and until when (epoch ms) it is held back. */
  private record HandOut(CrawlRequest request, long until) {}

  /**
   * Waiting requests by queue, each queue in its order of release (by sequence number). A call
   * serves the queues whose next URL is the most valuable first; among equals, in this map's order:
   * a queue served moves to the end, so that the next call begins with the queues it did not serve.
   */
  private final LinkedHashMap<String, TreeMap<Long, CrawlRequest>> queues = new LinkedHashMap<>();

  /**
   * The sequence number of each waiting URL (page key) in its queue: a release of a URL that waits
   * replaces it, so a URL released at every lease while nobody takes it holds one entry.
   */
  private final Map<String, Long> waiting = new HashMap<>();

  /** The next sequence numbers at the end and at the front of a queue. */
  private long last;

  private long first;

  /** Releases of URLs handed out whose delay is not over: they wait for it aside. */
  private final Map<String, CrawlRequest> held = new HashMap<>();

  /** URLs handed out (page keys), and until when they are held back. */
  private final Map<String, HandOut> handedOut = new HashMap<>();

  /** The same hand-outs by the end of their delay. */
  private final PriorityQueue<HandOut> expiries =
      new PriorityQueue<>((a, b) -> Long.compare(a.until(), b.until()));

  /** Deletions whose requests on their way are dropped when they arrive. */
  private final Deletions deletions = new Deletions();

  /** Each queue's last hand-out, to space its next. */
  private final QueuePaces paces = new QueuePaces();

  /** Queues blocked by a client (BlockQueueUntil), until when. */
  private final Map<String, Long> blocked = new HashMap<>();

  /** The clients' calls since the last {@link #pullSample}. */
  private final PullSample.Counter pull = new PullSample.Counter();

  /** Whether the last look at the queues left a URL behind that the call could have had. */
  private boolean lastLeftReady;

  /**
   * A request the job released, read at {@code now}. One whose lease has run out is dropped: the
   * job releases its URL again, and that newer request is the one to hand out.
   */
  synchronized void released(CrawlRequest r, long now) {
    if (r.lease() <= now || deletions.drops(r, now)) {
      return;
    }
    HandOut out = handedOut.get(r.url());
    if (out != null && out.until() > now) {
      held.put(r.url(), r); // handed out: it waits for the delay to end
      return;
    }
    enqueue(r, false);
    notifyAll();
  }

  /** Puts a request in its queue, at the end or first in line, in place of its URL's last. */
  private void enqueue(CrawlRequest r, boolean atFront) {
    TreeMap<Long, CrawlRequest> q = queues.computeIfAbsent(r.host(), h -> new TreeMap<>());
    Long before = waiting.remove(r.url());
    if (before != null) {
      q.remove(before);
    }
    long seq = atFront ? --first : ++last;
    q.put(seq, r);
    waiting.put(r.url(), seq);
  }

  /** The client updated a URL (a PutURLs of its page key): it is no longer held back. */
  synchronized void updated(String pageKey) {
    handedOut.remove(pageKey);
    CrawlRequest again = held.remove(pageKey);
    if (again != null) {
      enqueue(again, false);
      notifyAll();
    }
  }

  /** Nothing of queue {@code host} is handed out before {@code until}, epoch ms. */
  synchronized void block(String host, long until) {
    blocked.merge(host, until, Math::max);
  }

  /**
   * A deletion was asked at {@code now} (epoch ms): what waits or is out for {@code crawl} (null =
   * every crawl) in queue {@code host} (null = every queue) is dropped, and so is every release of
   * it that arrives until the job's answer ({@link #deleted}) or for {@link Deletions#MEMORY_MS}.
   */
  synchronized void deleting(String crawl, String host, long now) {
    dropHere(crawl, host);
    deletions.asked(crawl, host, now);
  }

  /**
   * The job deleted {@code crawl}'s pages in queue {@code host} as of {@code asOf} (event time):
   * what it released before and is still on its way is dropped when it arrives; a later release (a
   * page put again) is handed out.
   */
  synchronized void deleted(String crawl, String host, long asOf) {
    dropHere(crawl, host);
    deletions.answered(crawl, host, asOf);
  }

  private void dropHere(String crawl, String host) {
    for (Iterator<Map.Entry<String, TreeMap<Long, CrawlRequest>>> it = queues.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, TreeMap<Long, CrawlRequest>> e = it.next();
      if (host == null || host.equals(e.getKey())) {
        e.getValue()
            .values()
            .removeIf(
                r -> {
                  boolean drop = PageKeys.inCrawl(r.url(), crawl);
                  if (drop) {
                    waiting.remove(r.url());
                  }
                  return drop;
                });
        if (e.getValue().isEmpty()) {
          it.remove();
        }
      }
    }
    held.values().removeIf(r -> covers(r, crawl, host));
    handedOut.values().removeIf(h -> covers(h.request(), crawl, host));
  }

  private static boolean covers(CrawlRequest r, String crawl, String host) {
    return (host == null || host.equals(r.host())) && PageKeys.inCrawl(r.url(), crawl);
  }

  /** URLs of {@code crawl} handed out whose delay is not over, in queue {@code host} or all. */
  synchronized long inProcess(String crawl, String host, long now) {
    long n = 0;
    for (HandOut h : handedOut.values()) {
      if (h.until() > now
          && (host == null || host.equals(h.request().host()))
          && PageKeys.inCrawl(h.request().url(), crawl)) {
        n++;
      }
    }
    return n;
  }

  /**
   * Takes up to {@code perQueue} requests (0 = no limit) from each of up to {@code maxQueues}
   * queues (0 = no limit), or only from queue {@code key} if it is not empty, of {@code crawl}
   * (null = any), holding each back until {@code now + delayMs}; waits up to {@code waitMs} for one
   * if there is none.
   */
  synchronized List<CrawlRequest> take(
      int perQueue, int maxQueues, String key, String crawl, long delayMs, long now, long waitMs)
      throws InterruptedException {
    long deadline = now + waitMs;
    List<CrawlRequest> out = takeNow(perQueue, maxQueues, key, crawl, delayMs, now);
    while (out.isEmpty()) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        break;
      }
      wait(Math.min(left, 50)); // a held-back URL may become free without a notify
      out = takeNow(perQueue, maxQueues, key, crawl, delayMs, System.currentTimeMillis());
    }
    pull.call(out.size(), lastLeftReady); // once a call, however long it waited
    return out;
  }

  private List<CrawlRequest> takeNow(
      int perQueue, int maxQueues, String key, String crawl, long delayMs, long now) {
    offerExpired(now);
    paces.prune(now);
    List<CrawlRequest> out = new ArrayList<>();
    List<String> served = new ArrayList<>();
    boolean leftReady = false;
    for (Map.Entry<String, TreeMap<Long, CrawlRequest>> e : byValue(key)) {
      if (maxQueues > 0 && served.size() >= maxQueues) {
        leftReady = leftReady || ready(e.getKey(), e.getValue(), crawl, now);
        if (leftReady) {
          break;
        }
        continue;
      }
      if (blockedAt(e.getKey(), now)) {
        continue;
      }
      int taken = 0;
      for (Iterator<CrawlRequest> q = e.getValue().values().iterator(); q.hasNext(); ) {
        CrawlRequest r = q.next();
        if (r.lease() <= now) {
          q.remove(); // the job has released it again, or will
          waiting.remove(r.url());
          continue;
        }
        if (!PageKeys.inCrawl(r.url(), crawl)) {
          continue;
        }
        if (!paces.allows(e.getKey(), r, now)) {
          break; // the queue's next URL waits for its spacing
        }
        if (perQueue > 0 && taken >= perQueue) {
          leftReady = true; // a URL the client could have had, had it asked for more
          break;
        }
        q.remove();
        waiting.remove(r.url());
        paces.handedOut(e.getKey(), r, now);
        HandOut h = new HandOut(r, now + delayMs);
        handedOut.put(r.url(), h);
        expiries.add(h);
        out.add(r);
        taken++;
      }
      if (taken > 0) {
        served.add(e.getKey());
      }
      if (e.getValue().isEmpty()) {
        queues.remove(e.getKey());
      }
    }
    for (String host : served) { // to the end: among equals, the next call begins with the others
      TreeMap<Long, CrawlRequest> q = queues.remove(host);
      if (q != null) {
        queues.put(host, q);
      }
    }
    lastLeftReady = leftReady;
    return out;
  }

  /**
   * The queues to serve ({@code key} alone if not empty), the most valuable first: by the crawl
   * value of the URL each would hand out next. Among equal values (every first crawl is unbounded)
   * the order of service stands, so that a call begins with the queues the last one did not serve.
   */
  private List<Map.Entry<String, TreeMap<Long, CrawlRequest>>> byValue(String key) {
    List<Map.Entry<String, TreeMap<Long, CrawlRequest>>> order = new ArrayList<>();
    for (Map.Entry<String, TreeMap<Long, CrawlRequest>> e : queues.entrySet()) {
      if (key.isEmpty() || key.equals(e.getKey())) {
        order.add(e);
      }
    }
    order.sort(
        Comparator.comparingDouble(
                (Map.Entry<String, TreeMap<Long, CrawlRequest>> e) ->
                    e.getValue().firstEntry().getValue().value())
            .reversed());
    return order;
  }

  /** Whether queue {@code host} is blocked at {@code now}, epoch ms. */
  synchronized boolean blocked(String host, long now) {
    return blockedAt(host, now);
  }

  /** Whether queue {@code host} is blocked at {@code now}; a block that ended is forgotten. */
  private boolean blockedAt(String host, long now) {
    Long until = blocked.get(host);
    if (until == null) {
      return false;
    }
    if (until > now) {
      return true;
    }
    blocked.remove(host);
    return false;
  }

  /** Whether queue {@code host} has a URL of {@code crawl} a client could take at {@code now}. */
  private boolean ready(String host, TreeMap<Long, CrawlRequest> q, String crawl, long now) {
    Long until = blocked.get(host);
    if (until != null && until > now) {
      return false;
    }
    for (CrawlRequest r : q.values()) {
      if (r.lease() > now && PageKeys.inCrawl(r.url(), crawl)) {
        return paces.allows(host, r, now);
      }
    }
    return false;
  }

  /**
   * What the clients' calls since the last sample took, how many queues have a URL a client could
   * take now, and how many URLs clients could take by {@code now + horizonMs} at their hosts'
   * spacing, in queues no client blocked: the crawler's pull, for {@link PullBudget}.
   */
  synchronized PullSample pullSample(long now, long horizonMs) {
    int readyQueues = 0;
    int takeable = 0;
    for (Map.Entry<String, TreeMap<Long, CrawlRequest>> e : queues.entrySet()) {
      if (blockedAt(e.getKey(), now)) {
        continue;
      }
      takeable += takeableBy(e.getKey(), e.getValue(), now, now + horizonMs);
      if (ready(e.getKey(), e.getValue(), null, now)) {
        readyQueues++;
      }
    }
    return pull.sample(readyQueues, takeable);
  }

  /**
   * URLs of queue {@code host} a client could take by {@code by}, each its host's spacing after the
   * one before: a host held to its limit hands out no faster, whatever the crawler's capacity.
   */
  private int takeableBy(String host, TreeMap<Long, CrawlRequest> q, long now, long by) {
    int n = 0;
    long at = Long.MIN_VALUE;
    for (CrawlRequest r : q.values()) {
      if (r.lease() <= now) {
        continue;
      }
      at = at == Long.MIN_VALUE ? Math.max(now, paces.nextAt(host, r)) : at + r.spacing();
      if (at > by) {
        break;
      }
      n++;
    }
    return n;
  }

  /**
   * Hand-outs whose delay is over and that no client answered wait again: the job's release of them
   * meanwhile at the end of its queue, else the request handed out, first in line.
   */
  private void offerExpired(long now) {
    while (!expiries.isEmpty() && expiries.peek().until() <= now) {
      HandOut h = expiries.poll();
      CrawlRequest r = h.request();
      if (handedOut.get(r.url()) != h) {
        continue; // answered, dropped, or handed out again since
      }
      handedOut.remove(r.url());
      CrawlRequest again = held.remove(r.url());
      if (again != null) {
        enqueue(again, false);
      } else {
        enqueue(r, true);
      }
    }
  }

  /** Requests taken but never sent (the client went away): they wait again, first in line. */
  synchronized void giveBack(List<CrawlRequest> unsent) {
    for (int i = unsent.size() - 1; i >= 0; i--) {
      CrawlRequest r = unsent.get(i);
      paces.givenBack(r);
      handedOut.remove(r.url());
      CrawlRequest again = held.remove(r.url());
      enqueue(again != null ? again : r, true);
    }
    notifyAll();
  }

  /** Entries in the queues: one per waiting URL, however often it was released. */
  synchronized int entries() {
    return queues.values().stream().mapToInt(Map::size).sum();
  }

  /** Requests waiting to be taken (URLs held back for their delay not counted). */
  synchronized int waiting() {
    return waiting.size();
  }
}
