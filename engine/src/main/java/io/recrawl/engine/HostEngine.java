package io.recrawl.engine;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;

/**
 * The per-host scheduling engine: it applies status events to a host's pages and, when the host
 * wakes up, releases the pages whose crawl value has reached the host's threshold, highest value
 * first and never faster than the host's rate limit.
 *
 * <p>It knows nothing of Flink: the job runs it over RocksDB keyed state, the simulator over hash
 * maps ({@link HostStore}). One engine instance serves every host; of its own it keeps only the
 * learned prior and one call's scratch, which {@link #begin}, {@link #commit} and {@link #rollback}
 * let a caller undo with the host's records.
 *
 * <p>Each page is indexed in one of two queues of slots (see {@link SlotQueues}): the <em>due</em>
 * queue by the time its crawl value will reach the threshold (or, when that is far, by a re-check
 * on the way, so that a fall in the threshold is noticed in time), and the <em>ready</em> queue by
 * its crawl value once it is due. A wake-up drains the due buckets that have passed, re-checking
 * every page against the current threshold, then releases the best ready page if the host's pacing
 * and its room in flight allow; a limited host with a free slot and nothing ready sends the best of
 * its first few due pages early rather than waste the slot.
 */
public final class HostEngine {

  private final EngineConfig cfg;
  private final HostThreshold thresholds;

  private final PageValuation valuation;
  private final ChangeLearning learning;
  private final DueIndex dueIndex;
  private final HostDemand demand;
  private final Releases releases;
  private final StatusRules statusRules;

  public HostEngine(EngineConfig cfg) {
    this.cfg = cfg;
    this.thresholds = new HostThreshold(cfg);
    LearnedRates rates = new LearnedRates(cfg);
    this.valuation = new PageValuation(cfg, rates);
    this.learning = new ChangeLearning(cfg, rates);
    this.dueIndex = new DueIndex(cfg, valuation);
    this.demand = new HostDemand(cfg, thresholds, valuation);
    HostPoliteness politeness = new HostPoliteness(cfg, thresholds);
    Leases leases = new Leases(cfg);
    this.releases =
        new Releases(cfg, thresholds, valuation, dueIndex, demand, politeness, leases, rates);
    this.statusRules =
        new StatusRules(
            cfg,
            thresholds,
            valuation,
            learning,
            dueIndex,
            demand,
            new MetadataTransfer(cfg),
            politeness,
            leases,
            releases);
  }

  public EngineConfig config() {
    return cfg;
  }

  public HostThreshold thresholds() {
    return thresholds;
  }

  /** The page valuation this engine plans with. */
  public PageValuation valuation() {
    return valuation;
  }

  /** What this engine learns of pages' change rates, and the crawl's learned prior. */
  public ChangeLearning changeLearning() {
    return learning;
  }

  // ---------------------------------------------------------------- calls a caller may undo

  /**
   * Starts a call the caller may {@link #rollback}: one or more engine calls on one host, whose
   * host records the caller's store commits or drops. Such a call also changes what the engine
   * shares between hosts (the learned prior, the scratch of the host's demand settlement); from
   * here to {@link #commit} or {@link #rollback} the engine keeps what it needs to put that back.
   */
  public void begin() {
    demand.abandon();
    learning.begin();
  }

  /** The call's changes to the engine's shared state stand. */
  public void commit() {
    learning.commit();
  }

  /**
   * The call failed: the engine's shared state is again as {@link #begin} found it, so that the
   * next call, of any host, runs as if this one never had.
   */
  public void rollback() {
    demand.abandon();
    learning.rollback();
  }

  // ---------------------------------------------------------------- status events

  /**
   * Applies one validated status event for a URL of this host. An event with a client's refetch
   * date ({@link StatusEvent#refetchAt}) then plans its page for that date, as {@link #planAt}
   * does; a discovery of a page already known keeps the page's date.
   */
  public void onStatus(HostStore store, StatusEvent e, EngineContext ctx, EngineOutcome out) {
    long refetchAt = e.refetchAt();
    if (refetchAt == 0) {
      statusRules.apply(store, e, ctx, out);
      return;
    }
    boolean rediscovery = e.status() == CrawlStatus.DISCOVERED && page(store, e.url()) != null;
    statusRules.apply(store, e, ctx, out);
    PageState p = page(store, e.url());
    if (!rediscovery && p != null && !p.inFlight()) {
      planAt(store, e.url(), refetchAt, ctx, out);
    }
  }

