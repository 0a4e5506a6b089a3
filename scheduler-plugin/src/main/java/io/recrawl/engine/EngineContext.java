package io.recrawl.engine;

import io.recrawl.wire.CrawlRequest;

/** What the {@link HostEngine} needs from its caller for one call. */
public interface EngineContext {
  /** The host being worked on (the key). */
  String host();

  /** The current event time, epoch ms. */
  long now();

  /** The current global lambda. */
  double globalLambda();

  /** Emits a crawl request. */
  void release(CrawlRequest request);

  /**
   * The host's single wake-up moves from {@code previous} to {@code next} (Long.MAX_VALUE = none).
   */
  void reschedule(long previous, long next);

  /**
   * Replaces the host's capped demand curve in the ledger it belongs to (either may be null =
   * nothing); see {@link DemandLedger#replace}.
   */
  void replaceDemand(double[] before, double[] after);

  EngineListener listener();

  /**
   * The event time up to which the crawler's answers have all been read. A URL released after it
   * cannot have been answered yet, so its lease does not run out in this call: after downtime, one
   * advance of the watermark fires hours of wake-ups before any status comes in, and a URL released
   * within it is not released again within it. Defaults to {@link #now()}: answers are read as time
   * goes.
   */
  default long answeredUntil() {
    return now();
  }

  /** The event time the current advance of time reaches, at least {@link #now()}. */
  default long advanceEnd() {
    return now();
  }
}
