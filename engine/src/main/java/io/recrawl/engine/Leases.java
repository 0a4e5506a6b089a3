package io.recrawl.engine;

/**
 * A released URL's lease: how long it lasts, and when an unanswered one has run out. A lease runs
 * out only once the crawler's answers up to its release have been read, so that one advance of time
 * in which no status is read (a watermark that jumps after downtime) sends a URL at most once.
 */
final class Leases {

  /** {@link #recheckAt}: the lease has run out. */
  static final long RAN_OUT = Long.MIN_VALUE;

  private final EngineConfig cfg;

  Leases(EngineConfig cfg) {
    this.cfg = cfg;
  }

  /**
   * The lease of a release: {@code lease}, doubled for each lease of the URL that ran out in a row
   * without a status, up to {@code lease.max}. A crawler that is down for a day is then sent each
   * URL it holds a handful of times, not once per lease period.
   */
  long durationMs(PageState p) {
    if (p.expiries == 0) {
      return cfg.leaseMs; // nearly every release
    }
    return (long) Math.min(cfg.leaseMs * Math.pow(2, p.expiries), cfg.maxLeaseMs);
  }

  /**
   * Whether the page is in flight on a request released after {@code time}: a status of that time
   * answers an earlier request of the URL, not the one the crawler holds now.
   */
  boolean releasedAfter(PageState p, long time) {
    return p.inFlight() && releasedAt(p) > time;
  }

  /** When the in-flight page's request was written: its lease counted back. */
  private long releasedAt(PageState p) {
    return Times.plus(p.leaseUntil, -durationMs(p));
  }

  /** When an in-flight page is to be looked at again, or {@link #RAN_OUT}. */
  long recheckAt(PageState p, EngineContext ctx) {
    if (ctx.now() < p.leaseUntil) {
      return p.leaseUntil;
    }
    if (releasedAt(p) > ctx.answeredUntil()) {
      // Released after the last status read (within this advance of time): no answer yet.
      return Times.plus(ctx.advanceEnd(), 1);
    }
    return RAN_OUT;
  }

  /** The lease ran out with no status: the URL is sent again, without a value check. */
  void expire(HostState h, PageState p) {
    p.leaseUntil = 0;
    h.inFlight--;
    p.forced = true;
    if (p.expiries < Byte.MAX_VALUE) {
      p.expiries++;
    }
  }
}
