package io.recrawl.engine;

import io.recrawl.estimate.ChangeStats;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.Map;

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
  private final FreeSlotSearch freeSlots;
  private final MetadataTransfer metadataTransfer;
  private final HostPoliteness politeness;
  private final Leases leases;

  public HostEngine(EngineConfig cfg) {
    this.cfg = cfg;
    this.thresholds = new HostThreshold(cfg);
    this.valuation = new PageValuation(cfg);
    this.dueIndex = new DueIndex(cfg, valuation);
    this.freeSlots = new FreeSlotSearch(dueIndex, valuation);
    this.demand = new HostDemand(cfg, thresholds, valuation);
    this.metadataTransfer = new MetadataTransfer(cfg);
    this.politeness = new HostPoliteness(cfg, thresholds);
    this.leases = new Leases(cfg);
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

  /** Applies one validated status event for a URL of this host. */
  public void onStatus(HostStore store, StatusEvent e, EngineContext ctx, EngineOutcome out) {
    long now = ctx.now();
    HostState h = store.host();
    boolean newHost = h == null;
    if (newHost) {
      h = new HostState();
    }
    PageState p = store.page(e.url());
    if (p == null && h.pages >= cfg.maxPagesPerHost) {
      refuseFull(store, h, e, now, ctx, out);
      return;
    }

    if (e.status() == CrawlStatus.DISCOVERED) {
      if (p != null) {
        if (!rediscover(store, h, p, e, now, ctx.globalLambda())) {
          out.duplicate();
          return;
        }
        finish(store, h, now, ctx, out);
        return;
      }
      p = newPage(h, e, out);
      h.pages++;
      out.stateChanged(1, newHost ? 1 : 0);
      demand.setContribution(h, p, true);
      // A new host's first pages come together (a seed list, a sitemap) and go best first at its
      // first wake-up.
      if (newHost || !sendAtOnce(store, h, p, e.url(), now, ctx, out)) {
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
        finish(store, h, now, ctx, out);
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
        finish(store, h, now, ctx, out);
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
    finish(store, h, now, ctx, out);
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
      finish(store, h, now, ctx, out);
    }
    out.refuse(
        EngineOutcome.HOST_FULL,
        "host "
            + ctx.host()
            + " has "
            + h.pages
            + " pages, its limit (recrawl.engine.host.max-pages = "
            + cfg.maxPagesPerHost
            + ")");
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
    setWake(h, nextWake(h, now, ctx.globalLambda(), h.lastRelease), out);
    demand.settle(h, now, out, false);
    store.putHost(h);
  }

  /** A control-stream override of the host's rate limit (0 or less removes it). */
  public void onHostRate(HostStore store, double maxRate, EngineContext ctx, EngineOutcome out) {
    HostState h = store.host();
    if (h == null) {
      return; // overrides for hosts without pages are kept by the caller, not in keyed state
    }
    h.overrideRate = maxRate > 0 ? maxRate : 0;
    finish(store, h, ctx.now(), ctx, out);
  }

  // ---------------------------------------------------------------- wake-ups

  /**
   * The host's wake-up: re-check due pages against the current threshold and release the best one.
   */
  public void onWake(HostStore store, EngineContext ctx, EngineOutcome out) {
    HostState h = store.host();
    if (h == null) {
      return;
    }
    long now = ctx.now();
    double lambda0 = ctx.globalLambda();
    double theta = thresholds.threshold(h, lambda0, now);

    int budget = cfg.maxSlotsPerWake;
    while (!h.due.isEmpty() && dueIndex.bucketEnd(h.due.firstBucket()) <= now && budget-- > 0) {
      DueIndex.Taken t = DueIndex.take(store, h.due, DueIndex.DUE, h.due.firstBucket());
      if (t == null) {
        continue;
      }
      PageState p = t.page();
      String url = t.url();
      if (p.inFlight()) {
        long recheck = leases.recheckAt(p, ctx);
        if (recheck != Leases.RAN_OUT) {
          dueIndex.index(store, h, p, url, recheck, now);
          continue;
        }
        leases.expire(h, p);
        out.leaseExpired();
      }
      if (p.status == CrawlStatus.ERROR.ordinal() && !p.forced) {
        // An ERROR page waits for nothing but its purge (a retry would be forced).
        if (now >= errorPurgeAt(p)) {
          removePage(store, h, p, url, ctx, out);
        } else {
          dueIndex.index(store, h, p, url, errorPurgeAt(p), now);
        }
        continue;
      }
      double v = valuation.crawlValue(h, p, now);
      if (valuation.floorReached(p, now)) {
        // Overdue by revisit.max-interval: it goes before every page that is merely due, or a host
        // that its due pages keep busy would never honour the floor.
        dueIndex.pushReady(store, h, p, url, Double.MAX_VALUE);
      } else if (goes(p, v, theta, now)) {
        dueIndex.pushReady(store, h, p, url, v);
      } else {
        dueIndex.schedule(store, h, p, url, theta, now);
      }
    }

    if (h.pages <= 0) {
      // Its last pages were purged, or it is a record kept for its politeness evidence: does that
      // still hold?
      finish(store, h, now, ctx, out);
      return;
    }
    boolean slotOpen = slotOpen(h, now);
    boolean sent = false;
    if (slotOpen) {
      sent = !h.ready.isEmpty() && dispatchOne(store, h, now, theta, lambda0, ctx, out);
      if (!sent && theta > lambda0) { // the host's own limit binds (see HostThreshold#constrained)
        sent = pullForward(store, h, now, theta, lambda0, ctx, out);
      }
    }

    // budget < 0: overdue slots remain. Nothing sent at an open slot: the next try is one spacing
    // away (the slot counts from now), so a limited host with nothing worth sending does not spin.
    long next =
        budget < 0 ? now + 1 : nextWake(h, now, lambda0, slotOpen && !sent ? now : h.lastRelease);
    setWake(h, next, out);
    demand.settle(h, now, out, false);
    store.putHost(h);
  }

  /** Releases the highest-value ready page that still clears the threshold; false if none did. */
  private boolean dispatchOne(
      HostStore store,
      HostState h,
      long now,
      double theta,
      double lambda0,
      EngineContext ctx,
      EngineOutcome out) {
    int budget = cfg.maxSlotsPerWake;
    while (!h.ready.isEmpty() && budget-- > 0) {
      DueIndex.Taken t = DueIndex.take(store, h.ready, DueIndex.READY, h.ready.lastBucket());
      if (t == null) {
        continue;
      }
      PageState p = t.page();
      String url = t.url();
      double v = valuation.crawlValue(h, p, now);
      if (!(goes(p, v, theta, now) || valuation.floorReached(p, now))) {
        dueIndex.schedule(store, h, p, url, theta, now); // the threshold rose while it waited
        continue;
      }
      release(store, h, p, url, now, v, theta, ctx, out);
      return true;
    }
    return false;
  }

  /**
   * Whether a due page goes: a forced retry, or its value at the threshold once {@code
   * revisit.min-interval} has passed.
   */
  private boolean goes(PageState p, double v, double theta, long now) {
    return p.forced || (v >= theta && valuation.revisitAllowed(p, now));
  }

  /**
   * A limited host with a free slot and nothing ready sends early the best candidate of its {@link
   * FreeSlotSearch}, if that page is worth a crawl at the global price; returns whether it sent
   * one. The host's limit is the scarce resource: a slot left unused is a crawl lost, and pages
   * fall due in clumps, not evenly.
   */
  private boolean pullForward(
      HostStore store,
      HostState h,
      long now,
      double theta,
      double lambda0,
      EngineContext ctx,
      EngineOutcome out) {
    FreeSlotSearch.Candidate best = freeSlots.best(store, h, now, theta);
    if (best == null) {
      return false;
    }
    if (best.value() >= lambda0) {
      release(store, h, best.page(), best.url(), now, best.value(), theta, ctx, out);
      return true;
    }
    dueIndex.schedule(store, h, best.page(), best.url(), theta, now);
    return false;
  }

  /**
   * Releases a page discovered while its host is idle in the same call, instead of at the host's
   * next wake-up: nothing ready, no due bucket begun, nothing released at this instant, the pacing
   * and room in flight allow a release now, and the page clears the threshold. A wake-up would send
   * the same page, its host's only candidate, up to a due bucket later, at the cost of a slot
   * written, read and deleted, a second write of the page, and a timer. Returns whether it sent it.
   * A page below the threshold of a host whose own limit binds is left to the wake-up, whose
   * free-slot search compares it with the host's due pages.
   */
  private boolean sendAtOnce(
      HostStore store,
      HostState h,
      PageState p,
      String url,
      long now,
      EngineContext ctx,
      EngineOutcome out) {
    if (!h.ready.isEmpty() || (!h.due.isEmpty() && h.due.firstBucket() * cfg.bucketMs <= now)) {
      return false; // other pages may be due: the wake-up compares them
    }
    // Not twice in one instant: the rest of a burst goes at the wake-up, best first.
    if (now <= h.lastRelease || !slotOpen(h, now)) {
      return false;
    }
    double theta = thresholds.threshold(h, ctx.globalLambda(), now);
    double v = valuation.crawlValue(h, p, now);
    if (!(v >= theta)) {
      return false;
    }
    release(store, h, p, url, now, v, theta, ctx, out);
    return true;
  }

  /** Whether the host's pacing and its room in flight allow a release now. */
  private boolean slotOpen(HostState h, long now) {
    return now >= nextSlot(h, h.lastRelease, now) && h.inFlight < thresholds.maxInFlight(h, now);
  }

  private void release(
      HostStore store,
      HostState h,
      PageState p,
      String url,
      long now,
      double v,
      double theta,
      EngineContext ctx,
      EngineOutcome out) {
    long due = Math.min(now, valuation.dueTime(h, p, theta, now));
    ReleaseReason reason = ReleaseReason.of(p, v, theta, valuation.floorReached(p, now));
    p.forced = false;
    p.leaseUntil = Times.plus(now, leases.durationMs(p));
    h.inFlight++;
    h.lastRelease = now;
    dueIndex.index(store, h, p, url, p.leaseUntil, now);
    CrawlRequest request =
        new CrawlRequest(
            url,
            ctx.host(),
            p.metadata == null ? Map.of() : p.metadata,
            now,
            due,
            v,
            theta,
            p.leaseUntil);
    out.released(request, reason, thresholds.maxRate(h, now));
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
      removePage(store, h, p, url, ctx, out);
      return;
    }
    long retryAt = cfg.errorRetryMs > 0 ? Times.plus(now, cfg.errorRetryMs) : Long.MAX_VALUE;
    long purgeAt = errorPurgeAt(p);
    p.forced = retryAt < purgeAt;
    if (Math.min(retryAt, purgeAt) == Long.MAX_VALUE) {
      DueIndex.unindex(store, p);
      store.putPage(url, p);
    } else {
      dueIndex.index(store, h, p, url, Math.min(retryAt, purgeAt), now);
    }
  }

  /** When an ERROR page leaves state; Long.MAX_VALUE = never ({@code error.purge-after} 0). */
  private long errorPurgeAt(PageState p) {
    return cfg.errorPurgeMs > 0 ? Times.plus(p.errorSince, cfg.errorPurgeMs) : Long.MAX_VALUE;
  }

  private void removePage(
      HostStore store, HostState h, PageState p, String url, EngineContext ctx, EngineOutcome out) {
    DueIndex.unindex(store, p);
    store.removePage(url);
    valuation.countLearnedRate(h, p, -1);
    h.pages--;
    out.pageRemoved();
    out.stateChanged(-1, 0);
  }

  private void finish(
      HostStore store, HostState h, long now, EngineContext ctx, EngineOutcome out) {
    if (h.pages <= 0) {
      // A host without pages keeps its record while what it said still binds (a Retry-After, a
      // back-off, a learned capacity): a page discovered meanwhile must not find it forgotten.
      long heldUntil = politeness.heldUntil(h, now);
      if (heldUntil > now) {
        setWake(h, heldUntil, out);
        demand.settle(h, now, out, false);
        store.putHost(h);
        return;
      }
      store.removeHost();
      setWake(h, Long.MAX_VALUE, out);
      demand.settle(h, now, out, true);
      out.stateChanged(0, -1);
      return;
    }
    long next = nextWake(h, now, ctx.globalLambda(), h.lastRelease);
    if (next < h.wakeAt || h.wakeAt <= now) {
      setWake(h, next, out);
    }
    demand.settle(h, now, out, false);
    store.putHost(h);
  }

  /**
   * The host's next wake-up: the end of its first due bucket, or its next dispatch slot (one
   * spacing after {@code slotFrom}) if a page is ready or the host is limited, and it has room in
   * flight.
   */
  private long nextWake(HostState h, long now, double lambda0, long slotFrom) {
    long next =
        h.due.isEmpty()
            ? Long.MAX_VALUE
            : Math.max(now + 1, dueIndex.bucketEnd(h.due.firstBucket()));
    boolean wantsSlot =
        !h.ready.isEmpty() || (!h.due.isEmpty() && thresholds.constrained(h, lambda0, now));
    // With its crawler full, the host waits for a status or a lease expiry instead.
    if (wantsSlot && h.inFlight < thresholds.maxInFlight(h, now)) {
      next = Math.min(next, Math.max(now + 1, nextSlot(h, slotFrom, now)));
    }
    return next;
  }

  /**
   * The first instant after {@code from} at which the host's pacing, and any block or park, allow a
   * release.
   */
  private long nextSlot(HostState h, long from, long now) {
    return Math.max(Times.plus(from, thresholds.spacingMs(h, now)), HostPoliteness.openAt(h));
  }

  private static void setWake(HostState h, long next, EngineOutcome out) {
    if (next != h.wakeAt) {
      long previous = h.wakeAt;
      h.wakeAt = next;
      out.wakeMoved(previous, next);
    }
  }
}
