package io.recrawl.frontier;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** What PutURLs did with the items it got: written, skipped (by reason), failed. */
final class FrontierCounters {

  private final LongAdder ok = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final ConcurrentHashMap<String, LongAdder> skipped = new ConcurrentHashMap<>();

  void ok() {
    ok.increment();
  }

  void failed() {
    failed.increment();
  }

  void skipped(String reason) {
    skipped.computeIfAbsent(reason, r -> new LongAdder()).increment();
  }

  long okCount() {
    return ok.sum();
  }

  long failedCount() {
    return failed.sum();
  }

  /** Skipped items by the codec's reason. */
  Map<String, Long> skippedByReason() {
    Map<String, Long> m = new TreeMap<>();
    skipped.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }
}
