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
}
