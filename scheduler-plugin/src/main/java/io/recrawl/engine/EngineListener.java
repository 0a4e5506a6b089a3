package io.recrawl.engine;

import io.recrawl.wire.CrawlRequest;

/** What the engine reports as it works: the Flink operator turns these into metrics. */
public interface EngineListener {

  EngineListener NONE = new EngineListener() {};

  /**
   * A URL was released, and why; {@code request.time() - request.due()} after it became due (0 for
   * a release ahead of its due time). {@code hostMaxRate} is the host's rate limit k_i then, crawls
   * per day: what its host lambda prices.
   */
  default void released(CrawlRequest request, ReleaseReason reason, double hostMaxRate) {}

  /** A released URL's lease ran out without a status: it will be released again. */
  default void leaseExpired() {}

  /** The host was blocked: {@code reason} is 429, 503 or outage. */
  default void hostBlocked(String reason) {}

  /** The host was parked: its robots.txt asks for a crawl-delay above the maximum. */
  default void hostParked() {}

  /**
   * Metadata kept for a page's crawl requests ({@code metadata.transfer}) was cut to its bounds:
   * {@code values} values shortened or dropped.
   */
  default void metadataCut(int values) {}

  /** A DISCOVERED event for a URL already in state. */
  default void duplicateDiscovered() {}

  /** A page was removed from state (ERROR with error.remove). */
  default void pageRemoved(String url) {}

  /** The number of pages or hosts in state changed by these amounts. */
  default void stateChanged(int pagesDelta, int hostsDelta) {}
}
