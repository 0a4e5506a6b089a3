package io.recrawl.crawler;

import io.recrawl.engine.RetryAfter;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hosts that asked this crawler, through a Retry-After, not to be asked again yet. A crawl
 * request released before its host pushed back may still wait in the fetcher's queue when the 429
 * or 503 comes; this is what keeps it from reaching the host inside the block.
 */
final class RetryAfterBlocks {

  private final ConcurrentHashMap<String, Long> until = new ConcurrentHashMap<>();

  /**
   * Records a host's Retry-After header, received at {@code nowMillis}, honoured up to {@code
   * maxMillis}.
   */
  void pushedBack(String host, String retryAfter, long nowMillis, long maxMillis) {
    long end = RetryAfter.blockUntil(retryAfter, nowMillis, maxMillis);
    if (end > nowMillis) {
      until.merge(key(host), end, Math::max);
    }
  }

  /** Milliseconds the host is still blocked for at {@code nowMillis}; 0 when it is not. */
  long remaining(String host, long nowMillis) {
    String k = key(host);
    Long end = until.get(k);
    if (end == null) {
      return 0;
    }
    if (end <= nowMillis) {
      until.remove(k, end);
      return 0;
    }
    return end - nowMillis;
  }

  private static String key(String host) {
    return host.toLowerCase(Locale.ROOT);
  }
}
