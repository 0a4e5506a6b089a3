package io.recrawl.engine;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.value.Objective;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine's settings. Every key, its default and its meaning is listed in {@link #KEYS}; the
 * same table is in docs/configuration.md and in {@code config/recrawl.yaml} under {@code
 * recrawl.engine}.
 */
public final class EngineConfig {

  public static final long DAY_MS = 86_400_000L;

  /**
   * The most {@code fetch-error.max} may be: its retries double from {@code fetch-error.backoff},
   * so later ones would never come, and from about the 41st at the default back-off the doubling
   * passes Long.MAX_VALUE ms. A page counts its errors in a byte.
   */
  public static final int MAX_FETCH_ERRORS = 32;

  /** key -> [default, description]. */
  public static final Map<String, String[]> KEYS = new LinkedHashMap<>();

  static {
    doc("objective", "freshness", "freshness | harmonic-staleness | changes-caught");
    doc("host.max-rate", "86400", "default host rate limit, crawls per day (86400 = one a second)");
    doc(
        "host.min-rate",
        "1",
        "the lowest rate limit any evidence (crawl-delay, push-back, response times) can give a host, crawls per day; a host that needs less is blocked or parked instead");
    doc(
        "host.rate-ceiling",
        "8640000",
        "the highest rate limit a host_rate override may set, crawls per day (8640000 = 100 a second); overrides outside [host.min-rate, host.rate-ceiling] are dead letters");
    doc(
        "politeness.push-back",
        "true",
        "honour the host's push-back (429/503, Retry-After, outages, response times); false ignores it and keeps the configured limit (for comparison runs only)");
    doc(
        "politeness.retry-after.max",
        "1 d",
        "the longest block a Retry-After can ask for; a value that is absurd or beyond this blocks for this long; a date in the past means now");
    doc(
        "politeness.backoff.initial",
        "1 min",
        "how long a 429/503 without Retry-After, or a host outage, blocks the host the first time");
    doc(
        "politeness.backoff.max",
        "1 d",
        "the back-off doubles with each push-back in a row, up to this");
    doc(
        "politeness.backoff.jitter",
        "0.25",
        "each back-off is scaled by a factor drawn from [1 - jitter, 1 + jitter], so hosts blocked together do not return together");
    doc(
        "politeness.backoff.forgive-after",
        "10",
        "successful fetches after which the push-backs in a row are forgiven (the next back-off starts again at the initial one)");
    doc(
        "politeness.backoff.forgive-quiet",
        "1 d",
        "a push-back this long after the previous one starts again at the initial back-off");
    doc(
        "politeness.outage.min-failures",
        "4",
        "a host is down when at least this many of its last 16 fetches got no answer (a connection failure or a 5xx) and they are more than politeness.outage.failure-share of them: the host is backed off as a whole and its pages keep their schedules");
    doc(
        "politeness.outage.failure-share",
        "0.5",
        "see politeness.outage.min-failures; a page that fails while its host answers others moves towards ERROR (fetch-error.max)");
    doc(
        "politeness.response-time",
        "true",
        "learn the host's capacity from fetch.loadingTime: its rate steps down while response times rise above their baseline, and back up while they stay flat");
    doc(
        "politeness.response-time.slow",
        "8",
        "the rate steps down a tenth (once an hour at most) while recent response times run above this many times their baseline");
    doc(
        "politeness.response-time.flat",
        "4",
        "a learned capacity steps back up (once an hour at most) while recent response times stay within this many times their baseline, or none are reported");
    doc(
        "politeness.capacity.on-429",
        "0.9",
        "a 429 outside a block sets the host's capacity to this share of its rate then");
    doc(
        "politeness.capacity.step-up",
        "0.01",
        "how much a learned capacity grows in an hour of answers that are not slow, as a share, until it reaches the configured limit and is forgotten");
    doc(
        "robots.max-crawl-delay",
        "1 d",
        "a robots.txt crawl-delay above this, or longer than 1 d / host.min-rate (no rate limit is slower), parks the host: nothing is sent to it for a day, or for the crawl-delay if longer (at most this), and until robots evidence within both limits arrives");
    doc("revisit.min-interval", "1 h", "never recrawl a page more often than this");
    doc("revisit.max-interval", "0", "recrawl every page at least this often; 0 = no floor");
    doc("lease", "1 h", "a released URL is released again if no status comes back within this");
    doc(
        "lease.max",
        "0",
        "each lease that runs out without a status doubles the next one of the URL, up to this (a crawler that is down is not sent the same URL every lease period); a status resets it; 0 = 24 x lease");
    doc(
        "due.bucket",
        "1 min",
        "width of the due-time buckets; a page is released at most this late");
    doc(
        "timer.recheck",
        "6 h",
        "a page that waits longer is re-checked against the threshold three quarters of the way through its wait, but no more often than this");
    doc(
        "timer.horizon",
        "7 d",
        "the longest a page waits between two re-checks (a page never worth a crawl is re-checked this often)");
    doc(
        "fetch-error.backoff",
        "2 h",
        "retry delay after the first fetch error; doubles per consecutive error");
    doc(
        "fetch-error.max",
        "3",
        "consecutive fetch errors after which a page becomes ERROR; a whole number up to 32 (each retry waits twice as long as the one before: after the 31st, 2^30 back-offs)");
    doc("error.retry-interval", "0", "retry ERROR pages after this; 0 = never");
    doc("error.remove", "false", "remove ERROR pages from state instead of keeping them");
    doc(
        "error.purge-after",
        "30 d",
        "an ERROR page that has stayed ERROR this long leaves state (counted in pagesRemoved; a later discovery brings it back); a host left without pages keeps its record while its politeness evidence still holds; 0 = keep ERROR pages");
    doc(
        "host.max-pages",
        "10000000",
        "most pages one host keeps in state; a status event for a new page of a full host is a host_full dead letter");
    doc(
        "host-rates.max",
        "100000",
        "most host_rate overrides kept (broadcast state, on the heap of every subtask); an override for one more host is a rate_table_full dead letter");
    doc("weight.default", "1.0", "weight of a page whose events carry none");
    doc("estimator.prior-rate", "1.0", "prior mean change rate, changes per day");
    doc("estimator.prior-shape", "1.0", "weight of the prior, in observations");
    doc(
        "estimator.max-shape",
        "200",
        "cap on the evidence kept; lower forgets faster and follows drift");
    doc(
        "estimator.host-prior",
        "true",
        "plan a page with little evidence from its host's other pages (the mean of their estimated change rates, estimator.prior-rate counting as one page) instead of from estimator.prior-rate alone");
    doc(
        "estimator.expected-value",
        "true",
        "the crawl value is averaged over the change-rate posterior (freshness objective): a page whose rate is uncertain is worth more and is never written off on thin evidence; false = the value at the planned rate (see estimator.optimism)");
    doc(
        "estimator.posterior",
        "grid",
        "gamma = the page's Gamma posterior updated in place (changed verdicts by moment matching); grid = the posterior on a fixed grid in ln(rate) from the page's evidence (4 floats) under a prior learned from the crawl (the mean of the pages' posteriors), projected on a Gamma for planning");
    doc(
        "estimator.exploration",
        "0",
        "with estimator.expected-value: the value of learning, β: a page's crawl value is scaled by 1 + β/√shape (its posterior's coefficient of variation), at most 1 + β, so that pages with little evidence are crawled and learned sooner; 0 = off");
    doc(
        "signals.min-trust",
        "0.95",
        "a host's change signals (the sitemap.lastmod metadata of its events: a sitemap's lastmod, a feed's date, a ping): its \"changed since your last fetch\" claims are used once this share of them, checked against fetches, held (estimated with one held and one broken pseudo-claim); above 1 = never used");
    doc(
        "signals.min-trust-unchanged",
        "0.99",
        "the same for \"unchanged since your last fetch\" claims, which restart a page's age: their errors fall on the pages that change most (a sitemap regenerated late), so they need more; above 1 = never used");
    doc(
        "estimator.optimism",
        "0.5",
        "with estimator.expected-value false: plan with this many standard deviations below the median change rate (about the 30 % quantile), so that pages with little evidence get crawled and learned; 0 = plan with the mean");
    doc("curve.min-threshold", "1e-6", "lowest threshold on the demand-curve grid");
    doc("curve.max-threshold", "1e6", "highest threshold on the demand-curve grid");
    doc("curve.points-per-decade", "3", "resolution of the demand-curve grid");
    doc(
        "wake.max-slots",
        "10000",
        "most due slots one wake-up examines; the rest wait for the next");
    doc(
        "metadata.transfer",
        "[]",
        "metadata keys carried from status events into crawl requests; a 304 keeps the values it does not repeat, such as last-modified");
    doc(
        "metadata.transfer.max-value-chars",
        "4096",
        "a transferred metadata value longer than this is cut to it (counted in metadataCut)");
    doc(
        "metadata.transfer.max-chars",
        "65536",
        "most characters of transferred metadata per request, keys and quoting included; values"
            + " beyond are dropped (counted)");
  }

