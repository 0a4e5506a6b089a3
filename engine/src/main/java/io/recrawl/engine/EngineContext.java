package io.recrawl.engine;

/**
 * The inputs of one engine call: the host, its clock and λ_0, fixed for the length of the call. The
 * caller owns one and reuses it; what the call decides goes to an {@link EngineOutcome}.
 */
public final class EngineContext {

  private String host;
  private long now;
  private double globalLambda;
  private long answeredUntil;
  private long advanceEnd;
  private long maxPages;

  /** Fixes the host, its clock and λ_0 for the next engine call; returns this context. */
  public EngineContext begin(String host, long now, double globalLambda) {
    this.host = host;
    this.now = now;
    this.globalLambda = globalLambda;
    this.answeredUntil = now;
    this.advanceEnd = now;
    this.maxPages = Long.MAX_VALUE;
    return this;
  }

  /** A cap on the host's pages for this call, below {@code host.max-pages} (a front end's). */
  public EngineContext maxPages(long cap) {
    this.maxPages = cap;
    return this;
  }

  /** The host's own cap on its pages; Long.MAX_VALUE = none. */
  public long maxPages() {
    return maxPages;
  }

  /**
   * For a call made while time advances in one step from {@code answeredUntil} to {@code
   * advanceEnd} (see {@link #answeredUntil}); after {@link #begin}.
   */
  public EngineContext advancing(long answeredUntil, long advanceEnd) {
    this.answeredUntil = Math.min(now, answeredUntil);
    this.advanceEnd = Math.max(now, advanceEnd);
    return this;
  }

  /** The host being worked on (the key). */
  public String host() {
    return host;
  }

  /** The current event time, epoch ms. */
  public long now() {
    return now;
  }

  /** The current global lambda. */
  public double globalLambda() {
    return globalLambda;
  }

  /**
   * The event time up to which the crawler's answers have all been read. A URL released after it
   * cannot have been answered yet, so its lease does not run out in this call: after downtime, one
   * advance of the watermark fires hours of wake-ups before any status comes in, and a URL released
   * within it is not released again within it. {@link #now()} unless the call is {@link
   * #advancing}: answers are read as time goes.
   */
  public long answeredUntil() {
    return answeredUntil;
  }

  /** The event time the current advance of time reaches, at least {@link #now()}. */
  public long advanceEnd() {
    return advanceEnd;
  }
}