  private static PageState page(HostStore store, String url) {
    return store.host() == null ? null : store.page(url);
  }

  /**
   * Plans a known page, not in flight, for {@code due}: it goes then, whatever its crawl value, as
   * a retry does. For a frontier brought in from another scheduler ({@code bin/recrawl import}),
   * whose next fetch dates the pages keep for their first crawl here; from their next status on,
   * the engine plans them itself. Releases nothing; the page's previous slot becomes stale, as at
   * any re-index.
   */
  public void planAt(HostStore store, String url, long due, EngineContext ctx, EngineOutcome out) {
    HostState h = store.host();
    PageState p = h == null ? null : store.page(url);
    if (p == null || p.inFlight()) {
      throw new IllegalArgumentException("not a waiting page of " + ctx.host() + ": " + url);
    }
    long now = ctx.now();
    p.forced = true;
    dueIndex.index(store, h, p, url, due, now);
    long wake = releases.nextWake(h, now, ctx.globalLambda(), h.lastRelease);
    if (due <= now) {
      // Not before the end of the current bucket: pages planned together (a client's batch) are
      // then all known, and go by their dates, the sooner first.
      wake = Math.max(wake, dueIndex.bucketEnd(now / cfg.bucketMs));
    }
    Releases.setWake(h, wake, out);
    demand.settle(h, now, out, false);
    store.putHost(h);
  }

  /**
   * The host's wake-up: re-check due pages against the current threshold and release the best one.
   */
  public void onWake(HostStore store, EngineContext ctx, EngineOutcome out) {
    releases.onWake(store, ctx, out);
  }

  /**
   * Removes pages of this host (a front end's deletion), in flight or not; a status that answers a
   * removed page's request later brings the page back. Returns how many were removed.
   */
  public int removePages(
      HostStore store, Iterable<String> urls, EngineContext ctx, EngineOutcome out) {
    HostState h = store.host();
    if (h == null) {
      return 0;
    }
    int removed = 0;
    for (String url : urls) {
      PageState p = store.page(url);
      if (p == null) {
        continue;
      }
      if (p.inFlight()) {
        p.leaseUntil = 0;
        h.inFlight--;
      }
      demand.setContribution(h, p, false);
      releases.removePage(store, h, p, url, ctx, out);
      removed++;
    }
    releases.finish(store, h, ctx.now(), ctx, out);
    return removed;
  }

  /**
   * A front end's block of the host (URL Frontier's {@code BlockQueueUntil}), under the rule of a
   * Retry-After: nothing goes before {@code until}, at most {@code politeness.retry-after.max}
   * ahead. A block only ends at its time: the host's record cannot tell a client's block from a
   * server's, and lifting a server's would break its politeness.
   */
  public void blockUntil(HostStore store, long until, EngineContext ctx, EngineOutcome out) {
    HostState h = store.host();
    if (h == null) {
      return;
    }
    long now = ctx.now();
    h.blockedUntil =
        Math.max(h.blockedUntil, Math.min(until, Times.plus(now, cfg.maxRetryAfterMs)));
    releases.finish(store, h, now, ctx, out);
  }

  /**
   * When a page is next due, for a front end's query: never for an ERROR page, the end of its lease
   * if it is in flight, its client's date if it carries one, else when its crawl value reaches the
   * host's threshold at today's prices.
   */
  public long dueAt(HostStore store, String url, double lambda0, long now) {
    HostState h = store.host();
    PageState p = h == null ? null : store.page(url);
    if (p == null) {
      return 0;
    }
    if (p.status == CrawlStatus.ERROR.ordinal()) {
      return Long.MAX_VALUE;
    }
    if (p.inFlight()) {
      return p.leaseUntil;
    }
    long client = p.clientDate();
    if (client != 0) {
      return client;
    }
    return valuation.dueTime(h, p, thresholds.threshold(h, lambda0, now), now);
  }

  /** A control-stream override of the host's rate limit (0 or less removes it). */
  public void onHostRate(HostStore store, double maxRate, EngineContext ctx, EngineOutcome out) {
    HostState h = store.host();
    if (h == null) {
      return; // overrides for hosts without pages are kept by the caller, not in keyed state
    }
    h.overrideRate = maxRate > 0 ? maxRate : 0;
    releases.finish(store, h, ctx.now(), ctx, out);
  }
}
