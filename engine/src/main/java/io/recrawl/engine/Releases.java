package io.recrawl.engine;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import java.util.Map;

/**
 * A host's releases: its wake-up, which re-checks due pages against the current threshold and
 * releases the best one if the host's pacing and its room in flight allow, the release itself, and
 * when the host next wakes up. Part of {@link HostEngine}, which applies status events.
 */
final class Releases {

  private final EngineConfig cfg;
  private final HostThreshold thresholds;
  private final PageValuation valuation;
  private final DueIndex dueIndex;
  private final HostDemand demand;
  private final FreeSlotSearch freeSlots;
  private final HostPoliteness politeness;
  private final Leases leases;
  private final LearnedRates rates;

  Releases(
      EngineConfig cfg,
      HostThreshold thresholds,
      PageValuation valuation,
      DueIndex dueIndex,
      HostDemand demand,
      HostPoliteness politeness,
      Leases leases,
      LearnedRates rates) {
    this.cfg = cfg;
    this.thresholds = thresholds;
    this.valuation = valuation;
    this.dueIndex = dueIndex;
    this.demand = demand;
    this.freeSlots = new FreeSlotSearch(dueIndex, valuation);
    this.politeness = politeness;
    this.leases = leases;
    this.rates = rates;
  }

  /**
   * The host's wake-up: re-check due pages against the current threshold and release the best one.
   */
  void onWake(HostStore store, EngineContext ctx, EngineOutcome out) {
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
      if (valuation.floorReached(p, now) || (p.forced && p.clientDate() != 0)) {
        // Overdue by revisit.max-interval: it goes before every page that is merely due, or a host
        // that its due pages keep busy would never honour the floor. A page its client planned goes
        // first too, in the order of the dates (the due buckets'), not of crawl values.
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
  boolean sendAtOnce(
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
    // A wake-up fired late, in the advance after a downtime, is written when that advance ends: its
    // lease has at least half its length left then. Counted from the release's own time when it
    // is later, so that a status stamped with the request's time (a replay) still answers it.
    long lease = leases.durationMs(p);
    p.leaseUntil = Times.plus(Math.max(now, Times.plus(ctx.advanceEnd(), -lease / 2)), lease);
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
            p.leaseUntil,
            thresholds.spacingMs(h, now));
    out.released(request, reason, thresholds.maxRate(h, now));
  }

  /** When an ERROR page leaves state; Long.MAX_VALUE = never ({@code error.purge-after} 0). */
  long errorPurgeAt(PageState p) {
    return cfg.errorPurgeMs > 0 ? Times.plus(p.errorSince, cfg.errorPurgeMs) : Long.MAX_VALUE;
  }

  void removePage(
      HostStore store, HostState h, PageState p, String url, EngineContext ctx, EngineOutcome out) {
    DueIndex.unindex(store, p);
    store.removePage(url);
    rates.count(h, p, -1);
    h.pages--;
    out.pageRemoved();
    out.stateChanged(-1, 0);
  }

  void finish(HostStore store, HostState h, long now, EngineContext ctx, EngineOutcome out) {
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
  long nextWake(HostState h, long now, double lambda0, long slotFrom) {
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

  static void setWake(HostState h, long next, EngineOutcome out) {
    if (next != h.wakeAt) {
      long previous = h.wakeAt;
      h.wakeAt = next;
      out.wakeMoved(previous, next);
    }
  }
}
