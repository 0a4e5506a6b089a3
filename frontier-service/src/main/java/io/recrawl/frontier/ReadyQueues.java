package io.recrawl.frontier;

import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The crawl requests that the job has released and no client has taken yet, per crawl and queue
 * (the job's host key), with what URL Frontier's queue controls say about handing them out. It
 * holds only released URLs: a URL gets here when the job releases it, so the service never hands
 * out a host's URLs faster than the job releases them. It is not a frontier; what the job has not
 * released is not here.
 */
final class ReadyQueues {

  /** One queue: released URLs waiting for a client, and its controls. */
  static final class Queue {
    final String key;
    final LinkedHashMap<String, URLInfo> urls = new LinkedHashMap<>();
    long blockedUntil;
    long delayMs = -1;
    long nextAllowed;
    long limit;
    long handedOut;

    Queue(String key) {
      this.key = key;
    }
  }

  /** A URL handed out: its queue, and until when it is not handed out again. */
  private record Lease(String crawl, String key, long until) {}

  private final Map<String, LinkedHashMap<String, Queue>> crawls = new LinkedHashMap<>();
  private final Map<String, Long> defaultDelayMs = new HashMap<>();
  private final Map<String, Lease> leases = new HashMap<>();
  private boolean active = true;
  private long nextSweep;

  /** A URL the job has released. A copy already waiting is replaced. */
  synchronized void add(String crawl, String key, URLInfo info) {
    queue(crawl, key).urls.put(info.getUrl(), info);
    notifyAll();
  }

  /** Makes a crawl known (ListCrawls) before any of its URLs is released. */
  synchronized void noteCrawl(String crawl) {
    crawls.computeIfAbsent(crawl, c -> new LinkedHashMap<>());
  }

  /**
   * Takes URLs for a GetURLs call.
   *
   * @param crawl the crawl, or null for any
   * @param key the queue, or empty for any
   * @param maxPerQueue 0 = no limit
   * @param maxQueues 0 = no limit
   * @param delayMs how long a URL handed out is not handed out again
   */
  synchronized List<URLInfo> take(
      String crawl, String key, int maxPerQueue, int maxQueues, long delayMs, long now) {
    sweep(now);
    List<URLInfo> out = new ArrayList<>();
    if (!active) {
      return out;
    }
    int queuesServed = 0;
    List<String> crawlIds = crawl == null ? new ArrayList<>(crawls.keySet()) : List.of(crawl);
    for (String c : crawlIds) {
      LinkedHashMap<String, Queue> queues = crawls.get(c);
      if (queues == null) {
        continue;
      }
      List<Queue> candidates =
          key.isEmpty()
              ? new ArrayList<>(queues.values())
              : queues.containsKey(key) ? List.of(queues.get(key)) : List.of();
      for (Queue q : candidates) {
        if (maxQueues > 0 && queuesServed >= maxQueues) {
          return out;
        }
        if (q.blockedUntil > now
            || q.nextAllowed > now
            || (q.limit > 0 && q.handedOut >= q.limit)) {
          continue;
        }
        int n = 0;
        Iterator<URLInfo> it = q.urls.values().iterator();
        while (it.hasNext() && (maxPerQueue <= 0 || n < maxPerQueue)) {
          if (q.limit > 0 && q.handedOut >= q.limit) {
            break;
          }
          URLInfo u = it.next();
          Lease held = leases.get(leaseKey(c, u.getUrl()));
          if (held != null && held.until > now) {
            continue;
          }
          it.remove();
          leases.put(leaseKey(c, u.getUrl()), new Lease(c, q.key, now + delayMs));
          q.handedOut++;
          out.add(u);
          n++;
        }
        if (n > 0) {
          queuesServed++;
          long delay = q.delayMs >= 0 ? q.delayMs : defaultDelayMs.getOrDefault(c, 0L);
          q.nextAllowed = now + delay;
          // Round robin: the queue just served goes last.
          queues.remove(q.key);
          queues.put(q.key, q);
        }
      }
    }
    return out;
  }

  /** URLs taken but never sent (a cancelled stream): waiting again, as if never handed out. */
  synchronized void giveBack(Collection<URLInfo> unsent) {
    for (URLInfo u : unsent) {
      String c = CrawlIds.normalise(u.getCrawlID());
      leases.remove(leaseKey(c, u.getUrl()));
      Queue q = queue(c, u.getKey());
      q.handedOut = Math.max(0, q.handedOut - 1);
      q.urls.putIfAbsent(u.getUrl(), u);
    }
    notifyAll();
  }

  /** The client has reported on a URL: it may be handed out again as soon as the job says so. */
  synchronized void updated(String crawl, String url) {
    leases.remove(leaseKey(crawl, url));
  }

  /** Waits until a URL is added or given back, or the time passes. */
  synchronized void await(long millis) throws InterruptedException {
    if (millis > 0) {
      wait(millis);
    }
  }

  synchronized void setActive(boolean state) {
    active = state;
    notifyAll();
  }

  synchronized boolean active() {
    return active;
  }

  /** BlockQueueUntil; 0 unblocks. */
  synchronized void block(String crawl, String key, long untilMs) {
    queue(crawl, key).blockedUntil = untilMs;
  }

  /** SetDelay of one queue, or with an empty key the crawl's default. */
  synchronized void delay(String crawl, String key, long delayMs) {
    if (key.isEmpty()) {
      defaultDelayMs.put(crawl, delayMs);
    } else {
      queue(crawl, key).delayMs = delayMs;
    }
  }

  /** SetCrawlLimit: at most this many URLs of the queue handed out; 0 removes the cap. */
  synchronized void limit(String crawl, String key, long limit) {
    queue(crawl, key).limit = limit;
  }

  /** DeleteQueue: the waiting URLs removed, and their number. */
  synchronized long deleteQueue(String crawl, String key) {
    LinkedHashMap<String, Queue> queues = crawls.get(crawl);
    Queue q = queues == null ? null : queues.remove(key);
    if (q == null) {
      return 0;
    }
    leases.values().removeIf(l -> l.crawl.equals(crawl) && l.key.equals(key));
    return q.urls.size();
  }

  /** DeleteCrawl: the waiting URLs removed, and their number. */
  synchronized long deleteCrawl(String crawl) {
    LinkedHashMap<String, Queue> queues = crawls.remove(crawl);
    leases.values().removeIf(l -> l.crawl.equals(crawl));
    defaultDelayMs.remove(crawl);
    return queues == null ? 0 : queues.values().stream().mapToLong(q -> q.urls.size()).sum();
  }

  synchronized List<String> crawlIds() {
    return new ArrayList<>(crawls.keySet());
  }

  /** Waiting URLs of a crawl, or of one queue of it. */
  synchronized long waiting(String crawl, String key) {
    return queuesOf(crawl, key).stream().mapToLong(q -> q.urls.size()).sum();
  }

  /** URLs of a crawl (or queue) handed out whose delay has not passed. */
  synchronized long inProcess(String crawl, String key, long now) {
    return leases.values().stream()
        .filter(l -> l.crawl.equals(crawl) && (key.isEmpty() || l.key.equals(key)))
        .filter(l -> l.until > now)
        .count();
  }

  synchronized long queueCount(String crawl) {
    LinkedHashMap<String, Queue> queues = crawls.get(crawl);
    return queues == null ? 0 : queues.size();
  }

  /** Queue keys in key order: active ones (URLs waiting, not blocked) or all of them. */
  synchronized List<String> queueKeys(String crawl, boolean includeInactive, long now) {
    LinkedHashMap<String, Queue> queues = crawls.get(crawl);
    TreeSet<String> keys = new TreeSet<>();
    if (queues != null) {
      for (Queue q : queues.values()) {
        if (includeInactive || (!q.urls.isEmpty() && q.blockedUntil <= now)) {
          keys.add(q.key);
        }
      }
    }
    return new ArrayList<>(keys);
  }

  private List<Queue> queuesOf(String crawl, String key) {
    LinkedHashMap<String, Queue> queues = crawls.get(crawl);
    if (queues == null) {
      return List.of();
    }
    if (key.isEmpty()) {
      return new ArrayList<>(queues.values());
    }
    Queue q = queues.get(key);
    return q == null ? List.of() : List.of(q);
  }

  private Queue queue(String crawl, String key) {
    return crawls
        .computeIfAbsent(crawl, c -> new LinkedHashMap<>())
        .computeIfAbsent(key, Queue::new);
  }

  private void sweep(long now) {
    if (now >= nextSweep) {
      leases.values().removeIf(l -> l.until <= now);
      nextSweep = now + 1_000;
    }
  }

  private static String leaseKey(String crawl, String url) {
    return crawl + '\n' + url;
  }
}
