package io.recrawl.engine;

import io.recrawl.estimate.ChangeStats;
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
  private final DueIndex dueIndex;
  private final HostDemand demand;
  private final MetadataTransfer metadataTransfer;
  private final HostPoliteness politeness;
  private final Leases leases;
  private final Releases releases;

  public HostEngine(EngineConfig cfg) {
    this.cfg = cfg;
    this.thresholds = new HostThreshold(cfg);
    this.valuation = new PageValuation(cfg);
    this.dueIndex = new DueIndex(cfg, valuation);
    this.demand = new HostDemand(cfg, thresholds, valuation);
    this.metadataTransfer = new MetadataTransfer(cfg);
    this.politeness = new HostPoliteness(cfg, thresholds);
    this.leases = new Leases(cfg);
    this.releases = new Releases(cfg, thresholds, valuation, dueIndex, demand, politeness, leases);
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

  // ---------------------------------------------------------------- calls a caller may undo

  /**
   * Starts a call the caller may {@link #rollback}: one or more engine calls on one host, whose
   * host records the caller's store commits or drops. Such a call also changes what the engine
   * shares between hosts (the learned prior, the scratch of the host's demand settlement); from
   * here to {@link #commit} or {@link #rollback} the engine keeps what it needs to put that back.
   */
  public void begin() {
    demand.abandon();
    valuation.begin();
  }

  /** The call's changes to the engine's shared state stand. */
  public void commit() {
    valuation.commit();
  }

  /**
   * The call failed: the engine's shared state is again as {@link #begin} found it, so that the
   * next call, of any host, runs as if this one never had.
   */
  public void rollback() {
    demand.abandon();
    valuation.rollback();
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
      applyStatus(store, e, ctx, out);
      return;
    }
    boolean rediscovery = e.status() == CrawlStatus.DISCOVERED && page(store, e.url()) != null;
    applyStatus(store, e, ctx, out);
    PageState p = page(store, e.url());
    if (!rediscovery && p != null && !p.inFlight()) {
      planAt(store, e.url(), refetchAt, ctx, out);
    }
  }

  private static PageState page(HostStore store, String url) {
    return store.host() == null ? null : store.page(url);
  }

  private void applyStatus(HostStore store, StatusEvent e, EngineContext ctx, EngineOutcome out) {
    long now = ctx.now();
    HostState h = store.host();
    boolean newHost = h == null;
    if (newHost) {
      h = new HostState();
    }
    PageState p = store.page(e.url());
    if (p == null && h.pages >= Math.min(cfg.maxPagesPerHost, ctx.maxPages())) {
      refuseFull(store, h, e, now, ctx, out);
      return;
    }

    if (e.status() == CrawlStatus.DISCOVERED) {
      if (p != null) {
        if (!rediscover(store, h, p, e, now, ctx.globalLambda())) {
          out.duplicate();
          return;
        }
        releases.finish(store, h, now, ctx, out);
        return;
      }
      p = newPage(h, e, out);
      h.pages++;
      out.stateChanged(1, newHost ? 1 : 0);
      demand.setContribution(h, p, true);
      // A new host's first pages come together (a seed list, a sitemap) and go best first at its
      // first wake-up.
      if (newHost || !releases.sendAtOnce(store, h, p, e.url(), now, ctx, out)) {
        dueIndex.index(store, h, p, e.url(), now, now);
      }
    } else {
      if (p == null) {
        p = newPage(h, e, out);
        h.pages++;
        out.stateChanged(1, newHost ? 1 : 0);
      } else if (late(p, e)) {
        // Applied, it would end the lease of a request released since and move the last visit
        // back, and the page would go again while that request waits in the crawler's queue.
        // What it says of the host still counts.
        politeness.observe(h, e, ctx.host(), now, out);
        out.staleStatus();
        releases.finish(store, h, now, ctx, out);
        return;
      }
      if (p.inFlight()) {
        p.leaseUntil = 0;
        h.inFlight--;
      }
      p.forced = false;
      p.expiries = 0; // the crawler answers for this URL
      if (e.weight() != null && e.weight().floatValue() != p.weight) {
        demand.setContribution(h, p, false);
        p.weight = e.weight().floatValue();
      }
      metadataTransfer.keep(p, e, out);
      if (politeness.observe(h, e, ctx.host(), now, out) == HostPoliteness.Outcome.HOST_BLOCKED) {
        // Not the page's fault: it keeps its status and errors, and goes when the block ends.
        p.forced = true;
        dueIndex.index(store, h, p, e.url(), Math.max(now, HostPoliteness.openAt(h)), now);
        releases.finish(store, h, now, ctx, out);
        return;
      }
      switch (e.status()) {
        case FETCHED:
          valuation.learnChange(h, p, e);
        // fall through: both count as a visit
        case REDIRECTION:
          p.lastFetch = e.time();
          p.ageFrom = 0;
          p.errors = 0;
          p.errorSince = 0;
          p.status = (byte) e.status().ordinal();
          demand.setContribution(h, p, true);
          schedule(store, h, p, e.url(), now, ctx.globalLambda());
          break;
        case FETCH_ERROR:
          p.errors++;
          if (p.errors < cfg.maxFetchErrors) {
            p.status = (byte) CrawlStatus.FETCH_ERROR.ordinal();
            p.errorSince = Math.max(1, e.time());
            p.forced = true;
            long backoff = Times.doubled(cfg.fetchErrorBackoffMs, p.errors - 1);
            demand.setContribution(h, p, true);
            dueIndex.index(store, h, p, e.url(), Times.plus(now, backoff), now);
            break;
          }
        // fall through: too many errors
        default: // ERROR
          markError(store, h, p, e.url(), now, ctx, out);
      }
    }
    releases.finish(store, h, now, ctx, out);
  }

  /**
   * Whether a status answers something older than what the page knows: it is {@link #stale}, or
   * older than the release of the request in flight. A push-back delivered again records no visit,
   * so only that release tells it is late.
   */
  private boolean late(PageState p, StatusEvent e) {
    return stale(p, e) || leases.releasedAfter(p, e.time());
  }

  /**
   * Whether a status is older than the page's latest one, or that one delivered again (same time,
   * same status); another status at the same instant (an ERROR after its FETCHED) is news. The
   * latest is the last visit, or the latest fetch error of a page that is FETCH_ERROR.
   */
  private static boolean stale(PageState p, StatusEvent e) {
    long latest =
        p.status == CrawlStatus.FETCH_ERROR.ordinal()
            ? Math.max(p.errorSince, p.lastFetch)
            : p.lastFetch;
    return latest > 0
        && (e.time() < latest || (e.time() == latest && e.status().ordinal() == p.status));
  }

  /**
   * A status event for a page the host has no room for ({@code host.max-pages}): refused, so the
   * caller dead-letters it. What the event says about the host (a push-back, a crawl-delay) still
   * counts: politeness must not depend on which URL brought the news.
   */
  private void refuseFull(
      HostStore store, HostState h, StatusEvent e, long now, EngineContext ctx, EngineOutcome out) {
    if (e.status() != CrawlStatus.DISCOVERED) {
      politeness.observe(h, e, ctx.host(), now, out);
      releases.finish(store, h, now, ctx, out);
    }
    out.refuse(
        EngineOutcome.HOST_FULL,
        "host "
            + ctx.host()
            + " has "
            + h.pages
            + (ctx.maxPages() < cfg.maxPagesPerHost
                ? " pages, its limit (a host_limit of " + ctx.maxPages() + ")"
                : " pages, its limit (recrawl.engine.host.max-pages = "
                    + cfg.maxPagesPerHost
                    + ")"));
  }

  /**
   * A known page discovered again (a sitemap read anew) with a new weight or known change rate
   * takes them, and a page waiting for its due time is indexed again under them; returns false,
   * changing nothing, when the event brings nothing new.
   */
  private boolean rediscover(
      HostStore store, HostState h, PageState p, StatusEvent e, long now, double lambda0) {
    Double known = PageValuation.knownChangeRate(p, e);
    ChangeStats knownStats = known == null ? null : cfg.estimator.known(known);
    boolean newWeight = e.weight() != null && e.weight().floatValue() != p.weight;
    boolean newRate =
        knownStats != null
            && ((float) knownStats.shape() != p.changeShape
                || (float) knownStats.rate() != p.changeRate);
    boolean signalled = !newRate && valuation.signal(h, p, e, now);
    if (!newWeight && !newRate && !signalled) {
      return false;
    }
    demand.setContribution(h, p, false);
    if (newWeight) {
      p.weight = e.weight().floatValue();
    }
    if (newRate) {
      valuation.keepExpectedChanges(p, knownStats, now);
      valuation.setChangeStats(h, p, knownStats);
    }
    demand.setContribution(h, p, true);
    boolean waiting =
        p.slot >= 0
            && SlotQueues.queueOf(p.slot) == DueIndex.DUE
            && !p.inFlight()
            && !p.forced
            && p.status != CrawlStatus.ERROR.ordinal();
    if (waiting) {
      double theta = thresholds.threshold(h, lambda0, now);
      dueIndex.index(
          store,
          h,
          p,
          e.url(),
          valuation.catchUp(h, p, valuation.dueTime(h, p, theta, now), theta, now),
          now);
    } else {
      store.putPage(e.url(), p);
    }
    return true;
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

  private void schedule(
      HostStore store, HostState h, PageState p, String url, long now, double lambda0) {
    dueIndex.schedule(store, h, p, url, thresholds.threshold(h, lambda0, now), now);
  }

  private PageState newPage(HostState h, StatusEvent e, EngineOutcome out) {
    PageState p = new PageState();
    valuation.initialise(h, p, e);
    p.status = (byte) CrawlStatus.DISCOVERED.ordinal();
    metadataTransfer.keep(p, e, out);
    return p;
  }

  /**
   * Marks ERROR, and removes the page if so configured; otherwise the page waits for its retry
   * ({@code error.retry-interval}) or its purge ({@code error.purge-after}), whichever comes first.
   */
  private void markError(
      HostStore store,
      HostState h,
      PageState p,
      String url,
      long now,
      EngineContext ctx,
      EngineOutcome out) {
    if (p.status != CrawlStatus.ERROR.ordinal() || p.errorSince == 0) {
      p.errorSince = Math.max(1, now); // a failed retry does not restart the purge clock
    }
    p.status = (byte) CrawlStatus.ERROR.ordinal();
    demand.setContribution(h, p, false);
    if (cfg.errorRemove) {
      releases.removePage(store, h, p, url, ctx, out);
      return;
    }
    long retryAt = cfg.errorRetryMs > 0 ? Times.plus(now, cfg.errorRetryMs) : Long.MAX_VALUE;
    long purgeAt = releases.errorPurgeAt(p);
    p.forced = retryAt < purgeAt;
    if (Math.min(retryAt, purgeAt) == Long.MAX_VALUE) {
      DueIndex.unindex(store, p);
      store.putPage(url, p);
    } else {
      dueIndex.index(store, h, p, url, Math.min(retryAt, purgeAt), now);
    }
  }
}
