package io.recrawl.frontier;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.PageKeys;
import java.util.HashMap;
import java.util.Map;

/**
 * The deletions of queues and crawls the outbox remembers, so that requests the job released before
 * a deletion and still on their way through Kafka are dropped when they arrive. Not thread-safe:
 * {@link ReleasedUrls} holds it under its own lock.
 */
final class Deletions {

  /** How long a deletion is remembered for requests on their way, and waits for its answer. */
  static final long MEMORY_MS = 600_000;

  /**
   * A deletion of a queue or crawl: requests released before {@code asOf} (event time) and still on
   * their way are dropped when they arrive; while the job has not answered ({@code pendingUntil},
   * wall clock, is ahead), every request of the queue is, whenever it was released.
   */
  private record Deletion(long asOf, long pendingUntil) {
    boolean drops(CrawlRequest r, long now) {
      return pendingUntil > now || r.time() <= asOf;
    }
  }

  /** Deletions by {@code crawl + '\n' + host}, host {@code *} for all. */
  private final Map<String, Deletion> deleted = new HashMap<>();

  /**
   * A deletion of {@code crawl} in queue {@code host} (null = every queue) was asked at {@code now}
   * (epoch ms): every release of it is dropped until the job's answer ({@link #answered}) or, if
   * none comes, for {@link #MEMORY_MS}; the job may apply a deletion after its asker stopped
   * waiting.
   */
  void asked(String crawl, String host, long now) {
    deleted.merge(
        key(crawl, host),
        new Deletion(now, now + MEMORY_MS),
        (a, b) -> new Deletion(Math.max(a.asOf, b.asOf), Math.max(a.pendingUntil, b.pendingUntil)));
  }

  /**
   * The job deleted {@code crawl}'s pages in queue {@code host} as of {@code asOf} (event time):
   * what it released before is dropped when it arrives; a later release (a page put again) is not.
   */
  void answered(String crawl, String host, long asOf) {
    deleted.values().removeIf(d -> d.pendingUntil == 0 && d.asOf < asOf - MEMORY_MS);
    deleted.merge(
        key(crawl, host),
        new Deletion(asOf, 0),
        (a, b) -> new Deletion(Math.max(a.asOf, b.asOf), 0));
  }

  /** Whether {@code r}, arriving at {@code now}, was released before a deletion that covers it. */
  boolean drops(CrawlRequest r, long now) {
    if (deleted.isEmpty()) {
      return false;
    }
    String crawl = PageKeys.crawl(r.url());
    Deletion queue = deleted.get(key(crawl, r.host()));
    Deletion all = deleted.get(key(crawl, null));
    return (queue != null && queue.drops(r, now)) || (all != null && all.drops(r, now));
  }

  private static String key(String crawl, String host) {
    return crawl + '\n' + (host == null ? "*" : host);
  }
}