  private static void doc(String key, String def, String what) {
    KEYS.put(key, new String[] {def, what});
  }

  public final Objective objective;
  public final double defaultMaxRate;
  public final long minRevisitMs;
  public final long maxRevisitMs;
  public final long leaseMs;
  public final long maxLeaseMs;
  public final long bucketMs;
  public final long recheckMs;
  public final long horizonMs;
  public final long fetchErrorBackoffMs;
  public final int maxFetchErrors;
  public final long errorRetryMs;
  public final boolean errorRemove;
  public final long errorPurgeMs;
  public final int maxPagesPerHost;
  public final int maxHostRates;
  public final double defaultWeight;
  public final ChangeRateEstimator estimator;
  public final double optimism;
  public final boolean hostPrior;
  public final boolean expectedValue;
  public final double signalMinTrust;
  public final double signalMinTrustUnchanged;
  public final boolean gridPosterior;
  public final double exploration;
  public final ThresholdGrid grid;
  public final int maxSlotsPerWake;
  public final Set<String> metadataTransfer;
  public final int metadataMaxValueChars;
  public final int metadataMaxChars;
  public final double minHostRate;
  public final double hostRateCeiling;
  public final boolean pushBack;
  public final long maxRetryAfterMs;
  public final long backoffMs;
  public final long maxBackoffMs;
  public final double backoffJitter;
  public final int forgiveAfterFetches;
  public final long forgiveQuietMs;
  public final int outageMinFailures;
  public final double outageFailureShare;
  public final boolean responseTimes;
  public final double responseTimeSlow;
  public final double responseTimeFlat;
  public final double capacityOn429;
  public final double capacityStepUp;
  public final long maxCrawlDelayMs;

