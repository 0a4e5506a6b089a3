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

  /** A status older than its page's last visit, or that visit delivered again: ignored. */
  default void staleStatus() {}

  /** A page was removed from state (ERROR with error.remove, or purged by error.purge-after). */
  default void pageRemoved(String url) {}

  /** Refusal: a status event for a new page of a host at {@code host.max-pages}. */
  String HOST_FULL = "host_full";

  /** Refusal: a host_rate override for one more host than {@code host-rates.max}. */
  String RATE_TABLE_FULL = "rate_table_full";

  /**
   * The input of this call was refused ({@link #HOST_FULL}, {@link #RATE_TABLE_FULL}), changing no
   * page: the caller dead-letters it with this reason and detail.
   */
  default void refused(String reason, String detail) {}

  /** The number of pages or hosts in state changed by these amounts. */
  default void stateChanged(int pagesDelta, int hostsDelta) {}
}
