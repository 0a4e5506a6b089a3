package io.recrawl.engine;

import io.recrawl.estimate.ChangeEvidence;
import io.recrawl.estimate.ChangeStats;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-host scheduling engine: it applies status events to a host's pages and, when the host
 * wakes up, releases the pages whose crawl value has reached the host's threshold, highest value
 * first and never faster than the host's rate limit.
 *
 * <p>It knows nothing of Flink: the job runs it over RocksDB keyed state, the simulator over hash
 * maps ({@link HostStore}). One engine instance serves every host; it keeps no state of its own.
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

  static final int DUE = 0;
  static final int READY = 1;

  /**
   * Ready buckets: 8 per e-fold of crawl value, i.e. pages within ~13 % of value share a bucket.
   */
  private static final double READY_BUCKETS_PER_LOG = 8.0;

  private final EngineConfig cfg;
  private final HostThreshold thresholds;

  /**
   * The prior's statistics as a page stores them, to tell a page with evidence from one without.
   */
  private final float priorShape;

  private final float priorRate;

  public HostEngine(EngineConfig cfg) {
    this.cfg = cfg;
    this.thresholds = new HostThreshold(cfg);
    ChangeStats prior = cfg.estimator.prior();
    this.priorShape = (float) prior.shape();
    this.priorRate = (float) prior.rate();
  }

  public EngineConfig config() {
    return cfg;
  }

  public HostThreshold thresholds() {
    return thresholds;
  }

  /** What the engine needs from its caller for one call. */
  public interface Context {
    /** The host being worked on (the key). */
    String host();

    /** The current event time, epoch ms. */
    long now();

    /** The current global lambda. */
    double globalLambda();

    /** Emits a crawl request. */
    void release(CrawlRequest request);

    /**
     * The host's single wake-up moves from {@code previous} to {@code next} (Long.MAX_VALUE =
     * none).
     */
    void reschedule(long previous, long next);

    /**
     * Replaces the host's capped demand curve in the ledger it belongs to (either may be null =
     * nothing); see {@link DemandLedger#replace}.
     */
    void replaceDemand(double[] before, double[] after);

    EngineListener listener();
  }

  // ---------------------------------------------------------------- status events

  /** Applies one validated status event for a URL of this host. */
  public void onStatus(HostStore store, StatusEvent e, Context ctx) {
    long now = ctx.now();
    HostState h = store.host();
    boolean newHost = h == null;
    if (newHost) {
      h = new HostState();
    }
    PageState p = store.page(e.url());

    if (e.status() == CrawlStatus.DISCOVERED) {
      if (p != null) {
        if (!rediscover(store, h, p, e, now, ctx.globalLambda())) {
          ctx.listener().duplicateDiscovered();
          return;
        }
        finish(store, h, now, ctx);
        return;
      }
      p = newPage(h, e);
      h.pages++;
      ctx.listener().stateChanged(1, newHost ? 1 : 0);
      setCurveContribution(h, p, true);
      // A new host's first pages come together (a seed list, a sitemap) and go best first at its
      // first wake-up.
      if (newHost || !sendAtOnce(store, h, p, e.url(), now, ctx)) {
        index(store, h, p, e.url(), now, now);
      }
    } else {
      if (p == null) {
        p = newPage(h, e);
        h.pages++;
        ctx.listener().stateChanged(1, newHost ? 1 : 0);
      }
      if (p.inFlight()) {
        p.leaseUntil = 0;
        h.inFlight--;
      }
      p.forced = false;
      p.expiries = 0; // the crawler answers for this URL
      if (e.weight() != null && e.weight().floatValue() != p.weight) {
        setCurveContribution(h, p, false);
        p.weight = e.weight().floatValue();
      }
      transferMetadata(p, e);
      HostLimits.observe(h, e, now, cfg.defaultMaxRate);
      switch (e.status()) {
        case FETCHED:
          learnChange(h, p, e);
        // fall through: both count as a visit
        case REDIRECTION:
          p.lastFetch = e.time();
          p.ageFrom = 0;
          p.errors = 0;
          p.status = (byte) e.status().ordinal();
          setCurveContribution(h, p, true);
          schedule(store, h, p, e.url(), now, ctx.globalLambda());
          break;
        case FETCH_ERROR:
          p.errors++;
          if (p.errors < cfg.maxFetchErrors) {
            p.status = (byte) CrawlStatus.FETCH_ERROR.ordinal();
            p.forced = true;
            long backoff = cfg.fetchErrorBackoffMs << Math.min(30, p.errors - 1);
            setCurveContribution(h, p, true);
            index(store, h, p, e.url(), now + backoff, now);
            break;
          }
        // fall through: too many errors
        default: // ERROR
          markError(store, h, p, e.url(), now, ctx);
      }
    }
    finish(store, h, now, ctx);
  }

  /**
   * A known page discovered again (a sitemap read anew) with a new weight or known change rate
   * takes them, and a page waiting for its due time is indexed again under them; returns false,
   * changing nothing, when the event brings nothing new.
   */
  private boolean rediscover(
      HostStore store, HostState h, PageState p, StatusEvent e, long now, double lambda0) {
    Double known = knownChangeRate(p, e);
    ChangeStats knownStats = known == null ? null : cfg.estimator.known(known);
    boolean newWeight = e.weight() != null && e.weight().floatValue() != p.weight;
    boolean newRate =
        knownStats != null
            && ((float) knownStats.shape() != p.changeShape
                || (float) knownStats.rate() != p.changeRate);
    if (!newWeight && !newRate) {
      return false;
    }
    setCurveContribution(h, p, false);
    if (newWeight) {
      p.weight = e.weight().floatValue();
    }
    if (newRate) {
      keepExpectedChanges(p, knownStats, now);
      setChangeStats(h, p, knownStats);
    }
    setCurveContribution(h, p, true);
    boolean waiting =
        p.slot >= 0
            && SlotQueues.queueOf(p.slot) == DUE
            && !p.inFlight()
            && !p.forced
            && p.status != CrawlStatus.ERROR.ordinal();
    if (waiting) {
      double theta = thresholds.threshold(h, lambda0, now);
      index(store, h, p, e.url(), catchUp(h, p, dueTime(h, p, theta, now), theta, now), now);
    } else {
      store.putPage(e.url(), p);
    }
    return true;
  }

  /**
   * A known rate replacing a known rate: the changes expected since the last fetch are the old
   * rate's, so the page's age restarts where the new rate gives as many. A page whose rate rose is
   * then not overdue for changes it has not had time to make, and one whose rate fell is as stale
   * as it was.
   */
  private void keepExpectedChanges(PageState p, ChangeStats next, long now) {
    ChangeStats before = new ChangeStats(p.changeShape, p.changeRate);
    if (p.neverFetched() || !cfg.estimator.isKnown(before) || now <= p.ageStart()) {
      return;
    }
    double age = (now - p.ageStart()) * (cfg.estimator.rate(before) / cfg.estimator.rate(next));
    p.ageFrom = Math.max(1, now - (long) Math.min(age, (double) now));
  }

  /**
   * The due time of a page re-planned by a new weight or rate. One the re-plan leaves overdue goes
   * within one re-check period ({@code timer.recheck}), sooner the further its value is above the
   * threshold: a sitemap that re-rates a whole site at once then goes out in value order over
   * hours, not in one burst that delays every other crawl behind it in the crawler's queue.
   */
  private long catchUp(HostState h, PageState p, long due, double theta, long now) {
    if (due >= now) {
      return due;
    }
    double value = crawlValue(h, p, now);
    return value > theta ? now + (long) (cfg.recheckMs * (theta / value)) : due;
  }

  /** A control-stream override of the host's rate limit (0 or less removes it). */
  public void onHostRate(HostStore store, double maxRate, Context ctx) {
    HostState h = store.host();
    if (h == null) {
      return; // overrides for hosts without pages are kept by the caller, not in keyed state
    }
    h.overrideRate = maxRate > 0 ? maxRate : 0;
    finish(store, h, ctx.now(), ctx);
  }

  // ---------------------------------------------------------------- wake-ups

  /**
   * The host's wake-up: re-check due pages against the current threshold and release the best one.
   */
  public void onWake(HostStore store, Context ctx) {
    HostState h = store.host();
    if (h == null) {
      return;
    }
    long now = ctx.now();
    double lambda0 = ctx.globalLambda();
    double theta = thresholds.threshold(h, lambda0, now);

    int budget = cfg.maxSlotsPerWake;
    while (!h.due.isEmpty() && bucketEnd(h.due.firstBucket()) <= now && budget-- > 0) {
      Taken t = take(store, h.due, DUE, h.due.firstBucket());
      if (t == null) {
        continue;
      }
      PageState p = t.page;
      String url = t.url;
      if (p.inFlight()) {
        if (now < p.leaseUntil) {
          index(store, h, p, url, p.leaseUntil, now);
          continue;
        }
        p.leaseUntil = 0;
        h.inFlight--;
        p.forced = true;
        if (p.expiries < Byte.MAX_VALUE) {
          p.expiries++;
        }
        ctx.listener().leaseExpired();
      }
      double v = crawlValue(h, p, now);
      if (p.forced || v >= theta || floorReached(p, now)) {
        pushReady(store, h, p, url, v);
      } else {
        scheduleAt(store, h, p, url, theta, now);
      }
    }

    boolean slotOpen = slotOpen(h, now);
    boolean sent = false;
    if (slotOpen) {
      sent = !h.ready.isEmpty() && dispatchOne(store, h, now, theta, lambda0, ctx);
      if (!sent && theta > lambda0) { // the host's own limit binds (see HostThreshold#constrained)
        sent = pullForward(store, h, now, theta, lambda0, ctx);
      }
    }

    // budget < 0: overdue slots remain. Nothing sent at an open slot: the next try is one spacing
    // away (the slot counts from now), so a limited host with nothing worth sending does not spin.
    long next =
        budget < 0 ? now + 1 : nextWake(h, now, lambda0, slotOpen && !sent ? now : h.lastRelease);
    setWake(h, next, ctx);
    settleLedger(h, now, ctx, false);
    store.putHost(h);
  }

  /** A page taken off a queue: it must be indexed again or released. */
  private record Taken(String url, PageState page) {}

  /**
   * Pops the oldest slot of a bucket; returns its page if the slot is still the page's current one,
   * null for a stale slot (the page was re-indexed or removed since).
   */
  private static Taken take(HostStore store, SlotQueues queues, int queue, long bucket) {
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

  /** Releases the highest-value ready page that still clears the threshold; false if none did. */
  private boolean dispatchOne(
      HostStore store, HostState h, long now, double theta, double lambda0, Context ctx) {
    int budget = cfg.maxSlotsPerWake;
    while (!h.ready.isEmpty() && budget-- > 0) {
      Taken t = take(store, h.ready, READY, h.ready.lastBucket());
      if (t == null) {
        continue;
      }
      PageState p = t.page;
      String url = t.url;
      double v = crawlValue(h, p, now);
      if (!(p.forced || v >= theta || floorReached(p, now))) {
        scheduleAt(store, h, p, url, theta, now); // the threshold rose while it waited
        continue;
      }
      release(store, h, p, url, now, v, theta, ctx);
      return true;
    }
    return false;
  }

  /** A page the free-slot search took off its bucket and puts back there. */
  private record SetAside(Taken taken, long bucket) {}

  /**
   * Candidates a free slot compares, and head entries it may pop to find them (stale ones
   * included).
   */
  private static final int PULL_CANDIDATES = 8;

  private static final int PULL_POPS = 64;

  /**
   * A limited host with a free slot and nothing ready sends early the most valuable of the first
   * few pages of its due queue, if that page is worth a crawl at the global price; returns whether
   * it sent one. The host's limit is the scarce resource: a slot left unused is a crawl lost, and
   * pages fall due in clumps, not evenly. The pages examined but not sent are re-indexed at the
   * current threshold, which moves re-check entries (pages far from due) off the head of the queue.
   */
  private boolean pullForward(
      HostStore store, HostState h, long now, double theta, double lambda0, Context ctx) {
    Taken best = null;
    double bestValue = Double.NEGATIVE_INFINITY;
    int candidates = 0;
    List<SetAside> passed = null;
    for (int pops = 0;
        candidates < PULL_CANDIDATES && pops < PULL_POPS && !h.due.isEmpty();
        pops++) {
      long bucket = h.due.firstBucket();
      Taken t = take(store, h.due, DUE, bucket);
      if (t == null) {
        continue;
      }
      PageState p = t.page;
      if (p.forced || p.inFlight() || p.status == CrawlStatus.ERROR.ordinal()) {
        // Not a candidate (a retry in its back-off, a lease, an error): it goes back into its own
        // bucket once the search is over. Put back at once, it could land in the head bucket again
        // and be popped over and over, and the search would end with the slot unused.
        if (passed == null) {
          passed = new ArrayList<>();
        }
        passed.add(new SetAside(t, bucket));
        continue;
      }
      candidates++;
      double v = crawlValue(h, p, now);
      if (v > bestValue) {
        if (best != null) {
          scheduleAt(store, h, best.page, best.url, theta, now);
        }
        best = t;
        bestValue = v;
      } else {
        scheduleAt(store, h, p, t.url, theta, now);
      }
    }
    for (int i = 0; passed != null && i < passed.size(); i++) {
      SetAside a = passed.get(i);
      replaceSlot(store, a.taken.page, a.taken.url, h.due.push(DUE, a.bucket));
    }
    if (best == null) {
      return false;
    }
    if (bestValue >= lambda0) {
      release(store, h, best.page, best.url, now, bestValue, theta, ctx);
      return true;
    }
    scheduleAt(store, h, best.page, best.url, theta, now);
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
      HostStore store, HostState h, PageState p, String url, long now, Context ctx) {
    if (!h.ready.isEmpty() || (!h.due.isEmpty() && h.due.firstBucket() * cfg.bucketMs <= now)) {
      return false; // other pages may be due: the wake-up compares them
    }
    // Not twice in one instant: the rest of a burst goes at the wake-up, best first.
    if (now <= h.lastRelease || !slotOpen(h, now)) {
      return false;
    }
    double theta = thresholds.threshold(h, ctx.globalLambda(), now);
    double v = crawlValue(h, p, now);
    if (!(v >= theta)) {
      return false;
    }
    release(store, h, p, url, now, v, theta, ctx);
    return true;
  }

  /**
   * The lease of a release: {@code lease}, doubled for each lease of the URL that ran out in a row
   * without a status, up to {@code lease.max}. A crawler that is down for a day is then sent each
   * URL it holds a handful of times, not once per lease period.
   */
  private long leaseMs(PageState p) {
    if (p.expiries == 0) {
      return cfg.leaseMs; // nearly every release
    }
    return (long) Math.min(cfg.leaseMs * Math.pow(2, p.expiries), cfg.maxLeaseMs);
  }

  /** Whether the host's pacing and its room in flight allow a release now. */
  private boolean slotOpen(HostState h, long now) {
    return now >= h.lastRelease + thresholds.spacingMs(h, now)
        && h.inFlight < thresholds.maxInFlight(h, now);
  }

  private void release(
      HostStore store,
      HostState h,
      PageState p,
      String url,
      long now,
      double v,
      double theta,
      Context ctx) {
    long due = Math.min(now, dueTime(h, p, theta, now));
    ReleaseReason reason = releaseReason(p, v, theta, now);
    p.forced = false;
    p.leaseUntil = now + leaseMs(p);
    h.inFlight++;
    h.lastRelease = now;
    index(store, h, p, url, p.leaseUntil, now);
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
    ctx.release(request);
    ctx.listener().released(request, reason, thresholds.maxRate(h, now));
  }

  private ReleaseReason releaseReason(PageState p, double v, double theta, long now) {
    if (p.forced && p.expiries > 0) {
      return ReleaseReason.LEASE_EXPIRED;
    }
    if (p.forced && p.errors > 0) {
      return ReleaseReason.RETRY;
    }
    if (p.neverFetched()) {
      return ReleaseReason.FIRST_CRAWL;
    }
    if (p.forced || v >= theta) {
      return ReleaseReason.DUE;
    }
    return floorReached(p, now) ? ReleaseReason.MAX_INTERVAL : ReleaseReason.EARLY;
  }

  // ---------------------------------------------------------------- the policy

  /**
   * The page's crawl value now, averaged over its change-rate posterior with {@code
   * estimator.expected-value}; a page never fetched is worth its value ceiling.
   */
  public double crawlValue(HostState h, PageState p, long now) {
    if (p.neverFetched()) {
      return valueCeiling(h, p);
    }
    ChangeStats s = changeStats(h, p);
    double tauDays = Math.max(0, now - p.ageStart()) / (double) EngineConfig.DAY_MS;
    return plansWithPosterior(s)
        ? cfg.objective.expectedCrawlValue(p.weight, s.shape(), s.rate(), tauDays)
        : cfg.objective.crawlValue(p.weight, plannedRate(s), tauDays);
  }

  /**
   * The most the page's crawl value can reach: w/δ at the planned rate, or E[w/δ] over the
   * posterior.
   */
  public double valueCeiling(HostState h, PageState p) {
    ChangeStats s = changeStats(h, p);
    return plansWithPosterior(s)
        ? cfg.objective.expectedValueCeiling(p.weight, s.shape(), s.rate())
        : cfg.objective.valueCeiling(p.weight, plannedRate(s));
  }

  /**
   * The change rate the page's demand is counted with, per day: the posterior mean with {@code
   * estimator.expected-value}, else a low quantile of the posterior (see {@code
   * estimator.optimism}), which meets the mean once the evidence is in. With {@code
   * estimator.host-prior} the posterior takes its host's prior ({@link #hostPriorRate}).
   */
  public double changeRate(HostState h, PageState p) {
    return plannedRate(changeStats(h, p));
  }

  private double plannedRate(ChangeStats s) {
    return plansWithPosterior(s)
        ? cfg.estimator.rate(s)
        : cfg.estimator.optimisticRate(s, cfg.optimism);
  }

  /**
   * Whether the value is averaged over the posterior: asked for, and the rate is not simply known.
   */
  private boolean plansWithPosterior(ChangeStats s) {
    return cfg.expectedValue && !cfg.estimator.isKnown(s);
  }

  /**
   * The page's posterior over its change rate, under its host's prior with {@code
   * estimator.host-prior}.
   */
  public ChangeStats changeStats(HostState h, PageState p) {
    ChangeStats s = new ChangeStats(p.changeShape, p.changeRate);
    return cfg.hostPrior ? cfg.estimator.withPriorMean(s, hostPriorRate(h, p)) : s;
  }

  /**
   * The prior mean change rate for a page of this host: the mean estimated rate of the host's other
   * pages with evidence, {@code estimator.prior-rate} counting as one more page (see {@link
   * io.recrawl.estimate.ChangeRateEstimator#pooledPriorMean}). Pages of one site tend to change
   * alike, and a page crawled once or twice is otherwise planned from a crawl-wide guess; the
   * page's own evidence is left out so that it is not counted twice.
   */
  public double hostPriorRate(HostState h, PageState p) {
    if (h.learnedPages == HostState.LEARNED_UNKNOWN) {
      return cfg.estimator.priorRate();
    }
    return cfg.estimator.pooledPriorMean(
        h.learnedRateSum, h.learnedPages, hasEvidence(p) ? learnedRate(p) : Double.NaN);
  }

  /**
   * When the page's crawl value reaches {@code theta}, within the revisit bounds; Long.MAX_VALUE =
   * never.
   */
  public long dueTime(HostState h, PageState p, double theta, long now) {
    if (p.neverFetched()) {
      return valueCeiling(h, p) >= theta ? now : Long.MAX_VALUE;
    }
    ChangeStats s = changeStats(h, p);
    double tauDays =
        plansWithPosterior(s)
            ? cfg.objective.expectedTimeToThreshold(p.weight, s.shape(), s.rate(), theta)
            : cfg.objective.timeToThreshold(p.weight, plannedRate(s), theta);
    double tauMs = Math.max(tauDays * EngineConfig.DAY_MS, cfg.minRevisitMs);
    if (cfg.maxRevisitMs > 0) {
      tauMs = Math.min(tauMs, cfg.maxRevisitMs);
    }
    if (tauMs >= Long.MAX_VALUE / 4.0) {
      return Long.MAX_VALUE;
    }
    return p.ageStart() + (long) Math.ceil(tauMs);
  }

  private boolean floorReached(PageState p, long now) {
    return cfg.maxRevisitMs > 0 && !p.neverFetched() && now - p.lastFetch >= cfg.maxRevisitMs;
  }

  private void schedule(
      HostStore store, HostState h, PageState p, String url, long now, double lambda0) {
    scheduleAt(store, h, p, url, thresholds.threshold(h, lambda0, now), now);
  }

  /**
   * {@link #schedule} at a threshold the caller has at hand (a wake-up's: one look-up on the
   * curve).
   */
  private void scheduleAt(
      HostStore store, HostState h, PageState p, String url, double theta, long now) {
    index(store, h, p, url, dueTime(h, p, theta, now), now);
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
  private void index(HostStore store, HostState h, PageState p, String url, long due, long now) {
    // A forced page (a retry) is released without a value check, so it must not wake early: it has
    // no re-checks on the way and no coarse bucket.
    long at = p.forced ? due : checkTime(due, now);
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

  private void pushReady(HostStore store, HostState h, PageState p, String url, double value) {
    long key = h.ready.push(READY, readyBucket(value, p.weight));
    replaceSlot(store, p, url, key);
  }

  private static void replaceSlot(HostStore store, PageState p, String url, long key) {
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

  private long bucketEnd(long bucket) {
    return (bucket + 1) * cfg.bucketMs;
  }

  // ---------------------------------------------------------------- helpers

  private PageState newPage(HostState h, StatusEvent e) {
    PageState p = new PageState();
    p.weight = (float) (e.weight() != null ? e.weight() : cfg.defaultWeight);
    Double known = knownChangeRate(p, e);
    ChangeStats prior = known != null ? cfg.estimator.known(known) : cfg.estimator.prior();
    p.changeShape = (float) prior.shape();
    p.changeRate = (float) prior.rate();
    countLearnedRate(h, p, +1);
    p.status = (byte) CrawlStatus.DISCOVERED.ordinal();
    transferMetadata(p, e);
    return p;
  }

  /** Learns from a fetch whether the page changed, unless the event states its rate. */
  private void learnChange(HostState h, PageState p, StatusEvent e) {
    Double known = knownChangeRate(p, e);
    if (known != null) {
      setChangeStats(h, p, cfg.estimator.known(known));
    }
    String signature = e.first("signature");
    String etag = e.first("protocol.etag");
    long sigHash = signature == null ? 0 : hash64(signature);
    int etagHash = etag == null ? 0 : etag.hashCode() | 1;
    Long lastModified = ChangeEvidence.parseDate(e.first("protocol.last-modified"));
    ChangeEvidence.Verdict verdict =
        ChangeEvidence.assess(
            e.changed(),
            e.httpStatus() != null ? e.httpStatus() : parseInt(e.first("fetch.statusCode")),
            sigHash == 0 ? null : Long.toString(sigHash),
            p.signatureHash == 0 ? null : Long.toString(p.signatureHash),
            etagHash == 0 ? null : Integer.toString(etagHash),
            p.etagHash == 0 ? null : Integer.toString(p.etagHash),
            lastModified,
            p.lastFetch);
    if (known == null && !p.neverFetched() && e.time() > p.lastFetch) {
      long since =
          verdict == ChangeEvidence.Verdict.CHANGED
              ? ChangeEvidence.sinceLastChange(
                  lastModified,
                  ChangeEvidence.parseDate(e.first("protocol.date")),
                  p.lastFetch,
                  e.time())
              : -1;
      setChangeStats(
          h,
          p,
          cfg.estimator.learn(
              new ChangeStats(p.changeShape, p.changeRate),
              (e.time() - p.lastFetch) / (double) EngineConfig.DAY_MS,
              verdict,
              since / (double) EngineConfig.DAY_MS));
    }
    if (sigHash != 0) {
      p.signatureHash = sigHash;
    }
    if (etagHash != 0) {
      p.etagHash = etagHash;
    }
  }

  /**
   * The event's known change rate ({@link StatusEvent#knownChangeRate}), parsed only when its text
   * differs from the one this page record last carried: a sitemap (or the simulator's oracle)
   * states the same rate event after event, and parsing it cost more than the engine's work on the
   * event.
   */
  private static Double knownChangeRate(PageState p, StatusEvent e) {
    String text = e.first(StatusEvent.CHANGE_RATE_KEY);
    if (text == null) {
      return null;
    }
    if (!text.equals(p.knownRateText)) {
      p.knownRate = e.knownChangeRate();
      p.knownRateText = text;
    }
    return p.knownRate;
  }

  /** Sets the page's change statistics and keeps its host's sum of learned rates in step. */
  private void setChangeStats(HostState h, PageState p, ChangeStats s) {
    countLearnedRate(h, p, -1);
    p.changeShape = (float) s.shape();
    p.changeRate = (float) s.rate();
    countLearnedRate(h, p, +1);
  }

  private void countLearnedRate(HostState h, PageState p, int sign) {
    if (h.learnedPages != HostState.LEARNED_UNKNOWN && hasEvidence(p)) {
      h.learnedPages += sign;
      h.learnedRateSum = h.learnedPages == 0 ? 0 : h.learnedRateSum + sign * learnedRate(p);
    }
  }

  /**
   * Whether the page's statistics are more than the prior: it was observed, or its rate is known.
   */
  private boolean hasEvidence(PageState p) {
    return p.changeShape != priorShape || p.changeRate != priorRate;
  }

  /** The page's posterior mean rate under the configured prior. */
  private static double learnedRate(PageState p) {
    return p.changeShape / (double) p.changeRate;
  }

  /** Marks ERROR, and removes the page if so configured. */
  private void markError(
      HostStore store, HostState h, PageState p, String url, long now, Context ctx) {
    p.status = (byte) CrawlStatus.ERROR.ordinal();
    setCurveContribution(h, p, false);
    if (cfg.errorRemove) {
      if (p.slot >= 0) {
        store.removeSlot(p.slot);
      }
      store.removePage(url);
      countLearnedRate(h, p, -1);
      h.pages--;
      ctx.listener().pageRemoved(url);
      ctx.listener().stateChanged(-1, 0);
      return;
    }
    if (cfg.errorRetryMs > 0) {
      p.forced = true;
      index(store, h, p, url, now + cfg.errorRetryMs, now);
    } else {
      if (p.slot >= 0) {
        store.removeSlot(p.slot);
      }
      p.slot = -1;
      store.putPage(url, p);
    }
  }

  /** Adds (or removes) the page's rate on its host's demand curve, skipping negligible changes. */
  private void setCurveContribution(HostState h, PageState p, boolean present) {
    double rate = 0;
    double shape = 0;
    if (present && p.status != CrawlStatus.ERROR.ordinal()) {
      ChangeStats s = changeStats(h, p);
      rate = plannedRate(s);
      // Counted as planned: over the posterior when the value is averaged over it.
      shape = plansWithPosterior(s) ? s.shape() : 0;
    }
    if (rate > 0
        && p.curveRate > 0
        && within1Percent(rate, p.curveRate)
        && within1Percent(shape, p.curveShape)) {
      return; // not worth two curve updates per event
    }
    if (h.curve == null) {
      h.curve = new double[cfg.grid.size()];
    }
    touchLedger(h);
    if (p.curveRate > 0) {
      thresholds.addPageDemand(h.curve, p.weight, p.curveRate, p.curveShape, -1);
    }
    p.curveRate = (float) rate;
    p.curveShape = (float) shape;
    if (rate > 0) {
      thresholds.addPageDemand(h.curve, p.weight, p.curveRate, p.curveShape, +1);
    }
  }

  private static boolean within1Percent(double x, double reference) {
    return x == reference || Math.abs(x / reference - 1) < 0.01;
  }

  private void finish(HostStore store, HostState h, long now, Context ctx) {
    if (h.pages <= 0) {
      store.removeHost();
      setWake(h, Long.MAX_VALUE, ctx);
      settleLedger(h, now, ctx, true);
      ctx.listener().stateChanged(0, -1);
      return;
    }
    long next = nextWake(h, now, ctx.globalLambda(), h.lastRelease);
    if (next < h.wakeAt || h.wakeAt <= now) {
      setWake(h, next, ctx);
    }
    settleLedger(h, now, ctx, false);
    store.putHost(h);
  }

  // Scratch for the call in progress (an engine serves one thread): the host's contribution to the
  // ledger as the ledger holds it, taken before the first change to its curve.
  private double[] ledgerBefore;
  private boolean ledgerTouched;

  private void touchLedger(HostState h) {
    if (!ledgerTouched) {
      ledgerBefore = HostThreshold.capped(h.curve, h.ledgerRate);
      ledgerTouched = true;
    }
  }

  /**
   * Brings the ledger up to date with the host's curve and current cap. Untouched curve and same
   * cap: nothing to do, which is the common case and spares two curve copies per call.
   */
  private void settleLedger(HostState h, long now, Context ctx, boolean removed) {
    double k = removed ? 0 : thresholds.maxRate(h, now);
    if (ledgerTouched || k != h.ledgerRate) {
      double[] before = ledgerTouched ? ledgerBefore : HostThreshold.capped(h.curve, h.ledgerRate);
      ctx.replaceDemand(before, HostThreshold.capped(h.curve, k));
      h.ledgerRate = k;
    }
    ledgerTouched = false;
    ledgerBefore = null;
  }

  /**
   * The host's next wake-up: the end of its first due bucket, or its next dispatch slot (one
   * spacing after {@code slotFrom}) if a page is ready or the host is limited, and it has room in
   * flight.
   */
  private long nextWake(HostState h, long now, double lambda0, long slotFrom) {
    long next =
        h.due.isEmpty() ? Long.MAX_VALUE : Math.max(now + 1, bucketEnd(h.due.firstBucket()));
    boolean wantsSlot =
        !h.ready.isEmpty() || (!h.due.isEmpty() && thresholds.constrained(h, lambda0, now));
    // With its crawler full, the host waits for a status or a lease expiry instead.
    if (wantsSlot && h.inFlight < thresholds.maxInFlight(h, now)) {
      next = Math.min(next, Math.max(now + 1, slotFrom + thresholds.spacingMs(h, now)));
    }
    return next;
  }

  private static void setWake(HostState h, long next, Context ctx) {
    if (next != h.wakeAt) {
      long previous = h.wakeAt;
      h.wakeAt = next;
      ctx.reschedule(previous, next);
    }
  }

  private void transferMetadata(PageState p, StatusEvent e) {
    if (cfg.metadataTransfer.isEmpty()) {
      return;
    }
    Map<String, List<String>> kept = null;
    for (String key : cfg.metadataTransfer) {
      List<String> v = e.metadata().get(key);
      if (v != null) {
        if (kept == null) {
          kept = new HashMap<>();
        }
        kept.put(key, List.copyOf(v));
      }
    }
    if (kept != null) {
      p.metadata = kept;
    }
  }

  private static Integer parseInt(String s) {
    if (s == null) {
      return null;
    }
    try {
      return Integer.valueOf(s.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A 64-bit string hash (FNV-1a); collisions would only hide one change. */
  static long hash64(String s) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      h ^= s.charAt(i);
      h *= 0x100000001b3L;
    }
    return h == 0 ? 1 : h;
  }
}