  private EngineConfig(Map<String, Object> m, String prefix) {
    Reader r = new Reader(m, prefix);
    objective = r.objective("objective");
    defaultMaxRate = r.positive("host.max-rate");
    minRevisitMs = r.duration("revisit.min-interval");
    maxRevisitMs = r.duration("revisit.max-interval");
    leaseMs = Math.max(1, r.duration("lease"));
    long maxLease = r.duration("lease.max");
    maxLeaseMs = maxLease == 0 ? 24 * leaseMs : maxLease;
    bucketMs = r.duration("due.bucket");
    recheckMs = r.duration("timer.recheck");
    horizonMs = r.duration("timer.horizon");
    fetchErrorBackoffMs = r.duration("fetch-error.backoff");
    double fetchErrors = r.positive("fetch-error.max");
    r.require(
        fetchErrors == Math.rint(fetchErrors) && fetchErrors <= MAX_FETCH_ERRORS,
        "fetch-error.max",
        "must be a whole number from 1 to " + MAX_FETCH_ERRORS);
    maxFetchErrors = (int) fetchErrors;
    errorRetryMs = r.duration("error.retry-interval");
    errorRemove = r.bool("error.remove");
    errorPurgeMs = r.duration("error.purge-after");
    maxPagesPerHost = (int) Math.min(r.positive("host.max-pages"), Integer.MAX_VALUE);
    maxHostRates = (int) Math.min(r.positive("host-rates.max"), Integer.MAX_VALUE);
    defaultWeight = r.positive("weight.default");
    estimator =
        r.build(
            "estimator.prior-rate",
            () ->
                new ChangeRateEstimator(
                    r.positive("estimator.prior-rate"),
                    r.positive("estimator.prior-shape"),
                    r.positive("estimator.max-shape")));
    optimism = r.number("estimator.optimism");
    hostPrior = r.bool("estimator.host-prior");
    expectedValue = r.bool("estimator.expected-value");
    signalMinTrust = r.positive("signals.min-trust");
    signalMinTrustUnchanged = r.positive("signals.min-trust-unchanged");
    String posterior = r.string("estimator.posterior");
    r.require(
        posterior.equals("gamma") || posterior.equals("grid"),
        "estimator.posterior",
        "must be gamma or grid");
    gridPosterior = posterior.equals("grid");
    exploration = r.number("estimator.exploration");
    r.require(
        exploration >= 0 && exploration <= 10, "estimator.exploration", "must be within [0, 10]");
    if (!(optimism >= 0) || optimism > 5) {
      throw new IllegalArgumentException(
          prefix
              + "estimator.optimism: must be within [0, 5] (got '"
              + m.get("estimator.optimism")
              + "')");
    }
    grid =
        r.build(
            "curve.min-threshold",
            () ->
                new ThresholdGrid(
                    r.positive("curve.min-threshold"),
                    r.positive("curve.max-threshold"),
                    (int) r.positive("curve.points-per-decade")));
    maxSlotsPerWake = (int) r.positive("wake.max-slots");
    metadataTransfer = Set.copyOf(r.list("metadata.transfer"));
    metadataMaxValueChars =
        (int) Math.min(r.positive("metadata.transfer.max-value-chars"), 1 << 24);
    metadataMaxChars = (int) Math.min(r.positive("metadata.transfer.max-chars"), 1 << 24);
    minHostRate = r.positive("host.min-rate");
    hostRateCeiling = r.positive("host.rate-ceiling");
    pushBack = r.bool("politeness.push-back");
    maxRetryAfterMs = r.duration("politeness.retry-after.max");
    backoffMs = r.duration("politeness.backoff.initial");
    maxBackoffMs = r.duration("politeness.backoff.max");
    backoffJitter = r.number("politeness.backoff.jitter");
    forgiveAfterFetches = (int) r.positive("politeness.backoff.forgive-after");
    forgiveQuietMs = r.duration("politeness.backoff.forgive-quiet");
    outageMinFailures = (int) r.positive("politeness.outage.min-failures");
    outageFailureShare = r.number("politeness.outage.failure-share");
    responseTimes = r.bool("politeness.response-time");
    responseTimeSlow = r.positive("politeness.response-time.slow");
    responseTimeFlat = r.positive("politeness.response-time.flat");
    capacityOn429 = r.positive("politeness.capacity.on-429");
    capacityStepUp = r.positive("politeness.capacity.step-up");
    maxCrawlDelayMs = r.duration("robots.max-crawl-delay");
    r.require(
        responseTimeFlat >= 1 && responseTimeFlat < responseTimeSlow,
        "politeness.response-time.flat",
        "must be at least 1 and below politeness.response-time.slow");
    r.require(capacityOn429 < 1, "politeness.capacity.on-429", "must be below 1");
    r.require(
        minHostRate <= defaultMaxRate && defaultMaxRate <= hostRateCeiling,
        "host.max-rate",
        "must lie within [host.min-rate, host.rate-ceiling] = ["
            + minHostRate
            + ", "
            + hostRateCeiling
            + "]");
    r.require(minHostRate >= 1e-3, "host.min-rate", "must be at least 0.001 crawls per day");
    r.require(maxRetryAfterMs > 0, "politeness.retry-after.max", "must be > 0");
    r.require(backoffMs > 0, "politeness.backoff.initial", "must be > 0");
    r.require(
        maxBackoffMs >= backoffMs,
        "politeness.backoff.max",
        "must be at least politeness.backoff.initial");
    r.require(
        backoffJitter >= 0 && backoffJitter < 1,
        "politeness.backoff.jitter",
        "must be within [0, 1)");
    r.require(
        outageMinFailures <= 16,
        "politeness.outage.min-failures",
        "at most 16 (the fetches remembered)");
    r.require(
        outageFailureShare > 0 && outageFailureShare < 1,
        "politeness.outage.failure-share",
        "must be within (0, 1)");
    r.require(maxCrawlDelayMs > 0, "robots.max-crawl-delay", "must be > 0");
    r.require(maxLeaseMs >= leaseMs, "lease.max", "must be 0 or at least lease");
    r.require(bucketMs > 0, "due.bucket", "must be > 0");
    r.require(maxPagesPerHost >= 1, "host.max-pages", "must be at least 1");
    r.require(maxHostRates >= 1, "host-rates.max", "must be at least 1");
    r.require(recheckMs >= bucketMs, "timer.recheck", "must be at least due.bucket");
    r.require(horizonMs >= recheckMs, "timer.horizon", "must be at least timer.recheck");
    r.require(
        maxRevisitMs == 0 || maxRevisitMs >= minRevisitMs,
        "revisit.max-interval",
        "must be >= revisit.min-interval");
    r.rejectUnknown();
  }

