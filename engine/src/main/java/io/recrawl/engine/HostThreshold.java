package io.recrawl.engine;

/**
 * A host's threshold θ_i = λ_i + λ_0 and its rate limit k_i: the one place where the host lambda is
 * computed.
 *
 * <p>The host keeps its demand curve D_i(θ) — the crawl rate its pages would take at threshold θ,
 * Σ_j ρ_j(θ) — on a fixed grid. The host lambda is the price at which that demand meets the rate
 * limit: θ_i^c with D_i(θ_i^c) = k_i, so λ_i = max(0, θ_i^c − λ_0) is 0 exactly when the host is
 * not constrained. What the curve cannot see — pages fall due in clumps, not evenly — the engine
 * absorbs without moving the price: clumps wait in the ready queue, highest value first, and a slot
 * a clump leaves idle is filled early with the best page near its due time.
 */
public final class HostThreshold {

  private final EngineConfig cfg;
  private final ThresholdGrid grid;
  private final double minRate;
  private final double maxRate;
  private final RateTable rates;

  HostThreshold(EngineConfig cfg) {
    this.cfg = cfg;
    this.grid = cfg.grid;
    this.rates = new RateTable(cfg.objective, cfg.grid);
    // Per-page rate bounds from the revisit intervals, in crawls per day.
    this.maxRate =
        cfg.minRevisitMs > 0
            ? EngineConfig.DAY_MS / (double) cfg.minRevisitMs
            : Double.POSITIVE_INFINITY;
    this.minRate = cfg.maxRevisitMs > 0 ? EngineConfig.DAY_MS / (double) cfg.maxRevisitMs : 0.0;
  }

  /**
   * The host's rate limit k_i now, crawls per day: its configured limit, lowered by what the host
   * says (a crawl-delay, a capacity learned from push-back and response times), always within
   * [{@code host.min-rate}, {@code host.rate-ceiling}].
   */
  public double maxRate(HostState h, long now) {
    double k = configuredRate(h, now);
    if (h.evidenceRate > 0 && now < h.evidenceUntil) {
      k = Math.min(k, h.evidenceRate);
    }
    if (h.capacityRate > 0) {
      k = Math.min(k, h.capacityRate);
    }
    return Math.max(cfg.minHostRate, Math.min(cfg.hostRateCeiling, k));
  }

  /** The limit configured for the host: its override, else {@code host.max-rate}. */
  double configuredRate(HostState h, long now) {
    return h.overrideRate > 0 ? h.overrideRate : cfg.defaultMaxRate;
  }

  /** Minimum time between two releases to this host, ms (at most a day / host.min-rate). */
  public long spacingMs(HostState h, long now) {
    return (long) Math.ceil(EngineConfig.DAY_MS / maxRate(h, now));
  }

  /**
   * Most URLs the host may have in flight (released, no status yet): what it may fetch in {@code
   * host.in-flight} (half a lease unless set), or one while it has a learned capacity. A crawler
   * that fetches the host more slowly than its limit is not sent more than it can take; otherwise
   * its queue for the host grows until leases expire and slots go to re-releases.
   */
  public long maxInFlight(HostState h, long now) {
    if (h.capacityRate > 0) {
      // A host that pushed back or slowed down gets one request at a time: whatever the crawler
      // holds for it when it next refuses would be fetched into the block.
      return 1;
    }
    return Math.max(1, (long) (maxRate(h, now) * cfg.hostInFlightMs / EngineConfig.DAY_MS));
  }

  /** θ_i^c: where the host's own demand meets its rate limit (0 = never constrained). */
  public double constrainedThreshold(HostState h, long now) {
    return h.curve == null ? 0.0 : grid.thresholdFor(h.curve, maxRate(h, now));
  }

  /** The host's threshold θ_i = max(λ_0, θ_i^c): what schedules revisits. */
  public double threshold(HostState h, double globalLambda, long now) {
    return Math.max(globalLambda, constrainedThreshold(h, now));
  }

  /** Whether the host's own limit binds: its threshold is above the global lambda. */
  public boolean constrained(HostState h, double globalLambda, long now) {
    return constrainedThreshold(h, now) > globalLambda;
  }

  /** The host lambda λ_i = θ_i − λ_0. */
  public double hostLambda(HostState h, double globalLambda, long now) {
    return threshold(h, globalLambda, now) - globalLambda;
  }

  /** What this host contributes to the demand ledger now (to rebuild a ledger after a restore). */
  public double[] ledgerContribution(HostState h) {
    return capped(h.curve, h.ledgerRate);
  }

  /**
   * What the host's URLs in flight (released, no status yet) count towards the global budget's
   * backlog: at most what the host itself fetches in {@code windowDays}, at the cap it has in the
   * ledger. A limited host's queue beyond that waits for the host, whatever the global price. The
   * cap is the stored one, not the current limit, so that a running sum of before/after differences
   * always equals the sum over the hosts' records.
   */
  public static double inFlightForBudget(HostState h, double windowDays) {
    return inFlightForBudget(h.inFlight, h.ledgerRate, windowDays);
  }

  /** The same from a host record's in-flight count and ledger rate. */
  public static double inFlightForBudget(int inFlight, double ledgerRate, double windowDays) {
    if (inFlight <= 0) {
      return 0;
    }
    return ledgerRate > 0 ? Math.min(inFlight, ledgerRate * windowDays) : inFlight;
  }

  /** A demand curve capped at {@code k}; null for no curve or k = 0 (not in the ledger). */
  static double[] capped(double[] curve, double k) {
    if (curve == null || k <= 0) {
      return null;
    }
    double[] out = new double[curve.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = Math.min(k, curve[i]);
    }
    return out;
  }

  /**
   * The crawl rate a page adds to its host's demand at threshold {@code theta}, crawls per day, as
   * {@link #addPageDemand} counts it, solved exactly: what the page asks of the host's limit.
   */
  public double pageDemand(double weight, double changeRate, double shape, double theta) {
    if (!(changeRate > 0)) {
      return 0;
    }
    return Math.max(minRate, Math.min(maxRate, rates.exactRate(weight, changeRate, shape, theta)));
  }

  /**
   * Adds {@code sign} times one page's rate ρ_j(θ), within the revisit bounds, at every grid
   * threshold: at the known rate {@code changeRate} for {@code shape} 0, else as planned from a
   * posterior of that shape and mean (see {@link RateTable}).
   */
  void addPageDemand(double[] curve, double weight, double changeRate, double shape, int sign) {
    rates.add(curve, weight, changeRate, shape, minRate, maxRate, sign);
  }
}
