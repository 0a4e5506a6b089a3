package io.recrawl.engine;

import io.recrawl.estimate.ChangeStats;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;

/**
 * What a status event does to its page, by StormCrawler's status semantics: a DISCOVERED inserts
 * the page if it is absent (or re-plans a known one under a new weight or known change rate), a
 * FETCHED teaches the estimator and plans the next crawl, a FETCH_ERROR backs off and becomes ERROR
 * after {@code fetch-error.max} in a row; a status older than the page's latest is stale, and a new
 * page beyond the host's cap is refused. What the status says of the host (a push-back, a
 * crawl-delay) counts in every case ({@link HostPoliteness}).
 */
final class StatusRules {

  private final EngineConfig cfg;
  private final HostThreshold thresholds;
  private final PageValuation valuation;
  private final ChangeLearning learning;
  private final DueIndex dueIndex;
  private final HostDemand demand;
  private final MetadataTransfer metadataTransfer;
  private final HostPoliteness politeness;
  private final Leases leases;
  private final Releases releases;

  StatusRules(
      EngineConfig cfg,
      HostThreshold thresholds,
      PageValuation valuation,
      ChangeLearning learning,
      DueIndex dueIndex,
      HostDemand demand,
      MetadataTransfer metadataTransfer,
      HostPoliteness politeness,
      Leases leases,
      Releases releases) {
    this.cfg = cfg;
    this.thresholds = thresholds;
    this.valuation = valuation;
    this.learning = learning;
    this.dueIndex = dueIndex;
    this.demand = demand;
    this.metadataTransfer = metadataTransfer;
    this.politeness = politeness;
    this.leases = leases;
    this.releases = releases;
  }

  /**
   * Applies one validated status event to its page, and settles the host ({@link Releases#finish}).
   */
  void apply(HostStore store, StatusEvent e, EngineContext ctx, EngineOutcome out) {
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
          learning.learnChange(h, p, e);
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
    Double known = ChangeLearning.knownChangeRate(p, e);
    ChangeStats knownStats = known == null ? null : cfg.estimator.known(known);
    boolean newWeight = e.weight() != null && e.weight().floatValue() != p.weight;
    boolean newRate =
        knownStats != null
            && ((float) knownStats.shape() != p.changeShape
                || (float) knownStats.rate() != p.changeRate);
    boolean signalled = !newRate && learning.signal(h, p, e, now);
    if (!newWeight && !newRate && !signalled) {
      return false;
    }
    demand.setContribution(h, p, false);
    if (newWeight) {
      p.weight = e.weight().floatValue();
    }
    if (newRate) {
      valuation.keepExpectedChanges(p, knownStats, now);
      learning.rerate(h, p, knownStats);
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

  private void schedule(
      HostStore store, HostState h, PageState p, String url, long now, double lambda0) {
    dueIndex.schedule(store, h, p, url, thresholds.threshold(h, lambda0, now), now);
  }

  private PageState newPage(HostState h, StatusEvent e, EngineOutcome out) {
    PageState p = new PageState();
    learning.initialise(h, p, e);
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