  /** The dead-letter detail of a host_rate override refused by {@code host-rates.max}. */
  public String hostRatesFullDetail() {
    return "the host-rate table holds its limit of "
        + maxHostRates
        + " hosts (recrawl.engine.host-rates.max)";
  }

  /** The defaults. */
  public static EngineConfig defaults() {
    return fromMap(Map.of(), "");
  }

  /**
   * Builds a configuration from a map of the keys in {@link #KEYS} (missing keys take their
   * default). Unknown keys and bad values are refused with the full key ({@code prefix + key})
   * named.
   */
  public static EngineConfig fromMap(Map<String, ?> values, String prefix) {
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) values;
    return new EngineConfig(m, prefix);
  }

  /** A copy with some keys changed; handy in tests and in the simulator. */
  public static EngineConfig with(Map<String, ?> overrides) {
    return fromMap(overrides, "");
  }

  /** Reads typed values and remembers which keys it saw. */
  private static final class Reader {
    private final Map<String, Object> m;
    private final String prefix;
    private final Set<String> seen = new java.util.HashSet<>();

    Reader(Map<String, Object> m, String prefix) {
      this.m = m;
      this.prefix = prefix;
    }

    private Object raw(String key) {
      seen.add(key);
      Object v = m.get(key);
      return v != null ? v : KEYS.get(key)[0];
    }

    String string(String key) {
      return String.valueOf(raw(key)).strip();
    }

    /** Refuses the configuration, naming the key and its value, unless {@code ok}. */
    void require(boolean ok, String key, String why) {
      if (!ok) {
        throw bad(key, why);
      }
    }

    private IllegalArgumentException bad(String key, String why) {
      Object given = m.containsKey(key) ? m.get(key) : KEYS.get(key)[0] + "', the default, '";
      return new IllegalArgumentException(prefix + key + ": " + why + " (got '" + given + "')");
    }

    double number(String key) {
      Object v = raw(key);
      try {
        return v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString().trim());
      } catch (NumberFormatException e) {
        throw bad(key, "not a number");
      }
    }

    double positive(String key) {
      double v = number(key);
      if (!(v > 0) || Double.isInfinite(v)) {
        throw bad(key, "must be a positive finite number");
      }
      return v;
    }

    long duration(String key) {
      Object v = raw(key);
      return Durations.parseMillis(prefix + key, v);
    }

    boolean bool(String key) {
      Object v = raw(key);
      if (v instanceof Boolean b) {
        return b;
      }
      String s = v.toString().trim();
      if (s.equals("true") || s.equals("false")) {
        return Boolean.parseBoolean(s);
      }
      throw bad(key, "must be true or false");
    }

    Objective objective(String key) {
      try {
        return Objective.byName(raw(key).toString().trim());
      } catch (IllegalArgumentException e) {
        throw bad(key, e.getMessage());
      }
    }

    List<String> list(String key) {
      Object v = raw(key);
      List<String> out = new ArrayList<>();
      if (v instanceof List<?> l) {
        for (Object o : l) {
          out.add(String.valueOf(o));
        }
        return out;
      }
      String s = v.toString().trim();
      if (s.startsWith("[") && s.endsWith("]")) {
        s = s.substring(1, s.length() - 1);
      }
      for (String part : s.split(",")) {
        if (!part.isBlank()) {
          out.add(part.trim());
        }
      }
      return out;
    }

    <T> T build(String key, java.util.function.Supplier<T> f) {
      try {
        return f.get();
      } catch (IllegalArgumentException e) {
        if (e.getMessage() != null && e.getMessage().startsWith(prefix)) {
          throw e;
        }
        throw bad(key, e.getMessage());
      }
    }

    void rejectUnknown() {
      for (String k : m.keySet()) {
        if (!KEYS.containsKey(k)) {
          throw new IllegalArgumentException(
              prefix + k + ": unknown key; known keys: " + String.join(", ", KEYS.keySet()));
        }
      }
    }
  }
}
