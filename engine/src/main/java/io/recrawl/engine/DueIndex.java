package io.recrawl.engine;

/**
 * Where a host's pages wait, in its two {@link SlotQueues}: the <em>due</em> queue by the time of
 * each page's next check, and the <em>ready</em> queue by crawl value once a page is due. Each page
 * holds at most one slot; a slot whose page has moved on is stale and skipped when taken.
 */
final class DueIndex {

  static final int DUE = 0;
  static final int READY = 1;

  /**
   * Ready buckets: 8 per e-fold of crawl value, i.e. pages within ~13 % of value share a bucket.
   */
  private static final double READY_BUCKETS_PER_LOG = 8.0;

  private final EngineConfig cfg;
  private final PageValuation valuation;

  DueIndex(EngineConfig cfg, PageValuation valuation) {
    this.cfg = cfg;
    this.valuation = valuation;
  }

  /** Indexes the page for the time its crawl value reaches {@code theta}. */
  void schedule(HostStore store, HostState h, PageState p, String url, double theta, long now) {
    index(store, h, p, url, valuation.dueTime(h, p, theta, now), now);
  }

  /** A page taken off a queue: it must be indexed again or released. */
  record Taken(String url, PageState page) {}

  /**
   * Pops the oldest slot of a bucket; returns its page if the slot is still the page's current one,
   * null for a stale slot (the page was re-indexed or removed since).
   */
  static Taken take(HostStore store, SlotQueues queues, int queue, long bucket) {
    long key = queues.pop(queue, bucket);
    String url = store.slot(key);
    if (url == null) {
      return null;
    }
    PageState p = store.slotPage(key, url);
    store.removeSlot(key);
    if (p == null || p.slot != key) {
      return null;
    }
    p.slot = -1;
    return new Taken(url, p);
  }

  /** Due times further ahead than this many buckets are indexed coarsely (see {@link #index}). */
  private static final int FINE_BUCKETS = 60;

  private static final int COARSE_FACTOR = 16;

  /**
   * Puts the page in the due bucket of its next check: {@code due} itself when it is near, else
   * three quarters of the way there (at least {@code timer.recheck}, at most {@code timer.horizon}
   * ahead). The threshold may fall meanwhile; this notices in time any fall that moves the due time
   * by less than a quarter of the remaining wait, at a few wake-ups per revisit. Far ahead, buckets
   * are at least {@value #COARSE_FACTOR} times wider and the page is woken at the start of its wide
   * bucket: a host then has few buckets, and its record, written at every event, stays small.
   */
  void index(HostStore store, HostState h, PageState p, String url, long due, long now) {
    // A forced page (a retry) is released without a value check, so it must not wake early: it has
    // no re-checks on the way and no coarse bucket.
    long at = p.forced ? forcedAt(due, now) : checkTime(due, now);
    long bucket = at / cfg.bucketMs;
    long ahead = bucket - now / cfg.bucketMs;
    if (!p.forced && ahead > FINE_BUCKETS) {
      // A re-check may come a little early: its bucket widens with the distance (an eighth of it,
      // rounded to a power of two), so checks spread over days share few buckets.
      long width =
          at < due ? Math.max(COARSE_FACTOR, Long.highestOneBit(ahead / 8)) : COARSE_FACTOR;
      bucket -= bucket % width;
    }
    long key = h.due.push(DUE, bucket);
    replaceSlot(store, p, url, key);
  }

  /**
   * The furthest ahead a page is indexed: a slot's store key keeps its bucket in 32 bits ({@link
   * SlotQueues#key}), so two buckets 2^32 apart would share keys. Half of that ahead leaves the
   * other half for buckets overdue. Only a forced page can be planned further (a client's date
   * years ahead); it goes at the bound, 6.8 years ahead with 100 ms buckets, 4,000 with 1 min.
   */
  long maxAheadMs() {
    return ((1L << 31) - 1) * cfg.bucketMs;
  }

  /**
   * Where a forced page due at {@code due} is indexed: there, within the bound; never stays never.
   */
  private long forcedAt(long due, long now) {
    return due == Long.MAX_VALUE ? due : Math.min(due, now + maxAheadMs());
  }

  /** When a page due at {@code due} is next looked at (see {@link #index}). */
  long checkTime(long due, long now) {
    if (due <= now) {
      return now;
    }
    long wait = due - now;
    if (wait <= cfg.recheckMs) {
      return due;
    }
    return now + Math.min(cfg.horizonMs, Math.max(cfg.recheckMs, wait / 4 * 3));
  }

  void pushReady(HostStore store, HostState h, PageState p, String url, double value) {
    long key = h.ready.push(READY, readyBucket(value, p.weight));
    replaceSlot(store, p, url, key);
  }

  static void replaceSlot(HostStore store, PageState p, String url, long key) {
    if (p.slot >= 0) {
      store.removeSlot(p.slot);
    }
    p.slot = key;
    store.putSlot(key, url, p);
    store.putPage(url, p);
  }

  /** Ready buckets from here up hold pages of unbounded value, by weight. */
  private static final long UNBOUNDED_BUCKETS = 0xFFFFFF00L;

  /**
   * Ready bucket of a crawl value: monotone in the value, so the last bucket holds the best pages.
   * An unbounded value (a page never fetched, under a prior that allows it never to change) is
   * above every finite one; such pages share their host's prior, so their weight ranks them.
   */
  static long readyBucket(double value, double weight) {
    if (!(value > 0)) {
      return 0;
    }
    if (Double.isInfinite(value)) {
      long w = (long) Math.floor(Math.log(weight) * READY_BUCKETS_PER_LOG) + 0x80;
      return UNBOUNDED_BUCKETS + Math.max(0, Math.min(0xFF, w));
    }
    long b = (long) Math.floor(Math.log(value) * READY_BUCKETS_PER_LOG) + (1L << 31);
    return Math.max(1, Math.min(UNBOUNDED_BUCKETS - 1, b));
  }

  /**
   * When a due bucket ends, epoch ms. The bucket of a page due never (a back-off doubled past
   * Long.MAX_VALUE) ends never: wrapped round into the past, it would send the page at once.
   */
  long bucketEnd(long bucket) {
    return bucket >= Long.MAX_VALUE / cfg.bucketMs ? Long.MAX_VALUE : (bucket + 1) * cfg.bucketMs;
  }

  /** Drops the page's slot, if it has one: the page leaves both queues. */
  static void unindex(HostStore store, PageState p) {
    if (p.slot >= 0) {
      store.removeSlot(p.slot);
    }
    p.slot = -1;
  }
}
