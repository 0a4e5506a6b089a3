package io.recrawl.sim;

import io.recrawl.sim.workload.Workload;

/** What a policy may see and do during a run. */
public interface SimContext {

  Workload workload();

  /** The global budget k_0, crawls per day. */
  double budget();

  /** The host's max rate now, crawls per day (+infinity = unlimited). */
  double hostMaxRate(int host);

  /** The change rate the policy may use: the true one with oracle rates, else the estimate. */
  double changeRate(int page);

  /** Whether the change rates are the oracle's. */
  boolean oracleRates();

  /** Whether the page exists at {@code now}. */
  boolean exists(int page);

  /**
   * When the page was last fetched before the run (a crawl taken over, {@code --start crawled}),
   * days, negative; NaN if it never was.
   */
  double previousFetch(int page);

  /**
   * The page's next fetch date in that crawl, when the run takes it over as {@code bin/recrawl
   * import} does ({@code --start imported}), days; NaN otherwise.
   */
  double previousNextFetch(int page);

  /** The current simulated time, days. */
  double now();

  /** The simulated time as epoch milliseconds (what the engine and the wire format use). */
  long epochMillis(double days);

  /** The inverse of {@link #epochMillis}. */
  double days(long epochMillis);

  /** Hands a page to the crawler now; false if it is already waiting there. */
  boolean release(int page);

  /** Whether the page is waiting in the crawler's queue. */
  boolean queued(int page);

  /** The run's seed, for any randomness the policy needs. */
  long seed();

  /** Engine settings (recrawl.engine keys) for policies that run the engine. */
  java.util.Map<String, Object> engineSettings();
}
