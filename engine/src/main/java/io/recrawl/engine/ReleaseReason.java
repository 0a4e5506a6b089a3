package io.recrawl.engine;

/** Why the engine released a URL: the first word of every decision it can be asked to explain. */
public enum ReleaseReason {
  /** Never fetched: a new page goes as soon as its host has a slot, heaviest first. */
  FIRST_CRAWL,
  /** Its crawl value reached its host's threshold θ_i = λ_i + λ_0. */
  DUE,
  /** Not yet due, but a limited host had a free slot and it was the best page near its due time. */
  EARLY,
  /** Below the threshold, but not crawled for {@code revisit.max-interval}. */
  MAX_INTERVAL,
  /** Released before, and its lease ran out with no status back. */
  LEASE_EXPIRED,
  /** Its last fetch failed: tried again after the back-off. */
  RETRY;

  /** Why a page with crawl value {@code v} at threshold {@code theta} is being released. */
  static ReleaseReason of(PageState p, double v, double theta, boolean floorReached) {
    if (p.forced && p.expiries > 0) {
      return LEASE_EXPIRED;
    }
    if (p.forced && p.errors > 0) {
      return RETRY;
    }
    if (p.neverFetched()) {
      return FIRST_CRAWL;
    }
    if (p.forced || v >= theta) {
      return DUE;
    }
    return floorReached ? MAX_INTERVAL : EARLY;
  }

  /** The name in decision records: lower case, like the wire's other enums. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
